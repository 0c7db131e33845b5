"""One local stack per test module, and a new person's conversation on it for each test (each
person has a number of their own, so their threads never meet)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.conversation import Conversation

_numbers = count(1)


@pytest.fixture(scope="module")
def shared_stack() -> Iterator[Callable[[], LocalStack]]:
    with LocalStack(start_poller=False) as stack:
        yield lambda: stack


@pytest.fixture
def talk(shared_stack: Callable[[], LocalStack]) -> Conversation:
    """A conversation of a new person on the module's stack."""
    return Conversation(stack=shared_stack(), user=WhatsAppUser(wa_id=f"97252{next(_numbers):07d}"))
