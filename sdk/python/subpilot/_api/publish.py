"""The publish operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Optional

from .._base import BaseClient
from ..models import (
    Publication,
    PublishRequest,
)


class PublishApi(BaseClient):
    """The API's publish operations."""

    def create_publication(self, body: PublishRequest, *, idempotency_key: Optional[str] = None) -> Publication:
        """Post a comment or a self post to Reddit as the account's connected Reddit user (billable): POST /api/v1/publish."""
        return self._call("POST", "/api/v1/publish", body=body, keyed=True, idempotency_key=idempotency_key)

    def get_publication(self, id: str) -> Publication:
        """One publication of this account (free): GET /api/v1/publications/{id}."""
        return self._call("GET", f"/api/v1/publications/{self._segment(id)}")
