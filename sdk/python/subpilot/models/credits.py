"""Types of the credits operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import List, Literal, Optional, TypedDict



class Balance(TypedDict):
    balance: int
    owed: int


class UsageEntryKey(TypedDict):
    name: str
    prefix: str


class UsageEntryPayment(TypedDict):
    id: str
    amount: int
    currency: str
    source: Literal["checkout", "topup"]


class UsageEntry(TypedDict):
    id: int
    type: Literal["grant", "charge", "refund", "purchase", "clawback", "reinstatement", "owed_settlement"]
    amount: int
    balance_after: int
    key: Optional[UsageEntryKey]
    scrape_id: Optional[str]
    generation_id: Optional[str]
    publication_id: Optional[str]
    payment: Optional[UsageEntryPayment]
    owed_change: int
    reason: Optional[str]
    description: str
    via: Optional[Literal["api", "mcp", "dashboard", "monitor"]]
    created_at: str


class UsageList(TypedDict):
    data: List[UsageEntry]
    has_more: bool
    next_cursor: Optional[str]


class DailyUsageKey(TypedDict):
    name: str
    prefix: str


class DailyUsageDay(TypedDict):
    date: str
    credits: int


class DailyUsageMonthToDate(TypedDict):
    spent: int
    limit: Optional[int]
    resets_at: str


class DailyUsage(TypedDict):
    key: Optional[DailyUsageKey]
    days: List[DailyUsageDay]
    total: int
    month_to_date: Optional[DailyUsageMonthToDate]


class CreditPack(TypedDict):
    credits: int
    amount: int
    currency: str
    price: str


class CreditPacks(TypedDict):
    packs: List[CreditPack]
    buy_url: Optional[str]
    contact: Optional[str]


class Payment(TypedDict):
    id: str
    status: Literal["open", "pending", "paid", "failed", "expired"]
    source: Literal["checkout", "topup"]
    credits: int
    amount: int
    currency: str
    price: str
    credited: bool
    created_at: str
    paid_at: Optional[str]


class Checkout(TypedDict):
    payment: Payment
    url: str
    expires_at: str


class CreateCheckoutBody(TypedDict):
    credits: int
