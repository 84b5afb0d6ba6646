"""What the client does without a server: the key kept out of sight, the address, calls no one answers, answers' headers."""
from __future__ import annotations

import os
import socket
import socketserver
import threading
import unittest
from email.utils import formatdate
from unittest import mock

from support import Sleeps

from subpilot import ApiResponse, Subpilot, SubpilotConnectionError, SubpilotError

KEY = "ak_live_" + "5" * 64


def unanswered_url() -> str:
    """An address where nothing listens: a connection to it is refused, so no request is sent."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return f"http://127.0.0.1:{port}"


class TheKey(unittest.TestCase):
    def test_the_key_comes_from_subpilot_api_key_and_is_never_shown(self) -> None:
        with mock.patch.dict(os.environ, {"SUBPILOT_API_KEY": KEY}):
            client = Subpilot(base_url="https://api.example.com/")
        self.assertEqual(client.base_url, "https://api.example.com")
        for shown in (repr(client), str(client), repr(vars(client))):
            self.assertNotIn(KEY, shown)
            self.assertNotIn("5" * 16, shown)

    def test_without_a_key_the_client_says_where_to_put_one(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True), self.assertRaisesRegex(ValueError, "SUBPILOT_API_KEY"):
            Subpilot()


class NoAnswer(unittest.TestCase):
    def test_a_refused_connection_is_retried_with_growing_waits_then_raised_with_the_key_to_retry_with(self) -> None:
        sleeps = Sleeps()
        client = Subpilot(KEY, base_url=unanswered_url(), sleep=sleeps, random=lambda: 1.0)
        with self.assertRaises(SubpilotConnectionError) as raised:
            client.create_scrape({"subreddits": ["r/node"], "keywords": ["x"]}, idempotency_key="retry-me")
        self.assertEqual(sleeps.asked, [0.5, 1.0, 2.0])
        self.assertEqual((raised.exception.idempotency_key, raised.exception.attempts), ("retry-me", 4))
        self.assertNotIn(KEY, str(raised.exception))

    def test_max_retries_zero_makes_one_attempt(self) -> None:
        sleeps = Sleeps()
        with self.assertRaises(SubpilotConnectionError):
            Subpilot(KEY, base_url=unanswered_url(), sleep=sleeps, max_retries=0).get_balance()
        self.assertEqual(sleeps.asked, [])


class Hangup(socketserver.BaseRequestHandler):
    """Reads a request and closes the connection without an answer: the request may have been acted on."""

    def handle(self) -> None:
        self.request.recv(65536)


class LostAnswers(unittest.TestCase):
    def setUp(self) -> None:
        self.server = socketserver.TCPServer(("127.0.0.1", 0), Hangup)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def tearDown(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def test_a_read_or_a_call_with_its_key_is_sent_again_and_a_post_without_one_is_not(self) -> None:
        sleeps = Sleeps()
        client = Subpilot(KEY, base_url=self.url, sleep=sleeps, random=lambda: 0.0)
        for call, attempts in [
            (lambda: client.get_balance(), 4),
            (lambda: client.create_monitor({"name": "m", "subreddits": ["r/node"], "keywords": ["x"]}), 4),
            (lambda: client.create_destination({"kind": "discord", "name": "d", "url": "https://discord.com/api/webhooks/1/x"}), 1),
            (lambda: client.update_match("mat_1", {"status": "dismissed"}), 1),
        ]:
            with self.assertRaises(SubpilotConnectionError) as raised:
                call()
            self.assertEqual(raised.exception.attempts, attempts)
        # Without Retry-After the waits grow from 0.5 s, jittered down to half of it at most.
        self.assertEqual(sleeps.asked, [0.25, 0.5, 1.0] * 2)


class Answers(unittest.TestCase):
    def test_retry_after_is_read_as_seconds_or_as_a_date(self) -> None:
        self.assertEqual(ApiResponse(429, {"retry-after": "2"}).retry_after, 2.0)
        later = ApiResponse(503, {"retry-after": formatdate(usegmt=True)}).retry_after
        self.assertIsNotNone(later)
        self.assertLessEqual(later or 0, 1.0)
        self.assertIsNone(ApiResponse(503, {}).retry_after)

    def test_the_cost_headers_are_read_as_numbers(self) -> None:
        paid = ApiResponse(200, {"credits-charged": "3", "credits-balance": "97", "idempotent-replayed": "true"})
        self.assertEqual((paid.credits_charged, paid.credits_balance, paid.idempotent_replayed), (3, 97, True))
        refused = ApiResponse(402, {"credits-required": "4", "credits-balance": "3"})
        self.assertEqual((refused.credits_required, refused.credits_charged), (4, None))

    def test_an_error_that_is_not_a_problem_keeps_its_first_words(self) -> None:
        error = SubpilotError.from_answer(ApiResponse(502), b"<html>Bad gateway</html>")
        self.assertEqual((error.status, error.code, error.detail), (502, "http.502", "<html>Bad gateway</html>"))
        problem = SubpilotError.from_answer(ApiResponse(402), b'{"code":"credits.insufficient","detail":"Buy credits.","required":4}')
        self.assertEqual((problem.code, problem.detail, problem.problem["required"]), ("credits.insufficient", "Buy credits.", 4))


if __name__ == "__main__":
    unittest.main()
