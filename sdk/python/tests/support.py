"""What the test harness (test/sdk/python-sdk.test.ts) hands the scripts: the server, keys and ids, in the environment."""
from __future__ import annotations

import json
import os
from typing import Any, Callable, List, Optional


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"{name} is not set: run these scripts through test/sdk/python-sdk.test.ts")
    return value


def report(**values: Any) -> None:
    """One JSON line on standard output for the harness, which checks the server's side (the ledger, the requests)."""
    print("REPORT " + json.dumps(values), flush=True)


class Sleeps:
    """A `sleep` for the client that waits for nothing: it records what it was asked, and calls `then` (if given)."""

    def __init__(self, then: Optional[Callable[[float], None]] = None) -> None:
        self.asked: List[float] = []
        self.then = then

    def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        if self.then is not None:
            self.then(seconds)
