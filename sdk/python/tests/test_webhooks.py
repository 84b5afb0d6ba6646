"""verify_webhook on the deliveries a real server made: accepted as sent, refused once anything is changed."""
from __future__ import annotations

import base64
import json
import unittest
from email.message import Message
from typing import Dict, List, TypedDict

from support import env

from subpilot import WebhookVerificationError, verify_webhook


class Delivery(TypedDict):
    headers: Dict[str, str]
    body: str  # base64 of the bytes received


def deliveries() -> List[Delivery]:
    with open(env("DELIVERIES"), encoding="utf-8") as file:
        loaded: List[Delivery] = json.load(file)
    return loaded


class RealDelivery(unittest.TestCase):
    def setUp(self) -> None:
        first, rolled = deliveries()
        self.secret = env("WEBHOOK_SECRET")
        self.old_secret = env("OLD_WEBHOOK_SECRET")
        self.headers = first["headers"]
        self.body = base64.b64decode(first["body"])
        self.rolled_headers = rolled["headers"]
        self.rolled_body = base64.b64decode(rolled["body"])

    def test_a_real_delivery_is_accepted_and_its_event_returned(self) -> None:
        event = verify_webhook(self.old_secret, self.headers, self.body)
        # The event's type says which event it is, and narrows its `data`'s type to that event's.
        assert event["type"] == "scrape.completed", event["type"]
        self.assertEqual(event["data"]["id"], env("SCRAPE_ID"))

    def test_headers_are_found_whatever_their_case_in_a_message_object(self) -> None:
        message = Message()
        for name, value in self.headers.items():
            message[name.title()] = value
        self.assertEqual(verify_webhook(self.old_secret, message, self.body.decode("utf-8"))["type"], "scrape.completed")

    def test_a_tampered_delivery_is_refused(self) -> None:
        signature = self.headers["webhook-signature"]
        timestamp = int(self.headers["webhook-timestamp"])
        tampered = {
            "another body": (self.headers, self.body.replace(b"completed", b"complete!")),
            "another id": ({**self.headers, "webhook-id": "msg_forged"}, self.body),
            "another timestamp": ({**self.headers, "webhook-timestamp": str(timestamp + 1)}, self.body),
            "no signature": ({k: v for k, v in self.headers.items() if k != "webhook-signature"}, self.body),
            "a signature of another version": ({**self.headers, "webhook-signature": signature.replace("v1,", "v2,")}, self.body),
        }
        for what, (headers, body) in tampered.items():
            with self.subTest(what), self.assertRaises(WebhookVerificationError):
                verify_webhook(self.old_secret, headers, body)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.secret, self.headers, self.body)  # signed before the roll: the new secret did not sign it

    def test_a_delivery_signed_more_than_five_minutes_ago_is_refused(self) -> None:
        timestamp = int(self.headers["webhook-timestamp"])
        verify_webhook(self.old_secret, self.headers, self.body, now=timestamp + 300)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.old_secret, self.headers, self.body, now=timestamp + 301)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(self.old_secret, self.headers, self.body, now=timestamp - 301)

    def test_after_a_roll_both_secrets_verify_the_two_signatures_of_a_delivery(self) -> None:
        self.assertEqual(len(self.rolled_headers["webhook-signature"].split(" ")), 2)
        for secret in (self.secret, self.old_secret):
            self.assertEqual(verify_webhook(secret, self.rolled_headers, self.rolled_body)["type"], "scrape.completed")
        with self.assertRaises(WebhookVerificationError):
            verify_webhook("whsec_" + base64.b64encode(b"x" * 24).decode(), self.rolled_headers, self.rolled_body)


if __name__ == "__main__":
    unittest.main()
