"""The iterators over a monitor's matches against a real server: every match once, by cursor and by after=."""
from __future__ import annotations

import unittest

from support import env

from subpilot import Subpilot


class Paging(unittest.TestCase):
    def setUp(self) -> None:
        self.client = Subpilot(base_url=env("BASE_URL"))
        self.monitor = env("MONITOR_ID")
        self.stored = env("MATCH_IDS").split(",")  # in the order they were stored

    def test_the_pages_of_matches_give_each_once_newest_first(self) -> None:
        ids = [match["id"] for match in self.client.iter_monitor_matches(self.monitor)]
        self.assertEqual(len(set(ids)), len(self.stored))
        self.assertEqual(ids, self.stored[::-1])

    def test_reading_after_a_match_gives_every_later_one_once_oldest_first(self) -> None:
        ids = [match["id"] for match in self.client.iter_monitor_matches_after(self.monitor, self.stored[0])]
        self.assertEqual(ids, self.stored[1:])

    def test_the_other_lists_are_walked_the_same_way(self) -> None:
        self.assertEqual([monitor["id"] for monitor in self.client.iter_monitors(limit=1)], [self.monitor])
        self.assertEqual(list(self.client.iter_scrapes(limit=1)), [])
        self.assertEqual(list(self.client.iter_usage(limit=1)), [])
        self.assertEqual([item["id"] for item in self.client.iter_inbox(monitor_id=self.monitor)], self.stored[::-1])

    def test_reading_after_the_newest_match_gives_nothing(self) -> None:
        self.assertEqual(list(self.client.iter_monitor_matches_after(self.monitor, self.stored[-1], limit=7)), [])


if __name__ == "__main__":
    unittest.main()
