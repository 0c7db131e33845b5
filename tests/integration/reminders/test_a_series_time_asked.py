"""A repeating reminder asked its time ("every day" -> "At what time, each time?"): the hour answered
is the series' hour, as it is when said with the repetition ("every day at 9"), whichever hours of
today have passed. It was 21:00 for "9" after 9:00 (the one-time reminder's rule: an hour that passed
today is this evening's). Every hour, bare and with "at", English and Hebrew; signed payloads through
the webhook, the fake clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

import re

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown

_SET = re.compile(r"every day at (\d\d:\d\d) \(first: ([^)]+)\)")
_SET_HE = re.compile(r"כל יום ב-(\d\d:\d\d) \(הראשונה: ([^)]+)\)")


@pytest.mark.parametrize("hour", range(1, 13))
def test_the_hour_answered_is_the_hour_said_with_the_repetition(chat: Conversation, hour: int) -> None:
    said = _SET.search(chat.say(f"remind me every day at {hour} to walk"))
    assert chat.say("remind me every day to stretch").startswith("At what time, each time?")
    answered = _SET.search(chat.say(str(hour) if hour % 2 else f"at {hour}"))
    assert said is not None and answered is not None
    assert answered.groups() == said.groups()


@pytest.mark.parametrize("hour", [7, 8, 9, 10])
def test_hebrew_the_hour_answered_is_the_hour_said_with_the_repetition(chat: Conversation, hour: int) -> None:
    said = _SET_HE.search(chat.say(f"תזכיר לי כל יום ב-{hour} ללכת"))
    chat.say("תזכיר לי כל יום להתמתח")
    answered = _SET_HE.search(chat.say(f"ב-{hour}"))
    assert said is not None and answered is not None
    assert answered.groups() == said.groups()


def test_a_morning_hour_passed_today_starts_tomorrow_morning(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me every day to stretch")
    assert chat.say("9") == f"🔁 Reminder set: “stretch” every day at 09:00 (first: {shown(1, 9)})."
    assert fired(chat, clock, 0, 21) == []  # not this evening
    assert any("stretch" in sent for sent in fired(chat, clock, 1, 9))


def test_a_monthly_day_then_its_hour(chat: Conversation) -> None:
    chat.say("תזכיר לי כל חודש ב-15 לשלם ארנונה")
    assert "ב-15 בכל חודש ב-09:00" in chat.say("ב-9")
    chat.say("remind me every month on the 15th to pay rent")
    assert "every month on the 15th at 09:00" in chat.say("9")


def test_an_hour_still_ahead_today_starts_today(chat: Conversation) -> None:
    chat.say("remind me every day to drink water")
    assert chat.say("at 11") == f"🔁 Reminder set: “drink water” every day at 11:00 (first: {shown(0, 11)})."


def test_a_one_time_reminder_keeps_its_evening_rule(chat: Conversation) -> None:
    chat.say("remind me to call bob")
    assert chat.say("9") == f"⏰ Reminder set: “call bob” for {shown(0, 21)}."
