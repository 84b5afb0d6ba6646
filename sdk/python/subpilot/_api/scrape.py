"""The scrape operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Iterator, Optional

from .._base import BaseClient
from ..models import (
    CreateScrapeBody,
    Scrape,
    ScrapeList,
    ScrapeSummary,
)


class ScrapeApi(BaseClient):
    """The API's scrape operations."""

    def create_scrape(
        self,
        body: CreateScrapeBody,
        *,
        prefer: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> Scrape:
        """Find Reddit posts in subreddits that match keywords (billable): POST /api/v1/scrape."""
        return self._call("POST", "/api/v1/scrape", body=body, headers={"prefer": prefer}, keyed=True, idempotency_key=idempotency_key)

    def get_scrape(self, id: str) -> Scrape:
        """One scrape of this account, with its results (free): GET /api/v1/scrapes/{id}."""
        return self._call("GET", f"/api/v1/scrapes/{self._segment(id)}")

    def list_scrapes(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> ScrapeList:
        """This account's scrapes, newest first, without results (free, cursor-paginated): GET /api/v1/scrapes."""
        return self._call("GET", "/api/v1/scrapes", query={"limit": limit, "cursor": cursor})

    def iter_scrapes(self, *, limit: Optional[int] = 100) -> Iterator[ScrapeSummary]:
        """Every item of list_scrapes, page after page (`next_cursor`), each once."""
        cursor: Optional[str] = None
        while True:
            page = self.list_scrapes(limit=limit, cursor=cursor)
            yield from page["data"]
            cursor = page["next_cursor"]
            if not page["has_more"] or cursor is None:
                return
