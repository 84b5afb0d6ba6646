"""The generate operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Optional

from .._base import BaseClient
from ..models import (
    GenerateRequest,
    Generation,
    GenerationEdit,
)


class GenerateApi(BaseClient):
    """The API's generate operations."""

    def create_generation(self, body: GenerateRequest, *, idempotency_key: Optional[str] = None) -> Generation:
        """Draft a reply to a post, a comment or a monitor match, or a new post, with the language model (billable): POST /api/v1/generate."""
        return self._call("POST", "/api/v1/generate", body=body, keyed=True, idempotency_key=idempotency_key)

    def get_generation(self, id: str) -> Generation:
        """One generation of this account (free): GET /api/v1/generations/{id}."""
        return self._call("GET", f"/api/v1/generations/{self._segment(id)}")

    def update_generation(self, id: str, body: GenerationEdit) -> Generation:
        """Edit a completed draft before publishing it (free): PATCH /api/v1/generations/{id}."""
        return self._call("PATCH", f"/api/v1/generations/{self._segment(id)}", body=body)
