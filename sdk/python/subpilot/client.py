"""The client: every operation of the API as a method, on the core that sends them."""
from ._api import Api


class Subpilot(Api):
    """A client of the subpilot API.

        client = Subpilot()  # the key from SUBPILOT_API_KEY
        scrape = client.create_scrape({"subreddits": ["r/node"], "keywords": ["kysely"]})
        print(scrape["status"], client.last_response.credits_charged)

    One method per operation of the API's OpenAPI document (`createScrape` is `create_scrape`),
    `iter_...` methods over the paged lists, and `iter_monitor_matches_after` to read a monitor's new
    matches from the last one you handled. Errors raise `SubpilotError`; see `BaseClient` for the
    key, the address and the retries.
    """
