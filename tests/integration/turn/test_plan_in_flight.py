""" "Delete it" sent while the request before it is still running.

The reminder the person just asked for is made by the executor after the turn; until its reply
comes, the latest actions still name the reminder before it. "It" must not bind to that one: Memo
says it is still working and asks for the message again; once the reply is in, "it" is the new one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.webhook import post

APPROVE = 1
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)  # Sunday 09:00 in Jerusalem


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def local(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


class HeldExecutor:
    """The executor Lambda waits until released: the plan is still running meanwhile."""

    def __init__(self, local: LocalStack) -> None:
        assert local.stepfunctions is not None
        handlers = local.stepfunctions.dispatcher._handlers
        self._run = handlers["memo-executor"]
        self._release = threading.Event()
        handlers["memo-executor"] = self._held

    def _held(self, event: dict[str, Any], context: Any) -> Any:
        assert self._release.wait(timeout=30), "the test never released the executor"
        return self._run(event, context)

    def release(self) -> None:
        self._release.set()


@pytest.fixture
def hold(local: LocalStack) -> Iterator[Callable[[], HeldExecutor]]:
    """`hold()` holds the executor from then on; released at the latest when the test ends, so a
    failed test leaves no execution waiting."""
    holds: list[HeldExecutor] = []

    def start() -> HeldExecutor:
        holds.append(HeldExecutor(local))
        return holds[-1]

    yield start
    for held in holds:
        held.release()


def _send(dana: Conversation, text: str) -> list[str]:
    """One message through the webhook and its turn, without waiting for any plan to finish."""
    assert post(dana.user.payload(dana.user.text(text)))["statusCode"] == 200
    assert dana.stack.poller is not None
    dana.stack.poller.drain()
    return dana.replies()


def test_delete_it_while_the_new_reminder_is_being_made_deletes_nothing_then_the_new_one(
    dana: Conversation, local: LocalStack, hold: Callable[[], HeldExecutor]
) -> None:
    assert dana.say("remind me to buy milk tomorrow at 6pm").startswith("⏰ Reminder set: “buy milk”")
    held = hold()
    assert _send(dana, "remind me to call mom tomorrow at 5pm") == []  # the plan is running

    (reply,) = _send(dana, "delete it")
    assert reply.startswith("I'm still working on your previous request")
    assert "buy milk" not in reply

    held.release()
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
    assert dana.replies() == ["⏰ Reminder set: “call mom” for Mon 23 Nov, 17:00."]
    question = dana.say("delete it")
    assert "“call mom”" in question and "buy milk" not in question
    assert dana.tap(APPROVE) == "Deleted the reminder “call mom”."
    assert "buy milk" in dana.say("show my reminders")


def test_hebrew_move_it_while_the_reminder_is_being_made_is_asked_again(
    dana: Conversation, local: LocalStack, hold: Callable[[], HeldExecutor]
) -> None:
    assert dana.say("תזכיר לי לקנות חלב מחר ב-18:00").startswith("⏰")
    held = hold()
    assert _send(dana, "תזכיר לי להתקשר לאמא מחר ב-17:00") == []

    (reply,) = _send(dana, "תזיז את זה ל-19:00")
    assert reply.startswith("אני עוד מטפל בבקשה הקודמת שלך")

    held.release()
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
    (made,) = dana.replies()
    assert "להתקשר לאמא" in made
    moved = dana.say("תזיז את זה ל-19:00")
    assert "להתקשר לאמא" in moved and "לקנות חלב" not in moved


def test_a_request_whose_reply_never_came_stops_blocking_after_two_minutes(
    dana: Conversation, local: LocalStack, clock: FakeClock, hold: Callable[[], HeldExecutor]
) -> None:
    assert dana.say("remind me to buy milk tomorrow at 6pm").startswith("⏰")
    held = hold()
    assert _send(dana, "remind me to call mom tomorrow at 5pm") == []
    clock.advance(minutes=3)

    (reply,) = _send(dana, "delete it")
    assert not reply.startswith("I'm still working")  # bound to the latest action, as before
    assert "“buy milk”" in reply
    held.release()
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
