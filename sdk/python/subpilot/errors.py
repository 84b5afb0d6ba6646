"""What a call raises: the API's refusal (a problem, RFC 9457), or no answer at all."""
from __future__ import annotations

import json
from typing import Any, Dict, Optional, cast

from .response import ApiResponse


class SubpilotError(Exception):
    """The API answered with an error: `code` is stable (branch on it), `detail` says what to do.

    `problem` is the whole problem body, with the members a code adds (`balance` and `required` on a
    402, `errors` on a 422, `scrape_id` on an `answer_lost`, ...); `response` has the status, the
    headers (`Retry-After`, `Credits-Required`, ...) and how many attempts were made.
    """

    def __init__(self, status: int, problem: Dict[str, Any], response: Optional[ApiResponse] = None) -> None:
        self.status = status
        self.problem = problem
        self.code = str(problem.get("code") or f"http.{status}")
        self.detail = str(problem.get("detail") or problem.get("title") or f"The API answered {status}.")
        self.response = response or ApiResponse(status)
        super().__init__(f"{status} {self.code}: {self.detail}")

    @property
    def retry_after(self) -> Optional[float]:
        """Seconds the API asked to wait before trying again, if it said."""
        return self.response.retry_after

    @classmethod
    def from_answer(cls, response: ApiResponse, raw: bytes) -> SubpilotError:
        """The error of an answer's body: its problem, or (a proxy's page, say) its first words as `detail`."""
        try:
            parsed: Any = json.loads(raw.decode("utf-8"))
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            problem = {str(name): value for name, value in cast(Dict[Any, Any], parsed).items()}
        else:
            text = raw.decode("utf-8", "replace").strip()
            problem = {"detail": text[:200]} if text else {}
        return cls(response.status, problem, response)


class SubpilotConnectionError(ConnectionError):
    """No answer came (the connection failed or was cut), after the retries that were safe to make.

    A call that may have reached the API is retried only when that cannot do it twice: a read, or a
    paid call with its `Idempotency-Key`. That key is `idempotency_key` here: pass it to the same
    call again (`idempotency_key=...`) and the API answers the first outcome instead of paying again.
    """

    def __init__(self, message: str, idempotency_key: Optional[str] = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.idempotency_key = idempotency_key
        self.attempts = attempts
