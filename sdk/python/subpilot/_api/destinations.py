"""The destinations operations. Generated from the API's OpenAPI document by codegen/generate.py: do not edit."""
from __future__ import annotations

from .._base import BaseClient
from ..models import (
    Destination,
    DestinationCreate,
    DestinationDelivery,
    DestinationDeliveryList,
    DestinationList,
    DestinationTest,
    DestinationUpdate,
    MonitorRoute,
    MonitorRouteList,
    MonitorRouteUpdate,
)


class DestinationsApi(BaseClient):
    """The API's destinations operations."""

    def create_destination(self, body: DestinationCreate) -> Destination:
        """Add a destination for alerts: a Slack or Discord webhook, an email address, a Telegram chat: POST /api/v1/destinations."""
        return self._call("POST", "/api/v1/destinations", body=body)

    def list_destinations(self) -> DestinationList:
        """This account's destinations, newest first (free): GET /api/v1/destinations."""
        return self._call("GET", "/api/v1/destinations")

    def get_destination(self, id: str) -> Destination:
        """One destination (free): GET /api/v1/destinations/{id}."""
        return self._call("GET", f"/api/v1/destinations/{self._segment(id)}")

    def update_destination(self, id: str, body: DestinationUpdate) -> Destination:
        """Rename a destination, or give a webhook a new URL: PATCH /api/v1/destinations/{id}."""
        return self._call("PATCH", f"/api/v1/destinations/{self._segment(id)}", body=body)

    def delete_destination(self, id: str) -> None:
        """Delete a destination and the record of its messages: DELETE /api/v1/destinations/{id}."""
        self._call("DELETE", f"/api/v1/destinations/{self._segment(id)}")

    def test_destination(self, id: str, body: DestinationTest) -> DestinationDelivery:
        """Send a test message to a destination: POST /api/v1/destinations/{id}/test."""
        return self._call("POST", f"/api/v1/destinations/{self._segment(id)}/test", body=body)

    def list_destination_deliveries(self, id: str) -> DestinationDeliveryList:
        """A destination's newest messages, with every attempt and the service's answers (free): GET /api/v1/destinations/{id}/deliveries."""
        return self._call("GET", f"/api/v1/destinations/{self._segment(id)}/deliveries")

    def list_monitor_routes(self, id: str) -> MonitorRouteList:
        """The destinations a monitor's matches go to (free): GET /api/v1/monitors/{id}/destinations."""
        return self._call("GET", f"/api/v1/monitors/{self._segment(id)}/destinations")

    def route_monitor(self, id: str, destination_id: str, body: MonitorRouteUpdate) -> MonitorRoute:
        """Send a monitor's matches to a destination, at once or as a digest: PUT /api/v1/monitors/{id}/destinations/{destination_id}."""
        return self._call("PUT", f"/api/v1/monitors/{self._segment(id)}/destinations/{self._segment(destination_id)}", body=body)

    def unroute_monitor(self, id: str, destination_id: str) -> None:
        """Stop sending a monitor's matches to a destination: DELETE /api/v1/monitors/{id}/destinations/{destination_id}."""
        self._call("DELETE", f"/api/v1/monitors/{self._segment(id)}/destinations/{self._segment(destination_id)}")
