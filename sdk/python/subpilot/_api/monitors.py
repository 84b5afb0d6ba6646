"""The monitors operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Iterator, Literal, Optional

from .._base import BaseClient
from ..models import (
    CreateMonitorBody,
    InboxItem,
    InboxList,
    Match,
    MatchList,
    MatchPatch,
    Monitor,
    MonitorList,
    MonitorUpdate,
    StreamCoverage,
)


class MonitorsApi(BaseClient):
    """The API's monitors operations."""

    def create_monitor(self, body: CreateMonitorBody, *, idempotency_key: Optional[str] = None) -> Monitor:
        """Watch subreddits for new posts and comments that contain keywords: POST /api/v1/monitors."""
        return self._call("POST", "/api/v1/monitors", body=body, keyed=True, idempotency_key=idempotency_key)

    def list_monitors(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> MonitorList:
        """This account's monitors, newest first, with their health (free, cursor-paginated): GET /api/v1/monitors."""
        return self._call("GET", "/api/v1/monitors", query={"limit": limit, "cursor": cursor})

    def iter_monitors(self, *, limit: Optional[int] = 100) -> Iterator[Monitor]:
        """Every item of list_monitors, page after page (`next_cursor`), each once."""
        cursor: Optional[str] = None
        while True:
            page = self.list_monitors(limit=limit, cursor=cursor)
            yield from page["data"]
            cursor = page["next_cursor"]
            if not page["has_more"] or cursor is None:
                return

    def get_monitor(self, id: str) -> Monitor:
        """One monitor of this account, with its health (free): GET /api/v1/monitors/{id}."""
        return self._call("GET", f"/api/v1/monitors/{self._segment(id)}")

    def update_monitor(self, id: str, body: MonitorUpdate) -> Monitor:
        """Change any field of a monitor, or pause or resume it: PATCH /api/v1/monitors/{id}."""
        return self._call("PATCH", f"/api/v1/monitors/{self._segment(id)}", body=body)

    def delete_monitor(self, id: str) -> None:
        """Delete a monitor and its stored matches (its ledger entries stay): DELETE /api/v1/monitors/{id}."""
        self._call("DELETE", f"/api/v1/monitors/{self._segment(id)}")

    def list_monitor_matches(
        self,
        id: str,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        after: Optional[str] = None,
        include: Optional[Literal["filtered"]] = None,
    ) -> MatchList:
        """A monitor's matches: newest first, or with `after` everything stored after a match, oldest first (free): GET /api/v1/monitors/{id}/matches."""
        return self._call("GET", f"/api/v1/monitors/{self._segment(id)}/matches", query={"limit": limit, "cursor": cursor, "after": after, "include": include})

    def iter_monitor_matches(
        self,
        id: str,
        *,
        limit: Optional[int] = 100,
        include: Optional[Literal["filtered"]] = None,
    ) -> Iterator[Match]:
        """Every item of list_monitor_matches, page after page (`next_cursor`), each once."""
        cursor: Optional[str] = None
        while True:
            page = self.list_monitor_matches(id, limit=limit, include=include, cursor=cursor)
            yield from page["data"]
            cursor = page["next_cursor"]
            if not page["has_more"] or cursor is None:
                return

    def iter_monitor_matches_after(
        self,
        id: str,
        after: str,
        *,
        limit: Optional[int] = 100,
        include: Optional[Literal["filtered"]] = None,
    ) -> Iterator[Match]:
        """What was stored after the item `after`, oldest first, each once: the next `after` is the last item read."""
        while True:
            page = self.list_monitor_matches(id, limit=limit, include=include, after=after)
            yield from page["data"]
            if not page["has_more"] or not page["data"]:
                return
            after = page["data"][-1]["id"]

    def list_inbox(
        self,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
        monitor_id: Optional[str] = None,
        status: Optional[str] = None,
        min_relevance: Optional[int] = None,
    ) -> InboxList:
        """Every delivered match of the account's monitors, with its draft and publication (free): GET /api/v1/inbox."""
        return self._call("GET", "/api/v1/inbox", query={"limit": limit, "cursor": cursor, "monitor_id": monitor_id, "status": status, "min_relevance": min_relevance})

    def iter_inbox(
        self,
        *,
        limit: Optional[int] = 100,
        monitor_id: Optional[str] = None,
        status: Optional[str] = None,
        min_relevance: Optional[int] = None,
    ) -> Iterator[InboxItem]:
        """Every item of list_inbox, page after page (`next_cursor`), each once."""
        cursor: Optional[str] = None
        while True:
            page = self.list_inbox(limit=limit, monitor_id=monitor_id, status=status, min_relevance=min_relevance, cursor=cursor)
            yield from page["data"]
            cursor = page["next_cursor"]
            if not page["has_more"] or cursor is None:
                return

    def get_match(self, id: str) -> InboxItem:
        """One match, as the inbox shows it (free): GET /api/v1/matches/{id}."""
        return self._call("GET", f"/api/v1/matches/{self._segment(id)}")

    def update_match(self, id: str, body: MatchPatch) -> InboxItem:
        """Dismiss a match, or put it back in the inbox (free): PATCH /api/v1/matches/{id}."""
        return self._call("PATCH", f"/api/v1/matches/{self._segment(id)}", body=body)

    def get_stream_coverage(self, *, hours: Optional[int] = None) -> StreamCoverage:
        """What the site-wide stream read of all of Reddit, per hour (free): GET /api/v1/stream/coverage."""
        return self._call("GET", "/api/v1/stream/coverage", query={"hours": hours})
