"""Types of the scrape operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import List, Literal, Optional, TypedDict



class _ScrapeResultRequired(TypedDict):
    type: Literal["post", "comment"]
    id: str
    subreddit: str
    title: str
    body: str
    author: str
    url: str
    permalink: str
    created_at: str
    score: int
    num_comments: int
    nsfw: bool
    matched_keywords: List[str]
    source: Literal["reddit", "demo"]


class ScrapeResult(_ScrapeResultRequired, total=False):
    truncated: bool


class ScrapeUnavailableItem(TypedDict):
    subreddit: str
    reason: str


class _ScrapeCreditsRequired(TypedDict):
    charged: int


class ScrapeCredits(_ScrapeCreditsRequired, total=False):
    balance: int


class Scrape(TypedDict):
    id: str
    status: Literal["queued", "running", "completed", "failed"]
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
    unavailable: List[ScrapeUnavailableItem]
    skipped: int
    credits: ScrapeCredits
    error: Optional[str]
    created_at: str
    completed_at: Optional[str]


class ScrapeSummaryUnavailableItem(TypedDict):
    subreddit: str
    reason: str


class _ScrapeSummaryCreditsRequired(TypedDict):
    charged: int


class ScrapeSummaryCredits(_ScrapeSummaryCreditsRequired, total=False):
    balance: int


class ScrapeSummary(TypedDict):
    id: str
    status: Literal["queued", "running", "completed", "failed"]
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
    unavailable: List[ScrapeSummaryUnavailableItem]
    skipped: int
    credits: ScrapeSummaryCredits
    error: Optional[str]
    created_at: str
    completed_at: Optional[str]


class ScrapeList(TypedDict):
    data: List[ScrapeSummary]
    has_more: bool
    next_cursor: Optional[str]


class _CreateScrapeBodyRequired(TypedDict):
    subreddits: List[str]


class CreateScrapeBody(_CreateScrapeBodyRequired, total=False):
    keywords: List[str]
    query: str
    match: Literal["word", "phrase"]
    sort: Literal["new", "relevance", "top"]
    time: Literal["hour", "day", "week", "month", "year", "all"]
    limit: int
    include_nsfw: bool
    sources: List[Literal["posts", "comments"]]
    webhook_url: str
