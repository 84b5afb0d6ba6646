"""The problem (RFC 9457) every error answer carries. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import List, Literal, Optional, TypedDict



class _ProblemErrorRequired(TypedDict):
    path: str
    message: str


class ProblemError(_ProblemErrorRequired, total=False):
    position: int


class ProblemPreview(TypedDict):
    """monitors.volume_too_high: the monitor's preview (MonitorPreview) that the refusal is about"""
    matched_last_hour: int
    items_in_window: int
    window_started_at: str
    estimated_per_day: int
    daily_limit: int
    reason: None


class _ProblemRequired(TypedDict):
    type: str
    title: str
    status: int
    detail: str
    code: ProblemCode


class Problem(_ProblemRequired, total=False):
    errors: List[ProblemError]
    balance: int
    required: int
    buy_url: str
    packs: List[int]
    limit: int
    spent: int
    resets_at: str
    used: int
    would_use: int
    estimated_per_day: int
    preview: ProblemPreview
    policy: Literal["per-key", "per-account"]
    required_scope: str
    key_scopes: List[str]
    scrape_id: str
    generation_id: str
    publication_id: str
    monitor_id: str
    reddit_error: str
    reddit_message: str
    reddit_field: Optional[str]
    upstream_status: int
    retry_at: str
    docs: str


ProblemCode = Literal[
    "answer_lost",
    "auth.insufficient_scope",
    "auth.invalid_key",
    "auth.key_in_url",
    "auth.malformed",
    "auth.missing",
    "auth.too_many_failures",
    "billing.checkout_failed",
    "billing.not_configured",
    "billing.payment_not_found",
    "billing.unknown_pack",
    "connections.not_configured",
    "connections.not_connected",
    "connections.reddit_unavailable",
    "connections.revoked",
    "credits.insufficient",
    "credits.key_limit_reached",
    "credits.key_not_found",
    "destinations.channel_not_configured",
    "destinations.invalid_schedule",
    "destinations.invalid_target",
    "destinations.invalid_time_zone",
    "destinations.invalid_url",
    "destinations.limit_reached",
    "destinations.not_configured",
    "destinations.not_found",
    "destinations.off",
    "destinations.route_not_found",
    "destinations.unconfirmed",
    "generate.comment_not_found",
    "generate.empty_draft",
    "generate.in_progress",
    "generate.llm_unavailable",
    "generate.match_not_found",
    "generate.not_configured",
    "generate.not_editable",
    "generate.not_found",
    "generate.post_not_found",
    "generate.reddit_blocked",
    "generate.reddit_unavailable",
    "generate.reply_to_invalid",
    "idempotency.in_progress",
    "idempotency.invalid_key",
    "idempotency.key_reused",
    "internal",
    "matches.not_found",
    "matches.published",
    "monitors.judge_not_configured",
    "monitors.limit_reached",
    "monitors.match_not_found",
    "monitors.not_configured",
    "monitors.not_found",
    "monitors.stream_off",
    "monitors.too_many_subreddits",
    "monitors.volume_too_high",
    "not_found",
    "outcome_unknown",
    "publish.duplicate",
    "publish.forbidden",
    "publish.generation_not_found",
    "publish.generation_not_ready",
    "publish.hourly_pace",
    "publish.idempotency_mismatch",
    "publish.in_progress",
    "publish.not_found",
    "publish.outcome_unknown",
    "publish.rate_limited",
    "publish.reddit_unavailable",
    "publish.rejected",
    "publish.second_reply",
    "publish.subreddit_pace",
    "query.invalid",
    "query.missing",
    "rate_limit.exceeded",
    "request.headers_too_large",
    "request.invalid",
    "request.invalid_cursor",
    "request.invalid_query",
    "request.malformed",
    "request.malformed_json",
    "request.method_not_allowed",
    "request.missing_host",
    "request.timeout",
    "request.too_large",
    "request.unsupported_media_type",
    "scrape.not_configured",
    "scrape.not_found",
    "scrape.reddit_blocked",
    "scrape.reddit_unavailable",
    "unavailable",
    "webhooks.invalid_url",
    "webhooks.not_configured",
]
