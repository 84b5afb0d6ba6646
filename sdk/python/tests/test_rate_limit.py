"""A 429 against a real server that allows one call a minute per key: waited as Retry-After says, within bounds."""
from __future__ import annotations

import unittest
import urllib.request

from support import Sleeps, env

from subpilot import Subpilot, SubpilotError


def advance_server_clock(seconds: float) -> None:
    """The server's clock is the harness's: moving it is how the wait passes, with no real waiting."""
    urllib.request.urlopen(urllib.request.Request(f"{env('CLOCK_URL')}?seconds={seconds}", method="POST")).close()


class RateLimited(unittest.TestCase):
    def test_a_429_is_waited_for_as_long_as_retry_after_says_then_retried_once(self) -> None:
        sleeps = Sleeps(then=advance_server_clock)
        client = Subpilot(base_url=env("BASE_URL"), sleep=sleeps)
        client.get_balance()  # the key's one call of this minute
        balance = client.get_balance()
        answer = client.last_response
        self.assertEqual(sleeps.asked, [2.0])
        self.assertEqual((answer.status, answer.attempts), (200, 2))
        self.assertGreater(balance["balance"], 0)

    def test_a_wait_longer_than_max_retry_wait_is_raised_at_once(self) -> None:
        sleeps = Sleeps()
        client = Subpilot(env("OTHER_KEY"), base_url=env("BASE_URL"), sleep=sleeps, max_retry_wait=1)
        client.get_balance()
        with self.assertRaises(SubpilotError) as raised:
            client.get_balance()
        self.assertEqual((raised.exception.status, raised.exception.code), (429, "rate_limit.exceeded"))
        self.assertGreater(raised.exception.retry_after or 0, 1)
        self.assertEqual(sleeps.asked, [])


if __name__ == "__main__":
    unittest.main()
