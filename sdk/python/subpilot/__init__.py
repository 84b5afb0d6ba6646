"""The subpilot API from Python: standard library only, typed (see README.md)."""
from . import models
from ._base import BaseClient
from .client import Subpilot
from .errors import SubpilotConnectionError, SubpilotError
from .response import ApiResponse
from .version import __version__
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "ApiResponse",
    "BaseClient",
    "Subpilot",
    "SubpilotConnectionError",
    "SubpilotError",
    "WebhookVerificationError",
    "__version__",
    "models",
    "verify_webhook",
]
