"""Throttling beyond the SDK's own retries, on each table, in the middle of a planned turn.

Whatever table refuses a write, the person ends with exactly one reminder and one reply: either the
confirmation or a truthful failure, never both, never two, never a reminder they were told failed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from memo.local.aws import client
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.faults.conftest import Faults
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

T0 = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def stack(clock: FakeClock) -> Iterator[LocalStack]:
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


REQUEST = "remind me to call the plumber tomorrow at 9am"


def reminders(wa_id: str) -> list[dict]:
    items = client("dynamodb").scan(TableName="memo-items")["Items"]
    return [i for i in items if i["pk"]["S"].endswith(wa_id) and i["sk"]["S"].startswith("REMINDER#")]


def schedules() -> int:
    return len(client("scheduler").list_schedules(GroupName="memo-reminders")["Schedules"])


def converse(stack: LocalStack) -> tuple[Conversation, list[str]]:
    chat = Conversation(stack=stack, user=WhatsAppUser())
    replies = chat.deliver(chat.user.text(REQUEST))
    assert stack.poller is not None
    # What SQS and Step Functions would still redeliver or retry.
    for _ in range(5):
        stack.poller.drain()
        assert stack.stepfunctions is not None
        stack.stepfunctions.wait_all(timeout=120)
        replies += chat.replies()
    return chat, replies


@pytest.mark.parametrize("table", ["memo-conversation", "memo-idempotency", "memo-items", "memo-ledger"])
def test_a_throttled_table_still_ends_in_one_reminder_and_one_true_reply(
    stack: LocalStack, clock: FakeClock, faults: Faults, table: str
) -> None:
    faults.throttle(table=table, times=1)

    chat, replies = converse(stack)

    assert faults.fired, f"no write to {table} was throttled"
    assert len(replies) == 1, replies
    created = reminders(chat.user.wa_id)
    if "Reminder set" in replies[0] or "I'll remind you" in replies[0]:
        assert len(created) == 1 and schedules() == 1
    else:  # a truthful failure: nothing half-made behind it
        assert created == [], replies
        assert_nothing_is_delivered(stack, clock, chat)


@pytest.mark.parametrize("table", ["memo-items", "memo-ledger"])
def test_a_step_throttled_until_step_functions_gives_up_says_so_once(
    stack: LocalStack, clock: FakeClock, faults: Faults, table: str
) -> None:
    faults.throttle(table=table, times=50)

    chat, replies = converse(stack)

    assert len(replies) == 1, replies
    assert reminders(chat.user.wa_id) == []
    assert "Reminder set" not in replies[0]
    assert_nothing_is_delivered(stack, clock, chat)


def assert_nothing_is_delivered(stack: LocalStack, clock: FakeClock, chat: Conversation) -> None:
    """A schedule made before the item write failed may remain (create is schedule-first); when it
    fires it finds no reminder and sends nothing."""
    clock.advance(days=2)
    assert stack.ticker is not None
    stack.ticker.tick()
    assert chat.replies() == []
