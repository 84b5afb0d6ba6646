"""JSON Schema (as the API's OpenAPI document writes it) to Python types: TypedDicts, Literals, aliases."""
from __future__ import annotations

import keyword
from dataclasses import dataclass, field
from typing import Any, Dict, List, Set, Tuple, cast

Schema = Dict[str, Any]
REF = "#/components/schemas/"
PRIMITIVES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in text.replace("-", "_").split("_") if part)


def docstring(text: str) -> str:
    """Text for a generated docstring, on one line: backslashes and quotes that would end it escaped."""
    text = " ".join(text.split()).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return text + " " if text.endswith('"') else text


def literal(value: Any) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"' if isinstance(value, str) else repr(value)


@dataclass
class TypedDictDef:
    name: str
    description: str
    fields: List[Tuple[str, str, bool]]  # (key, type expression, required)


@dataclass
class AliasDef:
    name: str
    description: str
    expression: str


@dataclass
class Module:
    """One generated file: its definitions, the names it uses from `typing` and from other modules."""

    typing: Set[str] = field(default_factory=lambda: set[str]())
    imports: Dict[str, Set[str]] = field(default_factory=lambda: dict[str, Set[str]]())
    definitions: List[Any] = field(default_factory=lambda: list[Any]())


def is_constraint(schema: Schema) -> bool:
    """A member of oneOf/anyOf that only says which fields go together (`x-refused-as`), not a type of its own."""
    return "type" not in schema and "$ref" not in schema and "enum" not in schema and "const" not in schema


def merged(schema: Schema, components: Dict[str, Schema]) -> Schema:
    """An allOf flattened: the properties of every part, the schema's own last (they narrow the parts')."""
    properties: Dict[str, Schema] = {}
    required: List[str] = []
    for part in schema.get("allOf", []):
        base = components[part["$ref"][len(REF):]] if "$ref" in part else part
        base = merged(base, components) if "allOf" in base else base
        properties.update(base.get("properties", {}))
        required += [name for name in base.get("required", []) if name not in required]
    properties.update(schema.get("properties", {}))
    required += [name for name in schema.get("required", []) if name not in required]
    return {**{k: v for k, v in schema.items() if k != "allOf"}, "type": "object", "properties": properties, "required": required}


class Renderer:
    """Turns schemas into type expressions, defining a TypedDict for every object with properties."""

    def __init__(self, components: Dict[str, Schema], home_of: Dict[str, str]) -> None:
        self.components = components
        self.home_of = home_of  # schema or TypedDict name → the module that defines it
        self.modules: Dict[str, Module] = {}
        self.taken: Set[str] = set(components)

    def module(self, name: str) -> Module:
        return self.modules.setdefault(name, Module())

    def define_component(self, name: str, module: str) -> None:
        self.home_of[name] = module
        self.define(name, self.components[name], module, own_name=True)

    def define(self, name: str, schema: Schema, module: str, own_name: bool = False) -> str:
        """Defines `name` in `module` from `schema` and returns the name."""
        if not own_name:
            name = self.claim(name, module)
        description = docstring(str(schema.get("description", "")))
        if "allOf" in schema:
            schema = merged(schema, self.components)
        if schema.get("properties"):
            required = set(schema.get("required", []))
            # The functional form (a key such as `from`) evaluates its types at runtime.
            runtime = not all(key.isidentifier() and not keyword.iskeyword(key) for key in schema["properties"])
            fields = [(key, self.render(value, name + pascal(key), module, runtime), key in required) for key, value in schema["properties"].items()]
            self.module(module).definitions.append(TypedDictDef(name, description, fields))
            self.module(module).typing.add("TypedDict")
        else:
            expression = self.render(schema, name, module, runtime=True)
            self.module(module).definitions.append(AliasDef(name, description, expression))
        return name

    def claim(self, name: str, module: str) -> str:
        """A name for a new definition: `name`, or `name2`, `name3` when it is taken."""
        base, n = name, 1
        while name in self.taken:
            n += 1
            name = f"{base}{n}"
        self.taken.add(name)
        self.home_of[name] = module
        return name

    def use(self, name: str, module: str, runtime: bool) -> str:
        """A reference to a defined name from `module`: imported when it lives elsewhere, quoted where evaluated at runtime."""
        home = self.home_of[name]
        if home != module:
            self.module(module).imports.setdefault(home, set()).add(name)
            return name
        return f'"{name}"' if runtime else name

    def render(self, schema: Schema, hint: str, module: str, runtime: bool = False) -> str:
        typing = self.module(module).typing
        if "$ref" in schema:
            return self.use(schema["$ref"][len(REF):], module, runtime)
        alternatives = self.alternatives(schema, hint, module, runtime)
        literals = [value for kind, value in alternatives if kind == "literal"]
        others: List[str] = []
        for kind, value in alternatives:
            if kind == "type" and value not in others:
                others.append(value)
        if literals:
            typing.add("Literal")
            values = [literal(value) for value in literals]
            if len(values) > 8:
                # A long list (Problem's codes) becomes a named alias, one value a line.
                home = module[len("api."):] if module.startswith("api.") else module
                name = self.claim(hint, home)
                body = "".join(f"    {value},\n" for value in values)
                self.module(home).definitions.append(AliasDef(name, "", f"Literal[\n{body}]"))
                self.module(home).typing.add("Literal")
                others.insert(0, self.use(name, module, runtime))
            else:
                others.insert(0, f"Literal[{', '.join(values)}]")
        nullable = "None" in others
        others = [other for other in others if other != "None"]
        if not others:
            return "None"
        expression = others[0]
        if len(others) > 1:
            typing.add("Union")
            expression = f"Union[{', '.join(others)}]"
        if nullable:
            typing.add("Optional")
            return f"Optional[{expression}]"
        return expression

    def alternatives(self, schema: Schema, hint: str, module: str, runtime: bool) -> List[Tuple[str, Any]]:
        """What a value may be: ("literal", value) for each allowed constant, ("type", expression) otherwise."""
        if "$ref" in schema:
            return [("type", self.use(schema["$ref"][len(REF):], module, runtime))]
        if "const" in schema:
            return [("literal", schema["const"])]
        if "enum" in schema:
            return [("type", "None") if value is None else ("literal", value) for value in schema["enum"]]
        if "allOf" in schema or schema.get("properties"):
            return [("type", self.use(self.define(hint, schema, module), module, runtime))]
        for combinator in ("anyOf", "oneOf"):
            members = [member for member in schema.get(combinator, []) if not is_constraint(member)]
            if members:
                return [alternative for member in members for alternative in self.alternatives(member, hint, module, runtime)]
        kinds: Any = schema.get("type")
        if isinstance(kinds, list):
            listed = [str(kind) for kind in cast(List[Any], kinds)]
            return [alternative for kind in listed for alternative in self.alternatives({**schema, "type": kind}, hint, module, runtime)]
        if kinds in PRIMITIVES:
            return [("type", PRIMITIVES[kinds])]
        typing = self.module(module).typing
        if kinds == "array":
            typing.add("List")
            # One item of `subreddits` is a `…Subreddit`; of a name not in the plural, an `…Item`.
            item = hint[:-1] if hint.endswith("s") else hint + "Item"
            return [("type", f"List[{self.render(schema.get('items', {}), item, module, runtime)}]")]
        if kinds == "object" and isinstance(schema.get("additionalProperties"), dict):
            typing.add("Dict")
            return [("type", f"Dict[str, {self.render(schema['additionalProperties'], hint + 'Value', module, runtime)}]")]
        typing.update({"Any"} if kinds is None else {"Any", "Dict"})
        return [("type", "Any" if kinds is None else "Dict[str, Any]")]


def identifiers(fields: List[Tuple[str, str, bool]]) -> bool:
    return all(key.isidentifier() and not keyword.iskeyword(key) for key, _, _ in fields)


def emit_typed_dict(definition: TypedDictDef) -> List[str]:
    """Class syntax where every key is an identifier; else the functional form (keys such as `from`)."""
    required = [f for f in definition.fields if f[2]]
    optional = [f for f in definition.fields if not f[2]]
    doc = [f'    """{definition.description}"""'] if definition.description else []
    if not identifiers(definition.fields):
        if optional:
            raise ValueError(f"{definition.name}: optional keys beside keys that are not identifiers")
        entries = ", ".join(f'"{key}": {expression}' for key, expression, _ in definition.fields)
        return [f'{definition.name} = TypedDict("{definition.name}", {{{entries}}})'] + ([f'"""{definition.description}"""'] if doc else [])
    lines: List[str] = []
    if required and optional:
        lines += [f"class _{definition.name}Required(TypedDict):"] + [f"    {key}: {expression}" for key, expression, _ in required] + ["", ""]
        lines += [f"class {definition.name}(_{definition.name}Required, total=False):"] + doc
        return lines + [f"    {key}: {expression}" for key, expression, _ in optional]
    header = f"class {definition.name}(TypedDict):" if required else f"class {definition.name}(TypedDict, total=False):"
    return [header] + doc + [f"    {key}: {expression}" for key, expression, _ in definition.fields]


def emit_module(title: str, module: Module) -> str:
    lines = [f'"""{title} Generated from the API\'s OpenAPI document by codegen/generate.py: do not edit."""', "from __future__ import annotations", ""]
    if module.typing:
        lines += [f"from typing import {', '.join(sorted(module.typing))}", ""]
    for source in sorted(module.imports):
        lines.append(f"from .{source} import {', '.join(sorted(module.imports[source]))}")
    classes = [d for d in module.definitions if isinstance(d, TypedDictDef)]
    aliases = [d for d in module.definitions if isinstance(d, AliasDef)]
    for definition in classes:
        lines += ["", ""] + emit_typed_dict(definition)
    for alias in aliases:
        lines += ["", "", f"{alias.name} = {alias.expression}"] + ([f'"""{alias.description}"""'] if alias.description else [])
    return "\n".join(lines) + "\n"
