"""Types of the destinations operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import List, Literal, Optional, TypedDict



class _DestinationCreateRequired(TypedDict):
    kind: Literal["slack", "discord", "email", "telegram"]
    name: str


class DestinationCreate(_DestinationCreateRequired, total=False):
    url: str
    address: str


class Destination(TypedDict):
    id: str
    kind: Literal["slack", "discord", "email", "telegram"]
    name: str
    url: Optional[str]
    address: Optional[str]
    chat: Optional[str]
    status: Literal["unconfirmed", "active", "off"]
    off_reason: Optional[str]
    link: Optional[str]
    confirm_by: Optional[str]
    created_at: str


class DestinationList(TypedDict):
    data: List[Destination]


class DestinationUpdate(TypedDict, total=False):
    name: str
    url: str


class DestinationTest(TypedDict, total=False):
    text: str


class DestinationDeliveryAttempt(TypedDict):
    attempted_at: str
    status_code: Optional[int]
    answer: str
    error: Optional[str]
    duration_ms: int


class DestinationDelivery(TypedDict):
    id: str
    subject: str
    status: Literal["pending", "sent", "failed"]
    created_at: str
    sent_at: Optional[str]
    receipt: Optional[str]
    error: Optional[str]
    attempts: List[DestinationDeliveryAttempt]


class DestinationDeliveryList(TypedDict):
    data: List[DestinationDelivery]


class MonitorRoute(TypedDict):
    monitor_id: str
    destination_id: str
    frequency: Literal["instant", "hourly", "daily"]
    at: Optional[str]
    time_zone: Optional[str]
    next_digest_at: Optional[str]
    created_at: str


class MonitorRouteList(TypedDict):
    data: List[MonitorRoute]


class _MonitorRouteUpdateRequired(TypedDict):
    frequency: Literal["instant", "hourly", "daily"]


class MonitorRouteUpdate(_MonitorRouteUpdateRequired, total=False):
    at: str
    time_zone: str
