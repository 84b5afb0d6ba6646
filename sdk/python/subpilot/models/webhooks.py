"""The events this service POSTs to a webhook receiver. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

from .monitors import Match
from .scrape import ScrapeResult


class WebhookEnvelope(TypedDict):
    """What every webhook body is: the event type, when it was queued, and its data. The body is signed as sent: verify the raw bytes before parsing."""
    type: WebhookEnvelopeType
    timestamp: str
    data: Dict[str, Any]


class ScrapeCompletedEventDataUnavailableItem(TypedDict):
    subreddit: str
    reason: str


class _ScrapeCompletedEventDataCreditsRequired(TypedDict):
    charged: int


class ScrapeCompletedEventDataCredits(_ScrapeCompletedEventDataCreditsRequired, total=False):
    balance: int


class ScrapeCompletedEventData(TypedDict):
    """The scrape as GET /api/v1/scrapes/{id} returns it (`credits` holds `charged` only: no `balance`)."""
    id: str
    status: Literal["completed"]
    subreddits: List[str]
    keywords: List[str]
    query: Optional[str]
    match: Literal["word", "phrase"]
    sort: str
    time: str
    limit: int
    include_nsfw: bool
    sources: List[Literal["posts", "comments"]]
    webhook_url: Optional[str]
    results: List[ScrapeResult]
    unavailable: List[ScrapeCompletedEventDataUnavailableItem]
    skipped: int
    credits: ScrapeCompletedEventDataCredits
    error: None
    created_at: str
    completed_at: str


class ScrapeCompletedEvent(TypedDict):
    """A scrape with `webhook_url` completed: its results, what was unavailable, and what it cost."""
    type: Literal["scrape.completed"]
    timestamp: str
    data: ScrapeCompletedEventData


class ScrapeFailedEventDataUnavailableItem(TypedDict):
    subreddit: str
    reason: str


class _ScrapeFailedEventDataCreditsRequired(TypedDict):
    charged: int


class ScrapeFailedEventDataCredits(_ScrapeFailedEventDataCreditsRequired, total=False):
    balance: int


class ScrapeFailedEventData(TypedDict):
    """The scrape as GET /api/v1/scrapes/{id} returns it (`credits` holds `charged` only: no `balance`)."""
    id: str
    status: Literal["failed"]
    subreddits: List[str]
    keywords: List[str]
    query: Optional[str]
    match: Literal["word", "phrase"]
    sort: str
    time: str
    limit: int
    include_nsfw: bool
    sources: List[Literal["posts", "comments"]]
    webhook_url: Optional[str]
    results: List[ScrapeResult]
    unavailable: List[ScrapeFailedEventDataUnavailableItem]
    skipped: int
    credits: ScrapeFailedEventDataCredits
    error: str
    created_at: str
    completed_at: str


class ScrapeFailedEvent(TypedDict):
    """A scrape with `webhook_url` failed (Reddit failing or refusing the app, or the scrape interrupted too often)."""
    type: Literal["scrape.failed"]
    timestamp: str
    data: ScrapeFailedEventData


class MonitorMatchesEventData(TypedDict):
    monitor_id: str
    name: str
    matches: List[Match]


class MonitorMatchesEvent(TypedDict):
    """New matches of a monitor were stored (and charged), up to 100 per event."""
    type: Literal["monitor.matches"]
    timestamp: str
    data: MonitorMatchesEventData


class MonitorPausedEventData(TypedDict):
    monitor_id: str
    name: str
    reason: Literal["insufficient_credits", "daily_cap"]


class MonitorPausedEvent(TypedDict):
    """The service paused a monitor. A pause by its owner sends nothing."""
    type: Literal["monitor.paused"]
    timestamp: str
    data: MonitorPausedEventData


MonitorResumedEventData = TypedDict("MonitorResumedEventData", {"monitor_id": str, "name": str, "reason": Literal["credits_available"], "from": str})


class MonitorResumedEvent(TypedDict):
    """The service resumed a monitor it had paused for credits. Not sent when its owner resumes it, nor when a daily-cap pause ends."""
    type: Literal["monitor.resumed"]
    timestamp: str
    data: MonitorResumedEventData


class MonitorHealthEvent(TypedDict):
    """Something changed in a monitor's health: one of four kinds, told apart by the key beside monitor_id and name (`subreddit`, `gap`, `reddit` or `judge`)."""
    type: Literal["monitor.health"]
    timestamp: str
    data: Union[MonitorHealthSubredditData, MonitorHealthGapData, MonitorHealthRedditData, MonitorHealthJudgeData]


class MonitorHealthSubredditData(TypedDict):
    """A watched subreddit became unavailable; the monitor goes on reading the others."""
    monitor_id: str
    name: str
    subreddit: str
    state: Literal["private", "banned", "not_found", "quarantined", "gated"]


MonitorHealthGapDataGap = TypedDict("MonitorHealthGapDataGap", {"source": Literal["posts", "comments"], "subreddits": List[str], "from": str, "to": str})


class MonitorHealthGapData(TypedDict):
    """A gap was recorded: more was posted than could be read (or than Reddit still lists), so things created between `from` and `to` may have been missed."""
    monitor_id: str
    name: str
    gap: MonitorHealthGapDataGap


class MonitorHealthRedditDataReddit(TypedDict):
    state: Literal["ok", "blocked", "failing"]
    since: str


class MonitorHealthRedditData(TypedDict):
    """How Reddit treats this service's app changed: sent once per change to every active monitor with a webhook_url, never on every cycle."""
    monitor_id: str
    name: str
    reddit: MonitorHealthRedditDataReddit


class MonitorHealthJudgeDataJudge(TypedDict):
    state: Literal["ok", "failing"]
    since: str
    error: Optional[str]


class MonitorHealthJudgeData(TypedDict):
    """The relevance judge started or stopped failing: sent once per change to every active monitor with an intent and a webhook_url, never per match."""
    monitor_id: str
    name: str
    judge: MonitorHealthJudgeDataJudge


class CreditsLowEventData(TypedDict):
    available: int
    threshold: int
    crossed_at: str


class CreditsLowEvent(TypedDict):
    """The account's spendable balance fell below its low-balance threshold: once per crossing."""
    type: Literal["credits.low"]
    timestamp: str
    data: CreditsLowEventData


class CreditsTopupFailedEventData(TypedDict):
    payment_id: str
    credits: int
    amount: int
    currency: str
    code: Literal["authentication_required", "card_declined"]
    reason: str
    failures_in_a_row: int
    auto_topup_disabled: bool


class CreditsTopupFailedEvent(TypedDict):
    """An auto top-up could not charge the saved card; nothing was bought. Saving the auto top-up settings again on the Credits page asks for a card that works at a new checkout."""
    type: Literal["credits.topup_failed"]
    timestamp: str
    data: CreditsTopupFailedEventData


class DestinationOffEventData(TypedDict):
    destination_id: str
    kind: Literal["slack", "discord"]
    name: str
    reason: str
    off_at: str


class DestinationOffEvent(TypedDict):
    """A destination is gone (the service said the webhook or channel no longer exists) and was switched off: nothing more is sent to it. Create it again with a working URL and route the monitors to it."""
    type: Literal["destination.off"]
    timestamp: str
    data: DestinationOffEventData


class WebhookTestEventData(TypedDict):
    message: str


class WebhookTestEvent(TypedDict):
    """A test event: accept it (answer 2xx) and otherwise ignore it."""
    type: Literal["webhook.test"]
    timestamp: str
    data: WebhookTestEventData


WebhookEnvelopeType = Literal[
    "scrape.completed",
    "scrape.failed",
    "monitor.matches",
    "monitor.paused",
    "monitor.resumed",
    "monitor.health",
    "credits.low",
    "credits.topup_failed",
    "destination.off",
    "webhook.test",
]


WebhookEvent = Union[ScrapeCompletedEvent, ScrapeFailedEvent, MonitorMatchesEvent, MonitorPausedEvent, MonitorResumedEvent, MonitorHealthEvent, CreditsLowEvent, CreditsTopupFailedEvent, DestinationOffEvent, WebhookTestEvent]
"""Any event of the webhooks."""
