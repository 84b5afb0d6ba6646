"""What an answer said besides its body: the status, the headers, and the credits it cost."""
from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass, field
from typing import Dict, Optional


def _integer(value: Optional[str]) -> Optional[int]:
    return int(value) if value is not None and value.strip().lstrip("-").isdigit() else None


@dataclass(frozen=True)
class ApiResponse:
    """One answer of the API (`client.last_response`, or `error.response`).

    `headers` has lower-case names. `attempts` counts the requests the call took (retries included);
    `idempotency_key` is the key they all carried, for the calls that take one.
    """

    status: int
    headers: Dict[str, str] = field(default_factory=lambda: dict[str, str]())
    attempts: int = 1
    idempotency_key: Optional[str] = None

    @property
    def credits_charged(self) -> Optional[int]:
        """What this call charged (`Credits-Charged`), on answers that paid: 0 while a scrape still runs."""
        return _integer(self.headers.get("credits-charged"))

    @property
    def credits_balance(self) -> Optional[int]:
        """The spendable balance after the call (`Credits-Balance`), on answers that paid and on a 402."""
        return _integer(self.headers.get("credits-balance"))

    @property
    def credits_required(self) -> Optional[int]:
        """What the call would have cost (`Credits-Required`), on a 402."""
        return _integer(self.headers.get("credits-required"))

    @property
    def idempotent_replayed(self) -> bool:
        """True when the answer is the first outcome of the Idempotency-Key again, and nothing more was charged."""
        return self.headers.get("idempotent-replayed") == "true"

    @property
    def location(self) -> Optional[str]:
        return self.headers.get("location")

    @property
    def retry_after(self) -> Optional[float]:
        """`Retry-After` in seconds (given as seconds or as a date), if the answer has it."""
        value = self.headers.get("retry-after")
        if value is None:
            return None
        if value.strip().isdigit():
            return float(value)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())
