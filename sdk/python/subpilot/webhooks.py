"""Verifying what this service POSTs to a webhook receiver (Standard Webhooks), standard library only."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from typing import Any, Iterable, Optional, Protocol, Tuple, Union

from .models import WebhookEvent

TOLERANCE_SECONDS = 5 * 60


class Headers(Protocol):
    """Anything with `items()`: a dict, `http.client.HTTPMessage`, a web framework's request headers."""

    def items(self) -> Iterable[Tuple[str, Any]]: ...


class WebhookVerificationError(ValueError):
    """The request was not signed by subpilot with this secret at about this time: answer it 400."""


def verify_webhook(
    secret: str,
    headers: Headers,
    body: Union[bytes, str],
    *,
    tolerance: float = TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> WebhookEvent:
    """The event, if subpilot signed exactly this body with `secret` at about this time.

    `secret` is the account's `whsec_...` text (the Webhooks page); `body` the raw body as received
    (parsing and serialising the JSON again changes it). `webhook-signature` may hold several
    signatures, separated by spaces (a rolled secret signs beside the new one for a day): any one
    that matches will do, each compared in constant time. A `webhook-timestamp` more than `tolerance`
    seconds from `now` (the clock) is refused as a replay. Raises `WebhookVerificationError`. Keep the
    `webhook-id`s you handled: a delivery whose answer was lost is sent again.
    """
    named = {str(name).lower(): str(value) for name, value in headers.items()}
    message_id = named.get("webhook-id", "")
    timestamp = named.get("webhook-timestamp", "")
    signatures = named.get("webhook-signature", "")
    if not (message_id and timestamp and signatures):
        raise WebhookVerificationError("missing webhook headers (webhook-id, webhook-timestamp, webhook-signature)")
    clock = time.time() if now is None else now
    if not re.fullmatch(r"[0-9]{1,12}", timestamp) or abs(clock - int(timestamp)) > tolerance:
        raise WebhookVerificationError("the timestamp is too old or too new")
    try:
        key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret, validate=True)
    except binascii.Error as error:
        raise WebhookVerificationError("the secret is not the whsec_... text of the Webhooks page") from error
    payload = body.encode("utf-8") if isinstance(body, str) else body
    digest = hmac.new(key, f"{message_id}.{timestamp}.".encode("utf-8") + payload, hashlib.sha256).digest()
    expected = base64.b64encode(digest)
    signed = False
    for signature in signatures.split():
        version, _, value = signature.partition(",")
        # Every entry is compared, the matching one included, so the time taken tells nothing.
        signed = (version == "v1" and hmac.compare_digest(value.encode("utf-8"), expected)) or signed
    if not signed:
        raise WebhookVerificationError("no valid signature")
    event: WebhookEvent = json.loads(payload.decode("utf-8"))
    return event
