"""The API's operations as methods: one per operation, and iterators over the paged lists."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from schemas import REF, Module, Renderer, Schema, docstring, pascal

def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass
class Operation:
    id: str
    method: str
    path: str
    tag: str
    spec: Schema


def operations_of(document: Schema) -> List[Operation]:
    """Every operation but the HEAD twins (a GET without its body; a client reads the GET)."""
    found: List[Operation] = []
    for path, item in document["paths"].items():
        for method, spec in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                found.append(Operation(spec["operationId"], method.upper(), path, spec["tags"][0], spec))
    return found


def success_schema(operation: Operation) -> Optional[Schema]:
    for status, response in sorted(operation.spec["responses"].items()):
        content = response.get("content", {}).get("application/json")
        if status.startswith("2") and content:
            return content["schema"]
    return None


def body_schema(operation: Operation) -> Optional[Schema]:
    request = operation.spec.get("requestBody")
    return request["content"]["application/json"]["schema"] if request else None


class Methods:
    """Writes one mixin class per tag; `renderer` defines the types they name (in `models`)."""

    def __init__(self, renderer: Renderer, components: Dict[str, Schema]) -> None:
        self.renderer = renderer
        self.components = components
        self.rendered: Dict[Tuple[str, str], str] = {}

    def imports(self, tag: str) -> Module:
        """What the methods' module of `tag` uses: `typing` names, and models (under any module name)."""
        return self.renderer.module(f"api.{tag}")

    def type_of(self, schema: Schema, hint: str, tag: str) -> str:
        """The type expression in the methods' module; an inline object is defined in the models' module of `tag`.

        Each (hint, schema) once: a method and its iterator name the same parameter, defined once.
        """
        key = (hint, json.dumps(schema, sort_keys=True))
        if key not in self.rendered:
            if schema.get("properties"):
                name = self.renderer.define(hint, schema, tag)
                self.imports(tag).imports.setdefault(tag, set()).add(name)
                self.rendered[key] = name
            else:
                self.rendered[key] = self.renderer.render(schema, hint, f"api.{tag}")
        return self.rendered[key]

    def method(self, op: Operation) -> List[str]:
        name = snake(op.id)
        path_params = re.findall(r"{(\w+)}", op.path)
        params: List[str] = [f"{p}: str" for p in path_params]
        keyword: List[str] = []
        query: List[str] = []
        headers: List[Tuple[str, str]] = []
        body = body_schema(op)
        if body is not None:
            body_type = self.type_of(body, pascal(op.id) + "Body", op.tag)
            params.append(f"body: {body_type}" if op.spec["requestBody"].get("required") else f"body: Optional[{body_type}] = None")
        for parameter in op.spec.get("parameters", []):
            if parameter["in"] == "query":
                keyword.append(f"{parameter['name']}: Optional[{self.type_of(parameter['schema'], pascal(op.id) + pascal(parameter['name']), op.tag)}] = None")
                query.append(parameter["name"])
            elif parameter["in"] == "header":
                argument = parameter["name"].replace("-", "_")
                keyword.append(f"{argument}: Optional[str] = None")
                headers.append((parameter["name"], argument))
        if keyword or (body is not None and not op.spec["requestBody"].get("required")):
            self.imports(op.tag).typing.add("Optional")
        success = success_schema(op)
        returns = self.type_of(success, pascal(op.id) + "Result", op.tag) if success else "None"
        path = re.sub(r"{(\w+)}", r"{self._segment(\1)}", op.path)
        arguments = [f'"{op.method}"', f'f"{path}"' if path_params else f'"{path}"']
        if query:
            arguments.append("query={" + ", ".join(f'"{q}": {q}' for q in query) + "}")
        if body is not None:
            arguments.append("body=body")
        keyed = any(header == "idempotency-key" for header, _ in headers)
        other_headers = [(h, a) for h, a in headers if h != "idempotency-key"]
        if other_headers:
            arguments.append("headers={" + ", ".join(f'"{h}": {a}' for h, a in other_headers) + "}")
        if keyed:
            arguments += ["keyed=True", "idempotency_key=idempotency_key"]
        call = f"self._call({', '.join(arguments)})"
        doc = docstring(f"{op.spec.get('summary', op.id)}: {op.method} {op.path}.")
        lines = signature(name, params, keyword, returns) + [f'        """{doc}"""']
        return lines + [f"        return {call}" if success else f"        {call}"]

    def iterators(self, op: Operation) -> List[str]:
        """`iter_…` over every page of a list with `cursor`; `iter_…_after` for one read forward with `after`."""
        names = [p["name"] for p in op.spec.get("parameters", []) if p["in"] == "query"]
        success = success_schema(op)
        if "cursor" not in names or success is None:
            return []
        page = self.components[success["$ref"][len(REF):]]
        item = self.type_of(page["properties"]["data"]["items"], "Item", op.tag)
        self.imports(op.tag).typing.update({"Iterator", "Optional"})
        path_params = re.findall(r"{(\w+)}", op.path)
        base = snake(op.id).replace("list_", "iter_", 1)
        lister = snake(op.id)
        filters = [n for n in names if n not in ("cursor", "after", "limit")]
        schemas = {p["name"]: p["schema"] for p in op.spec["parameters"] if p["in"] == "query"}
        keyword = ["limit: Optional[int] = 100"] + [f"{f}: Optional[{self.type_of(schemas[f], pascal(op.id) + pascal(f), op.tag)}] = None" for f in filters]
        passed = ", ".join([*path_params, "limit=limit", *(f"{f}={f}" for f in filters)])
        lines = [""] + signature(base, [f"{p}: str" for p in path_params], keyword, f"Iterator[{item}]")
        lines += [
            f'        """Every item of {lister}, page after page (`next_cursor`), each once."""',
            "        cursor: Optional[str] = None",
            "        while True:",
            f"            page = self.{lister}({passed}, cursor=cursor)",
            '            yield from page["data"]',
            '            cursor = page["next_cursor"]',
            '            if not page["has_more"] or cursor is None:',
            "                return",
        ]
        if "after" in names:
            lines += [""] + signature(base + "_after", [f"{p}: str" for p in path_params] + ["after: str"], keyword, f"Iterator[{item}]")
            lines += [
                f'        """What was stored after the item `after`, oldest first, each once: the next `after` is the last item read."""',
                "        while True:",
                f"            page = self.{lister}({passed}, after=after)",
                '            yield from page["data"]',
                '            if not page["has_more"] or not page["data"]:',
                "                return",
                '            after = page["data"][-1]["id"]',
            ]
        return lines


def signature(name: str, params: List[str], keyword: List[str], returns: str) -> List[str]:
    """`def name(self, …) -> returns:` on one line, or one parameter a line when that is too long."""
    all_params = ["self", *params, *(["*", *keyword] if keyword else [])]
    line = f"    def {name}({', '.join(all_params)}) -> {returns}:"
    if len(line) <= 120:
        return [line]
    return [f"    def {name}("] + [f"        {p}," for p in all_params] + [f"    ) -> {returns}:"]


def emit_api_module(tag: str, methods: Methods, bodies: List[List[str]]) -> str:
    used = methods.imports(tag)
    models = sorted(name for names in used.imports.values() for name in names)
    lines = [f'"""The {tag} operations. Generated from the API\'s OpenAPI document by codegen/generate.py: do not edit."""', "from __future__ import annotations", ""]
    if used.typing:
        lines += [f"from typing import {', '.join(sorted(used.typing))}", ""]
    lines.append("from .._base import BaseClient")
    if models:
        lines += ["from ..models import ("] + [f"    {name}," for name in models] + [")"]
    lines += ["", "", f"class {pascal(tag)}Api(BaseClient):", f'    """The API\'s {tag} operations."""']
    for body in bodies:
        lines += [""] + body
    return "\n".join(lines) + "\n"
