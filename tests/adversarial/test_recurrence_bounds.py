"""The hostile repetitions, through the webhook with signed payloads on the fake clock: each is
answered, and nothing is scheduled or stored past the bound; at the bound the series is set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import TEST_NOW, FakeClock
from tests.support.conversation import Conversation

GROUP = "memo-reminders"
REFUSED_EN = "That repeats too far ahead or too many times for one reminder"
REFUSED_HE = "זה חוזר רחוק מדי או יותר מדי פעמים"


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(TEST_NOW)) as running:
        yield running


@pytest.fixture
def chat(stack: LocalStack) -> Conversation:
    return Conversation(stack=stack, user=WhatsAppUser())


def _schedules(stack: LocalStack) -> list[str]:
    assert stack.ticker is not None
    return [s["Name"] for s in stack.ticker._scheduler.list_schedules(GroupName=GROUP)["Schedules"]]


@pytest.mark.parametrize(
    "message",
    [
        f"remind me to stretch every 5 minutes until 31/12/{TEST_NOW.year + 73}",
        "remind me to stretch every 5 minutes until 9999",
        "remind me to blink 10000 times every day at 9",
        "remind me to blink every day at 9 for 100 years",
    ],
)
def test_past_the_bound_is_answered_and_sets_nothing(
    chat: Conversation, stack: LocalStack, message: str
) -> None:
    reply = chat.say(message)
    assert REFUSED_EN in reply
    assert _schedules(stack) == []
    assert "blink" not in chat.say("what reminders do I have?").lower()


def test_past_the_bound_in_hebrew(chat: Conversation, stack: LocalStack) -> None:
    assert REFUSED_HE in chat.say("תזכיר לי למצמץ כל יום ב-9 למשך 100 שנים")
    assert _schedules(stack) == []


def test_at_the_bound_the_series_is_set_and_titled_without_its_count(
    chat: Conversation, stack: LocalStack
) -> None:
    reply = chat.say("remind me to blink 1000 times every day at 9")
    assert "blink" in reply and "1000 times" in reply and "blink 1000" not in reply
    assert len(_schedules(stack)) == 1
