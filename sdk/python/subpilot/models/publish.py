"""Types of the publish operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Literal, Optional, TypedDict, Union



class _PublishDraftRequired(TypedDict):
    generation_id: str


class PublishDraft(_PublishDraftRequired, total=False):
    allow_duplicate: bool
    allow_second_reply: bool


class _PublishCommentRequired(TypedDict):
    type: Literal["comment"]
    parent: str
    body: str


class PublishComment(_PublishCommentRequired, total=False):
    allow_duplicate: bool
    allow_second_reply: bool


class _PublishPostRequired(TypedDict):
    type: Literal["post"]
    subreddit: str
    title: str
    body: str


class PublishPost(_PublishPostRequired, total=False):
    allow_duplicate: bool


class PublicationReddit(TypedDict):
    id: str
    permalink: str


class _PublicationCreditsRequired(TypedDict):
    charged: int


class PublicationCredits(_PublicationCreditsRequired, total=False):
    balance: int


class Publication(TypedDict):
    id: str
    status: Literal["running", "published", "failed", "unknown"]
    type: Literal["comment", "post"]
    generation_id: Optional[str]
    reddit: Optional[PublicationReddit]
    credits: PublicationCredits
    error: Optional[str]
    created_at: str
    source: Literal["reddit", "demo"]


PublishRequest = Union["PublishDraft", "PublishComment", "PublishPost"]
