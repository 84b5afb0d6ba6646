"""Every operation of the API, called once through the SDK against a real server (the harness checks each answer against the document)."""
from __future__ import annotations

import unittest

from support import env, report

from subpilot import Subpilot


class EveryOperation(unittest.TestCase):
    def test_every_operation_answers_through_its_method(self) -> None:
        client = Subpilot(base_url=env("BASE_URL"))
        self.assertGreater(client.get_balance()["balance"], 0)
        self.assertIsInstance(client.list_usage(limit=5)["data"], list)
        self.assertEqual(len(client.get_daily_usage(days=7)["days"]), 7)

        self.assertGreater(len(client.list_credit_packs()["packs"]), 0)
        checkout = client.create_checkout({"credits": 500})
        self.assertEqual(client.get_payment(checkout["payment"]["id"])["status"], "open")

        scrape = client.create_scrape({"subreddits": ["r/node"], "keywords": ["sdk"]})
        paid = client.last_response
        self.assertEqual(scrape["status"], "completed")
        self.assertEqual(paid.credits_charged, scrape["credits"]["charged"])
        self.assertEqual(paid.credits_balance, scrape["credits"].get("balance"))
        self.assertEqual(client.get_scrape(scrape["id"])["id"], scrape["id"])
        self.assertEqual(client.list_scrapes(limit=1)["data"][0]["id"], scrape["id"])

        generation = client.create_generation({"type": "reply", "reply_to": env("REPLY_TO"), "instructions": "A short tip"})
        self.assertEqual(generation["status"], "completed")
        self.assertEqual(client.last_response.credits_charged, generation["credits"]["charged"])
        self.assertEqual(client.get_generation(generation["id"])["id"], generation["id"])
        edited = client.update_generation(generation["id"], {"body": "Edited by a person."})
        self.assertEqual(edited["body"], "Edited by a person.")

        publication = client.create_publication({"type": "comment", "parent": env("COMMENT_PARENT"), "body": "A comment from the SDK"})
        self.assertEqual(publication["status"], "published")
        self.assertEqual(client.get_publication(publication["id"])["id"], publication["id"])

        monitor = client.create_monitor({"name": "SDK watch", "subreddits": ["r/node"], "keywords": ["sdk"]})
        self.assertEqual(client.list_monitors(limit=1)["data"][0]["id"], monitor["id"])
        self.assertEqual(client.get_monitor(monitor["id"])["name"], "SDK watch")
        self.assertEqual(client.update_monitor(monitor["id"], {"name": "Renamed"})["name"], "Renamed")

        matched = env("MONITOR_ID")
        match_id = client.list_monitor_matches(matched, limit=1)["data"][0]["id"]
        self.assertEqual(client.get_match(match_id)["id"], match_id)
        self.assertEqual(client.update_match(match_id, {"status": "dismissed"})["status"], "dismissed")
        self.assertIsInstance(client.list_inbox(limit=5)["data"], list)
        self.assertFalse(client.get_stream_coverage(hours=1)["enabled"])

        destination = client.create_destination({"kind": "discord", "name": "SDK alerts", "url": env("CHAT_URL")})
        self.assertIn(destination["id"], [d["id"] for d in client.list_destinations()["data"]])
        self.assertEqual(client.get_destination(destination["id"])["id"], destination["id"])
        self.assertEqual(client.update_destination(destination["id"], {"name": "SDK alerts, renamed"})["name"], "SDK alerts, renamed")
        client.test_destination(destination["id"], {"text": "A test from the SDK"})
        self.assertIsInstance(client.list_destination_deliveries(destination["id"])["data"], list)
        client.route_monitor(monitor["id"], destination["id"], {"frequency": "instant"})
        self.assertEqual([r["destination_id"] for r in client.list_monitor_routes(monitor["id"])["data"]], [destination["id"]])
        client.unroute_monitor(monitor["id"], destination["id"])
        client.delete_destination(destination["id"])
        client.delete_monitor(monitor["id"])
        report(scrape_id=scrape["id"], generation_id=generation["id"], publication_id=publication["id"])


if __name__ == "__main__":
    unittest.main()
