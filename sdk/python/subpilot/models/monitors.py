"""Types of the monitors operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import List, Literal, Optional, TypedDict



class MonitorHealthReddit(TypedDict):
    """How Reddit treats this service's app, as the poller last saw it: blocked (the app is refused), failing (every read failed: 5xx, timeouts, 429) or ok; `since` is null while it never saw trouble."""
    state: Literal["ok", "blocked", "failing"]
    since: Optional[str]


class MonitorHealthSubredditLastError(TypedDict):
    code: str
    at: str


class MonitorHealthSubreddit(TypedDict):
    subreddit: str
    state: Literal["ok", "private", "banned", "not_found", "quarantined", "gated"]
    stale: bool
    last_read_at: Optional[str]
    last_error: Optional[MonitorHealthSubredditLastError]


class MonitorHealthJudge(TypedDict):
    """The relevance judge as the poller last saw it: failing while every call to the language model fails (matches are then delivered unjudged and not charged for judging); null for a monitor without an intent."""
    state: Literal["ok", "failing"]
    since: Optional[str]
    error: Optional[str]


MonitorHealthGap = TypedDict("MonitorHealthGap", {"source": Literal["posts", "comments"], "subreddits": List[str], "from": str, "to": str, "recorded_at": str})


class MonitorHealthStream(TypedDict):
    """For a monitor over all of Reddit (subreddits ["r/all"]): whether the site-wide stream reads for it. "behind": the stream stopped reading (no commit for 30 s) or is half of REDDIT_STREAM_MAX_LAG_SECONDS behind Reddit, so matches arrive late; a stretch it skips ahead over is listed in gaps. "off": nothing reads it (the server runs no stream). While active and not "reading", its status is "stale". Null for a monitor that names subreddits."""
    state: Literal["reading", "behind", "off"]
    detail: Optional[str]


class MonitorHealthDestination(TypedDict):
    id: str
    name: str
    kind: str
    status: Literal["off", "unconfirmed"]
    reason: Optional[str]


class MonitorHealth(TypedDict):
    status: Literal["ok", "stale", "unavailable"]
    reddit: MonitorHealthReddit
    subreddits: List[MonitorHealthSubreddit]
    read_by_stream: List[Literal["posts", "comments"]]
    judge: Optional[MonitorHealthJudge]
    gaps: List[MonitorHealthGap]
    stream: Optional[MonitorHealthStream]
    destinations: List[MonitorHealthDestination]


class MonitorPreview(TypedDict):
    matched_last_hour: Optional[int]
    items_in_window: Optional[int]
    window_started_at: Optional[str]
    estimated_per_day: Optional[int]
    daily_limit: int
    reason: Optional[str]


class _MonitorRequired(TypedDict):
    id: str
    name: str
    status: Literal["active", "paused"]
    paused_reason: Optional[str]
    paused_until: Optional[str]
    subreddits: List[str]
    exclude_subreddits: List[str]
    keywords: List[str]
    exclude_keywords: List[str]
    match: str
    sources: List[Literal["posts", "comments"]]
    include_nsfw: bool
    webhook_url: Optional[str]
    max_matches_per_day: Optional[int]
    query: Optional[str]
    intent: Optional[str]
    min_relevance: int
    draft_replies: bool
    draft_instructions: Optional[str]
    health: MonitorHealth
    created_at: str
    updated_at: str


class Monitor(_MonitorRequired, total=False):
    preview: MonitorPreview


class MonitorList(TypedDict):
    data: List[Monitor]
    has_more: bool
    next_cursor: Optional[str]


class MonitorUpdate(TypedDict, total=False):
    name: str
    subreddits: List[str]
    exclude_subreddits: List[str]
    keywords: List[str]
    exclude_keywords: List[str]
    match: Literal["word", "phrase"]
    sources: List[Literal["posts", "comments"]]
    include_nsfw: bool
    webhook_url: Optional[str]
    max_matches_per_day: Optional[int]
    query: Optional[str]
    intent: Optional[str]
    min_relevance: int
    draft_replies: bool
    draft_instructions: Optional[str]
    confirm_volume: bool
    status: Literal["active", "paused"]


class MatchJudgeError(TypedDict):
    """Why a match of a monitor with an intent was delivered unjudged (and not charged for judging)"""
    code: str
    message: str


class Match(TypedDict):
    id: str
    monitor_id: str
    type: Literal["post", "comment"]
    reddit_id: str
    subreddit: str
    title: str
    body: str
    author: str
    permalink: str
    created_at: str
    matched_keywords: List[str]
    found_at: str
    relevance: Optional[int]
    relevance_reason: Optional[str]
    judge_error: Optional[MatchJudgeError]
    judge_model: Optional[str]
    filtered: bool
    status: Literal["new", "drafted", "published", "dismissed"]
    draft_id: Optional[str]
    publication_id: Optional[str]
    source: Literal["reddit", "demo"]


class MatchList(TypedDict):
    data: List[Match]
    has_more: bool
    next_cursor: Optional[str]


class InboxItemJudgeError(TypedDict):
    """Why a match of a monitor with an intent was delivered unjudged (and not charged for judging)"""
    code: str
    message: str


class InboxItemDraft(TypedDict):
    """Its newest reply draft, in brief (GET /generations/{id} has all of it)"""
    id: str
    status: Literal["running", "completed", "failed"]
    body: Optional[str]
    error: Optional[str]
    edited_at: Optional[str]


class InboxItemPublication(TypedDict):
    """The publication that answered it"""
    id: str
    status: Literal["running", "published", "failed", "unknown"]
    permalink: Optional[str]
    author: Optional[str]


class InboxItem(TypedDict):
    id: str
    monitor_id: str
    type: Literal["post", "comment"]
    reddit_id: str
    subreddit: str
    title: str
    body: str
    author: str
    permalink: str
    created_at: str
    matched_keywords: List[str]
    found_at: str
    relevance: Optional[int]
    relevance_reason: Optional[str]
    judge_error: Optional[InboxItemJudgeError]
    judge_model: Optional[str]
    filtered: bool
    status: Literal["new", "drafted", "published", "dismissed"]
    draft_id: Optional[str]
    publication_id: Optional[str]
    source: Literal["reddit", "demo"]
    monitor_name: str
    status_at: Optional[str]
    draft: Optional[InboxItemDraft]
    publication: Optional[InboxItemPublication]


class InboxList(TypedDict):
    data: List[InboxItem]
    has_more: bool
    next_cursor: Optional[str]


class MatchPatch(TypedDict):
    status: Literal["new", "dismissed"]


class StreamCoverageHour(TypedDict):
    hour: str
    source: Literal["posts", "comments"]
    first_id: str
    last_id: str
    asked: int
    returned: int
    unavailable: int
    pending: int
    skipped: int


class StreamGap(TypedDict):
    source: Literal["posts", "comments"]
    from_id: str
    to_id: str
    recorded_at: str


class StreamCoverage(TypedDict):
    enabled: bool
    hours: List[StreamCoverageHour]
    gaps: List[StreamGap]


class _CreateMonitorBodyRequired(TypedDict):
    name: str
    subreddits: List[str]


class CreateMonitorBody(_CreateMonitorBodyRequired, total=False):
    exclude_subreddits: List[str]
    keywords: List[str]
    exclude_keywords: List[str]
    match: Literal["word", "phrase"]
    sources: List[Literal["posts", "comments"]]
    include_nsfw: bool
    webhook_url: Optional[str]
    max_matches_per_day: Optional[int]
    query: Optional[str]
    intent: Optional[str]
    min_relevance: int
    draft_replies: bool
    draft_instructions: Optional[str]
    confirm_volume: bool
