"""The time-expression layer: every date/time phrase found and removed from the title, anywhere in
the sentence, in English and Hebrew; repetition; times that do not exist or have passed."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from memo.planner.intents import reminders
from memo.planner.timeparse import ParsedWhen, extract_when
from tests.unit.planner.conftest import NOW, TZ, pin


def parse(text: str, timezone: str = TZ, now: datetime = NOW) -> ParsedWhen:
    language = "he" if any("\u0590" <= ch <= "\u05ff" for ch in text) else "en"
    return extract_when(text, now=now, timezone=timezone, language=language)


# NOW is Wednesday 1 May 2024, 10:00 in Jerusalem.
@pytest.mark.parametrize(
    ("text", "when", "title"),
    [
        ("in 20 min stretch", "2024-05-01T10:20:00+03:00", "stretch"),
        ("stretch in half an hour", "2024-05-01T10:30:00+03:00", "stretch"),
        ("check the oven in 2 hrs", "2024-05-01T12:00:00+03:00", "check the oven"),
        ("in an hour and a half leave", "2024-05-01T11:30:00+03:00", "leave"),
        ("בעוד רבע שעה לצאת", "2024-05-01T10:15:00+03:00", "לצאת"),
        ("לכבות את הגז בעוד 20 דקות", "2024-05-01T10:20:00+03:00", "לכבות את הגז"),
        ("call mom tmrw at 5pm", "2024-05-02T17:00:00+03:00", "call mom"),
        ("call mom tomorow at 5pm", "2024-05-02T17:00:00+03:00", "call mom"),
        ("pills tonight", "2024-05-01T20:00:00+03:00", "pills"),
        ("run in the morning", "2024-05-02T09:00:00+03:00", "run"),  # the next morning
        ("לרוץ בערב", "2024-05-01T19:00:00+03:00", "לרוץ"),
        ("מחר בשמונה בבוקר ריצה", "2024-05-02T08:00:00+03:00", "ריצה"),
        ("ריצה מחר בשמונה בבוקר", "2024-05-02T08:00:00+03:00", "ריצה"),
        ("call dad at five", "2024-05-01T17:00:00+03:00", "call dad"),
        ("call dad at five thirty", "2024-05-01T17:30:00+03:00", "call dad"),
        ("dinner at half past six", "2024-05-01T18:30:00+03:00", "dinner"),
        ("leave at quarter to 7", "2024-05-01T18:45:00+03:00", "leave"),
        ("פגישה בשלוש וחצי", "2024-05-01T15:30:00+03:00", "פגישה"),
        ("שלוש וחצי פגישה", "2024-05-01T15:30:00+03:00", "פגישה"),
        ("לצאת רבע לשבע", "2024-05-01T18:45:00+03:00", "לצאת"),
        ("לצאת מחר ב-8 ורבע", "2024-05-02T08:15:00+03:00", "לצאת"),
        ("standup at 17:30", "2024-05-01T17:30:00+03:00", "standup"),
        ("standup tomorrow at 09:05", "2024-05-02T09:05:00+03:00", "standup"),
        ("dentist next Tuesday at 11am", "2024-05-07T11:00:00+03:00", "dentist"),
        ("pay rent on the 3rd at 9am", "2024-05-03T09:00:00+03:00", "pay rent"),
        ("buy gifts on 25/12 at 10am", "2024-12-25T10:00:00+02:00", "buy gifts"),
        ("buy gifts on 12/25 at 10am", "2024-12-25T10:00:00+02:00", "buy gifts"),  # only one reading
    ],
)
def test_found_anywhere_and_removed_from_the_title(text: str, when: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.problem is None
    assert parsed.when is not None and parsed.when.isoformat() == when
    assert parsed.remainder == title


def test_day_and_month_order_follow_the_users_locale() -> None:
    assert parse("on 3/5", TZ).day == date(2024, 5, 3)  # day first in Israel
    new_york = "America/New_York"
    now = datetime(2024, 1, 10, 10, 0, tzinfo=ZoneInfo(new_york))
    assert parse("on 3/5", new_york, now).day == date(2024, 3, 5)  # month first in the US


def test_the_1st_is_the_next_first_of_a_month() -> None:
    assert parse("pay rent on the 1st").day == date(2024, 5, 1)  # today is the 1st
    assert parse("on the 30th").day == date(2024, 5, 30)
    later = datetime(2024, 5, 2, 10, 0, tzinfo=ZoneInfo(TZ))
    assert parse("pay rent on the 1st", now=later).day == date(2024, 6, 1)


@pytest.mark.parametrize(
    ("text", "problem", "title"),
    [
        ("call the bank at 25:00", "invalid_time", "call the bank"),
        ("call the bank at 17:75", "invalid_time", "call the bank"),
        ("call the bank at 13pm", "invalid_time", "call the bank"),
        ("pay rent on 31/2", "invalid_time", "pay rent"),
        ("pay rent yesterday", "past", "pay rent"),
        ("pay rent yesterday at 5pm", "past", "pay rent"),
        ("לשלם חשבון אתמול", "past", "לשלם חשבון"),
        ("call mom today at 9am", "past", "call mom"),  # 09:00 today is before 10:00
    ],
)
def test_impossible_or_past_times_are_problems_not_guesses(text: str, problem: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.problem == problem
    assert parsed.when is None and parsed.day is None
    assert parsed.remainder == title


@pytest.mark.parametrize(
    ("text", "rule", "first", "title"),
    [
        ("take vitamins every day at 8am", "FREQ=DAILY", "2024-05-02T08:00:00+03:00", "take vitamins"),
        ("every monday at 9 team sync", "FREQ=WEEKLY;BYDAY=MO", "2024-05-06T09:00:00+03:00", "team sync"),
        ("drink water every 2 hours", "FREQ=HOURLY;INTERVAL=2", "2024-05-01T12:00:00+03:00", "drink water"),
        ("meditate every morning", "FREQ=DAILY", "2024-05-02T09:00:00+03:00", "meditate"),
        ("כל יום ראשון ב-9 להוציא זבל", "FREQ=WEEKLY;BYDAY=SU", "2024-05-05T09:00:00+03:00", "להוציא זבל"),
        ("ויטמינים כל יום בשמונה בבוקר", "FREQ=DAILY", "2024-05-02T08:00:00+03:00", "ויטמינים"),
        (
            "rent on the 1st of every month at 9am",
            "FREQ=MONTHLY;BYMONTHDAY=1",
            "2024-06-01T09:00:00+03:00",
            "rent",
        ),
    ],
)
def test_repetition(text: str, rule: str, first: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.recurrence == rule
    assert parsed.when is not None and parsed.when.isoformat() == first
    assert parsed.remainder == title


def test_a_repetition_without_a_time_of_day_waits_for_one() -> None:
    parsed = parse("water the plants every monday")
    assert parsed.recurrence == "FREQ=WEEKLY;BYDAY=MO" and parsed.when is None
    assert parsed.remainder == "water the plants"


def test_what_a_move_changes() -> None:
    assert parse("to 6pm").change() == {"time": "18:00"}
    assert parse("to friday").change() == {"day": "2024-05-03"}
    assert parse("to friday at 6pm").change() == {"when": "2024-05-03T18:00:00+03:00"}
    assert parse("in 2 hours").change() == {"when": "2024-05-01T12:00:00+03:00"}


@pytest.mark.parametrize(
    ("message", "title", "when"),
    [
        ("in 20 minutes remind me to check the oven", "check the oven", "2024-05-01T10:20:00+03:00"),
        ("tomorrow at 8 remind me to call the school", "call the school", "2024-05-02T08:00:00+03:00"),
        ("בעוד 20 דקות תזכיר לי לכבות את הגז", "לכבות את הגז", "2024-05-01T10:20:00+03:00"),
    ],
)
def test_the_time_may_come_first(message: str, title: str, when: str) -> None:
    found = reminders.create(message, pin(message))
    assert found is not None
    assert found.constraints == {"title": title, "when": when}


def test_create_asks_about_an_impossible_time_and_keeps_the_title() -> None:
    found = reminders.create(
        "remind me to call the bank at 25:00", pin("remind me to call the bank at 25:00")
    )
    assert found is not None
    assert found.constraints == {"title": "call the bank"}
    assert found.missing == ("time_invalid", "reminder_time_required")
    past = reminders.create("remind me yesterday to pay rent", pin("remind me yesterday to pay rent"))
    assert past is not None and past.missing == ("time_in_past", "reminder_time_required")


def test_create_carries_the_repetition() -> None:
    message = "remind me to take vitamins every day at 8am"
    found = reminders.create(message, pin(message))
    assert found is not None
    assert found.constraints == {
        "title": "take vitamins",
        "recurrence": "FREQ=DAILY",
        "when": "2024-05-02T08:00:00+03:00",
    }


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("delete the vitamins reminder just this one", "occurrence"),
        ("delete the reminder vitamins, the whole series", "series"),
        ("תמחק את התזכורת ויטמינים רק הפעם הזאת", "occurrence"),
        ("תמחק את התזכורת ויטמינים את כל הסדרה", "series"),
    ],
)
def test_delete_scope_words(message: str, scope: str) -> None:
    found = reminders.delete(message, pin(message))
    assert found is not None
    assert found.constraints["scope"] == scope
    assert "vitamins" in str(found.constraints["target"]) or "ויטמינים" in str(found.constraints["target"])


@pytest.mark.parametrize("text", ["להביא מסמכים לפני הפגישה", "call before the meeting", "buy 2 tickets"])
def test_words_that_are_not_times_stay_in_the_title(text: str) -> None:
    parsed = parse(text)
    assert not parsed.found and parsed.remainder == text
