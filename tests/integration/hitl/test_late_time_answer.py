"""A time said after "When should I remind you?" expired, through the webhook on the local stack on
the fake clock: "friday at 9" a day later was "I'm not sure I understood". It is the question's late
answer: the expiry message with its one-tap "Try again" (nothing is set on an expired question),
and a whole request said then is its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Iterator[Conversation]:
    with chat_at(monkeypatch, clock) as conversation:
        yield conversation


@pytest.mark.parametrize(
    ("lang", "ask", "late", "expired"),
    [
        ("en", "remind me to pay the bills", "friday at 9", "That request expired — want to try again?"),
        ("en", "remind me to pay the bills", "tomorrow 5pm", "That request expired — want to try again?"),
        ("he", "תזכיר לי לשלם חשבונות", "מחר ב-9", "הבקשה הקודמת פגה — רוצה לנסות שוב?"),
    ],
)
def test_a_time_said_after_its_question_expired_is_its_late_answer(
    chat: Conversation, clock: FakeClock, lang: str, ask: str, late: str, expired: str
) -> None:
    assert chat.say(ask).startswith(("When should I remind you?", "מתי להזכיר לך?"))
    clock.advance(hours=25)
    assert chat.say(late).startswith(expired)
    listed = chat.say("מה התזכורות שלי?" if lang == "he" else "what are my reminders?")
    assert "bills" not in listed and "חשבונות" not in listed  # nothing set on an expired question
    assert chat.choices[0].title in ("Try again", "לנסות שוב")


def test_try_again_then_the_time_sets_it(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to pay the bills")
    clock.advance(hours=25)
    chat.say("friday at 9")
    assert chat.tap(1).startswith("When should I remind you?")
    assert chat.say("friday at 9") == f"⏰ Reminder set: “pay the bills” for {shown(4, 9)}."


def test_a_whole_request_after_the_question_expired_is_its_own(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call the bank")
    clock.advance(hours=25)
    assert chat.say("remind me to call dad at 5pm").startswith("⏰ Reminder set: “call dad”")
