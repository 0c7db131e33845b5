"""The local stack as a test fixture: moto, tables, queue, sink; the poller is drained by the test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser

APP_SECRET = "local-app-secret"


@pytest.fixture
def stack() -> Iterator[LocalStack]:
    with LocalStack(start_poller=False) as running:
        yield running


@pytest.fixture
def user() -> WhatsAppUser:
    return WhatsAppUser()
