"""The client's core: one call to the API with the key, its retries, and the record of its answer."""
from __future__ import annotations

import http.client
import json
import os
import random as _random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from email.message import Message
from typing import IO, Any, Callable, Dict, Mapping, Optional, Tuple, Union

from .errors import SubpilotConnectionError, SubpilotError
from .response import ApiResponse
from .version import __version__

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
# Methods whose request may be repeated as it is: sent twice, they do what they did once.
REPEATABLE = frozenset({"GET", "HEAD", "PUT", "DELETE"})
# 503s that say nothing was created: any call may be sent again.
NOTHING_DONE = frozenset({"unavailable"})
# 503s after which the work may have been done: only a call that cannot do it twice is sent again.
MAYBE_DONE = frozenset({"answer_lost", "outcome_unknown"})
# 409s that say "the first request with this key is still running": its retry gets that outcome.
IN_PROGRESS = frozenset({"idempotency.in_progress", "generate.in_progress", "publish.in_progress"})

QueryValue = Union[str, int, float, None]


class _Key:
    """The API key, kept out of reprs, logs and tracebacks' locals: only the request header sees it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def header(self) -> str:
        return f"Bearer {self._value}"

    def __repr__(self) -> str:
        return "<API key hidden>"


class _Unanswered(Exception):
    """The request got no answer; `unsent` when it cannot have reached the API (refused, no such host)."""

    def __init__(self, unsent: bool) -> None:
        super().__init__()
        self.unsent = unsent


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """The API never redirects; following one could send the key to another host."""

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: http.client.HTTPMessage, newurl: str
    ) -> Optional[urllib.request.Request]:
        return None


def _lower(headers: Message[str, str]) -> Dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


class BaseClient:
    """The key (`api_key`, else `SUBPILOT_API_KEY`), the server (`base_url`) and how calls are retried.

    Retried, up to `max_retries` times: a 429 (not a bad key's `auth.too_many_failures`, which waiting
    does not mend), a 503 `unavailable` (nothing was done) and, for a call that cannot run twice (a
    GET, PUT or DELETE, or a call with its `Idempotency-Key`), a 503 after which the work may have
    been done (`answer_lost`, `outcome_unknown`, a proxy's 503), a 409 "still in progress" and a lost
    answer. The wait is what `Retry-After` asks, else 0.5 s, 1 s, 2 s, ... with jitter (`random`),
    never longer than `max_retry_wait` seconds: a longer wait is raised at once. `sleep` is how the
    client waits (tests pass their own).
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        random: Callable[[], float] = _random.random,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("SUBPILOT_API_KEY", "")
        if not key.strip():
            raise ValueError("No API key: pass api_key= or set SUBPILOT_API_KEY.")
        self._key = _Key(key.strip())
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        self._random = random
        self._opener = urllib.request.build_opener(_NoRedirects())
        self._last_response: Optional[ApiResponse] = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"

    @property
    def last_response(self) -> ApiResponse:
        """The last answer this client received: its status, headers, cost and attempts (a RuntimeError before any)."""
        if self._last_response is None:
            raise RuntimeError("No call of this client has been answered yet.")
        return self._last_response

    @staticmethod
    def _segment(value: str) -> str:
        """A path parameter, escaped so that it stays one segment of the path."""
        return urllib.parse.quote(value, safe="")

    def _call(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, Optional[str]]] = None,
        keyed: bool = False,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """Sends the call, retrying as the class says; the answer's JSON, or None for an empty one."""
        # One key for the call, made before the first attempt and sent with every retry: the API
        # then runs and charges it once, however many attempts it takes.
        key = idempotency_key or (str(uuid.uuid4()) if keyed else None)
        pairs = [(name, str(value)) for name, value in (query or {}).items() if value is not None]
        url = self.base_url + path + (f"?{urllib.parse.urlencode(pairs)}" if pairs else "")
        data = None if body is None else json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        sent = {"Accept": "application/json", "User-Agent": f"subpilot-python/{__version__}"}
        sent.update({name: value for name, value in (headers or {}).items() if value is not None})
        if data is not None:
            sent["Content-Type"] = "application/json"
        if key is not None:
            sent["Idempotency-Key"] = key
        # Sent twice, the call does what it did once: its method says so, or its key makes it so.
        safe = key is not None or method in REPEATABLE
        attempt = 1
        while True:
            try:
                status, answer_headers, raw = self._send(method, url, data, sent)
            except _Unanswered as lost:
                # A request that never left (the connection was refused) may be sent again whatever it is.
                wait = self._wait(attempt, None) if safe or lost.unsent else None
                if wait is None:
                    message = f"No answer from {self.base_url} to {method} {path} after {attempt} attempt(s): {lost.__cause__}"
                    raise SubpilotConnectionError(message, key, attempt) from lost.__cause__
                self._sleep(wait)
                attempt += 1
                continue
            response = ApiResponse(status, answer_headers, attempt, key)
            self._last_response = response
            if status < 400:
                return json.loads(raw.decode("utf-8")) if raw.strip() else None
            error = SubpilotError.from_answer(response, raw)
            wait = self._wait(attempt, response.retry_after) if self._retried(error, safe, key is not None) else None
            if wait is None:
                raise error
            self._sleep(wait)
            attempt += 1

    @staticmethod
    def _retried(error: SubpilotError, safe: bool, keyed: bool) -> bool:
        """Whether sending `error`'s call again can help, and cannot do the work twice."""
        # A 429 comes before the body is read and before any charge, so any call may repeat it.
        return (
            (error.status == 429 and not error.code.startswith("auth."))
            or (error.status == 503 and error.code in NOTHING_DONE)
            or (safe and error.code in MAYBE_DONE)
            # A 503 that is not a problem of the API comes from something in front of it (a proxy).
            or (safe and error.status == 503 and "code" not in error.problem)
            or (keyed and error.status == 409 and error.code in IN_PROGRESS)
        )

    def _wait(self, attempt: int, asked: Optional[float]) -> Optional[float]:
        """Seconds to wait before the next attempt: what was asked, else a back-off; None past the bounds."""
        if attempt > self.max_retries:
            return None
        ceiling = min(self.max_retry_wait, 0.5 * 2 ** (attempt - 1))
        wait = asked if asked is not None else ceiling * (0.5 + self._random() / 2)
        return wait if wait <= self.max_retry_wait else None

    def _send(self, method: str, url: str, data: Optional[bytes], headers: Dict[str, str]) -> Tuple[int, Dict[str, str], bytes]:
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        # Added here, on the request alone: no dict a traceback's locals would show holds the key.
        request.add_unredirected_header("Authorization", self._key.header())
        try:
            try:
                with self._opener.open(request, timeout=self.timeout) as answer:
                    return answer.status, _lower(answer.headers), answer.read()
            except urllib.error.HTTPError as refusal:
                with refusal:
                    return refusal.code, _lower(refusal.headers), refusal.read()
        except urllib.error.URLError as failure:
            raise _Unanswered(isinstance(failure.reason, (ConnectionRefusedError, socket.gaierror))) from failure
        except (OSError, http.client.HTTPException) as failure:
            raise _Unanswered(False) from failure
