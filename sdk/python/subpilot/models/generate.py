"""Types of the generate operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from typing import Literal, Optional, TypedDict, Union



class _GenerateReplyRequired(TypedDict):
    type: Literal["reply"]


class GenerateReply(_GenerateReplyRequired, total=False):
    reply_to: str
    post_id: str
    instructions: str
    tone: str
    max_length: int


class _GeneratePostRequired(TypedDict):
    type: Literal["post"]
    subreddit: str
    instructions: str


class GeneratePost(_GeneratePostRequired, total=False):
    tone: str
    max_length: int


class GenerationUsage(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class _GenerationCreditsRequired(TypedDict):
    charged: int


class GenerationCredits(_GenerationCreditsRequired, total=False):
    balance: int


class Generation(TypedDict):
    id: str
    type: Literal["reply", "post"]
    status: Literal["running", "completed", "failed"]
    post_id: Optional[str]
    reply_to: Optional[str]
    match_id: Optional[str]
    subreddit: str
    title: Optional[str]
    body: Optional[str]
    model: Optional[str]
    usage: Optional[GenerationUsage]
    credits: GenerationCredits
    error: Optional[str]
    created_at: str
    edited_at: Optional[str]


class _GenerationEditRequired(TypedDict):
    body: str


class GenerationEdit(_GenerationEditRequired, total=False):
    title: str


GenerateRequest = Union["GenerateReply", "GeneratePost"]
