"""A paid call whose answer is lost on the way back, against a real server: sent again with the same Idempotency-Key, paid once."""
from __future__ import annotations

import unittest

from support import Sleeps, env, report

from subpilot import Subpilot


class LostAnswer(unittest.TestCase):
    def test_a_scrape_whose_answer_was_lost_is_sent_again_with_the_same_key_and_paid_once(self) -> None:
        sleeps = Sleeps()
        client = Subpilot(base_url=env("BASE_URL"), sleep=sleeps, random=lambda: 1.0)
        scrape = client.create_scrape({"subreddits": ["r/node"], "keywords": ["lost"]})
        answer = client.last_response
        self.assertEqual(answer.attempts, 2)
        self.assertEqual(sleeps.asked, [0.5])
        self.assertTrue(answer.idempotent_replayed)
        self.assertEqual(scrape["status"], "completed")
        self.assertEqual((answer.credits_charged, scrape["credits"]["charged"]), (1, 1))
        report(scrape_id=scrape["id"], idempotency_key=answer.idempotency_key)


if __name__ == "__main__":
    unittest.main()
