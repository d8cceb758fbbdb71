from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clients.referee_client import RefereeClient


class DjangoTransport:
    """The bot client's transport, going through Django's test client instead of HTTP, so
    the client is tested against the real views inside the test's transaction."""

    def __init__(self) -> None:
        self.client = APIClient()

    def __call__(self, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        extra = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}
        response = getattr(self.client, method.lower())(path, body, format="json", **extra)
        return response.status_code, (response.json() if response.content else None)


@pytest.fixture
def bot_client():
    def make(token: str | None = None) -> RefereeClient:
        return RefereeClient(token=token, transport=DjangoTransport())

    return make
