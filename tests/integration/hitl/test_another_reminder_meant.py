"""While "When should I remind you?" is open, the person takes the reminder back for another: "actually
call dad". Before: "Sorry, I didn't catch that", and the time said next set “call mom”, the reminder
just taken back. Now the reminder meant is the one asked about (its day kept), and only a time said
with or after it sets it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    "meant",
    [
        "actually call dad",
        "no, call dad",
        "sorry, I meant call dad",
        "oops call dad instead",
        "wait, to call dad",
    ],
)
def test_another_reminder_meant_while_its_time_is_asked(chat: Conversation, meant: str) -> None:
    assert chat.say("remind me to call mom").startswith("When should I remind you?")
    assert chat.say(meant).startswith("When should I remind you?")
    assert chat.say("at 5pm") == f"⏰ Reminder set: “call dad” for {shown(0, 17)}."
    assert chat.say("show my reminders") == f"Your reminders:\n• “call dad” — {shown(0, 17)}"


def test_the_day_said_first_is_kept(chat: Conversation) -> None:
    chat.say("remind me tomorrow to pay rent")
    asked = chat.say("sorry, I meant pay the electricity bill")
    assert asked.startswith("What time on") and shown(1, 9).split(",")[0] in asked, asked
    assert chat.say("7pm") == f"⏰ Reminder set: “pay the electricity bill” for {shown(1, 19)}."


def test_a_time_or_a_way_out_is_still_that(chat: Conversation) -> None:
    chat.say("remind me to buy a gift")
    assert chat.say("actually tomorrow at 10") == f"⏰ Reminder set: “buy a gift” for {shown(1, 10)}."
    chat.say("remind me to water the plants")
    assert chat.say("no, never mind") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders") == f"Your reminders:\n• “buy a gift” — {shown(1, 10)}"


def test_hebrew_another_reminder_meant(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר לשלם שכירות")
    assert chat.say("בעצם לשלם חשמל").startswith("באיזו שעה")
    assert chat.say("ב-9") == f"⏰ קבעתי תזכורת „לשלם חשמל” ל{shown(1, 9, 0, 'he')}."
