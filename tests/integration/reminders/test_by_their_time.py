"""A reminder named by its time: "stop the 8pm one", "cancel the 6pm one", "תבטל את זו של שמונה בערב".

Through the webhook, in English and Hebrew. These were "I'm not sure I understood", or a question
about deleting a reminder titled "8pm". Only a reminder has a time, so the words are read as a
reminder's, it is found by that time among the upcoming ones, and the delete is approved as always,
naming the reminder found. Nothing at that time: said so, nothing deleted.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown

# START is a Monday to come: repeating reminders get real schedules, which must start in the future.


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


def test_stop_the_8pm_one_stops_that_series_only(chat: Conversation) -> None:
    chat.say("remind me to take my meds at 8am and 8pm every day")
    asked = chat.say("stop the 8pm one")
    assert asked.startswith(
        "Before I go ahead: I'm about to delete 1 reminder:\n1. “take my meds” — every day at 20:00"
    )
    assert "the whole series" in asked
    assert chat.say("yes") == "Deleted the reminder “take my meds”."
    left = chat.say("what are my reminders?")
    assert "every day at 08:00" in left and "20:00" not in left


def test_cancel_the_6pm_one_among_others(chat: Conversation) -> None:
    chat.say("remind me to call mom at 6pm")
    chat.say("remind me to pay rent at 9pm")
    asked = chat.say("cancel the 6pm one")
    assert asked.startswith(
        f"Before I go ahead: I'm about to delete 1 reminder:\n1. “call mom” — {shown(0, 18)}"
    )
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("how many reminders do I have?").startswith("You have 2 reminders:")


def test_hebrew_by_its_time(chat: Conversation) -> None:
    # Two times in words were one reminder at 08:00 titled "לקחת כדורים ובשמונה בערב".
    set_ = chat.say("תזכיר לי לקחת כדורים כל יום בשמונה בבוקר ובשמונה בערב")
    assert "„לקחת כדורים” כל יום ב-08:00" in set_ and "„לקחת כדורים” כל יום ב-20:00" in set_
    asked = chat.say("תבטל את זו של שמונה בערב")
    assert "כל יום ב-20:00" in asked and "08:00" not in asked


def test_no_reminder_at_that_time_deletes_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom at 6pm")
    chat.say("remind me to pay rent at 9pm")
    assert chat.say("cancel the 7pm one") == "I couldn't find a reminder matching “7pm”."
    assert chat.say("how many reminders do I have?").startswith("You have 2 reminders:")


def test_a_part_of_the_day_picks_the_one_due_then(chat: Conversation) -> None:
    chat.say("remind me to take my meds at 8am and 8pm every day")
    asked = chat.say("stop the morning one")
    assert "every day at 08:00" in asked and "20:00" not in asked
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    hebrew = chat.say("תעצור את זו של הערב")
    assert "כל יום ב-20:00" in hebrew and "08:00" not in hebrew


def test_a_part_of_the_day_with_two_reminders_in_it_asks_which(chat: Conversation) -> None:
    chat.say("remind me to call mom at 6pm")
    chat.say("remind me to pay rent at 7pm")
    chat.say("remind me to stretch at 9am")
    asked = chat.say("cancel the evening one")
    assert asked.startswith("Which one do you mean?") and "call mom" in asked and "pay rent" in asked
    assert "stretch" not in asked
