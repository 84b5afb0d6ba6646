"""The credits operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Iterator, Optional

from .._base import BaseClient
from ..models import (
    Balance,
    Checkout,
    CreateCheckoutBody,
    CreditPacks,
    DailyUsage,
    Payment,
    UsageEntry,
    UsageList,
)


class CreditsApi(BaseClient):
    """The API's credits operations."""

    def get_balance(self) -> Balance:
        """Current credit balance (free): GET /api/v1/balance."""
        return self._call("GET", "/api/v1/balance")

    def list_usage(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> UsageList:
        """Ledger entries, newest first (free, cursor-paginated): GET /api/v1/usage."""
        return self._call("GET", "/api/v1/usage", query={"limit": limit, "cursor": cursor})

    def iter_usage(self, *, limit: Optional[int] = 100) -> Iterator[UsageEntry]:
        """Every item of list_usage, page after page (`next_cursor`), each once."""
        cursor: Optional[str] = None
        while True:
            page = self.list_usage(limit=limit, cursor=cursor)
            yield from page["data"]
            cursor = page["next_cursor"]
            if not page["has_more"] or cursor is None:
                return

    def get_daily_usage(self, *, key: Optional[str] = None, days: Optional[int] = None) -> DailyUsage:
        """Credits spent per UTC day, by the account or one of its keys (free): GET /api/v1/usage/daily."""
        return self._call("GET", "/api/v1/usage/daily", query={"key": key, "days": days})

    def list_credit_packs(self) -> CreditPacks:
        """The packs of credits on sale (free): GET /api/v1/credits/packs."""
        return self._call("GET", "/api/v1/credits/packs")

    def create_checkout(self, body: CreateCheckoutBody) -> Checkout:
        """Open a Stripe Checkout page for a pack of credits (free): POST /api/v1/credits/checkout."""
        return self._call("POST", "/api/v1/credits/checkout", body=body)

    def get_payment(self, id: str) -> Payment:
        """One payment of this account (free): GET /api/v1/credits/payments/{id}."""
        return self._call("GET", f"/api/v1/credits/payments/{self._segment(id)}")
