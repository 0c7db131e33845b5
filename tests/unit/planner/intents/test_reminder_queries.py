"""Asking about reminders: all of them, a day's, a week's, and when one is."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.base import PlannerInput
from memo.planner.intents import reminder_queries
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, latest, pin

# NOW is Wednesday 1 May 2024 in Jerusalem.


def test_the_reminders_of_a_day() -> None:
    found = reminder_queries.show("what are my reminders for tomorrow?", pin("x"))
    assert found is not None and found.action == "list"
    assert found.constraints == {"day": "2024-05-02"}


def test_the_reminders_of_this_week_and_next() -> None:
    this_week = reminder_queries.show("show my reminders this week", pin("x"))
    # Wednesday 1 May 2024 in Israel: this week ends on Saturday 4 May, and next week is its own.
    assert this_week is not None and this_week.constraints == {"day": "2024-05-01", "until": "2024-05-04"}
    next_week = reminder_queries.show("show my reminders next week", pin("x"))
    assert next_week is not None and next_week.constraints == {"day": "2024-05-05", "until": "2024-05-11"}


def test_when_is_a_reminder() -> None:
    found = reminder_queries.when_is("when is the rent reminder?", pin("x"))
    assert found is not None and found.constraints == {"about": "rent"}


def test_the_days_a_period_names() -> None:
    assert reminder_queries.days_named("trash tomorrow", pin("x")) == (
        {"from": "2024-05-02", "until": "2024-05-03"},
        "trash",
    )
    assert reminder_queries.days_named("trash", pin("x")) == ({}, "trash")


@pytest.mark.parametrize(
    "said", ["the week after next", "week after next", "בשבוע שאחרי הבא", "בשבוע שאחרי השבוע הבא"]
)
def test_the_week_after_next_is_the_calendar_week_after_next_week(said: str) -> None:
    # NOW is Wednesday 1 May 2024 in Israel: next week is Sunday 5 to Saturday 11 May.
    assert reminder_queries.days_named(f"gym {said}", pin("x")) == (
        {"from": "2024-05-12", "until": "2024-05-19"},
        "gym",
    )
    (step,) = RulePlanner().plan(pin(f"what do I have {said}?")).output.plan
    assert (step.action, step.constraints) == ("list", {"day": "2024-05-12", "until": "2024-05-18"})


WHEN_IS_IT = [
    "when is it?",
    "when's that?",
    "what time is it set for?",
    "what time did you set it for",
    "when will you remind me?",
    "ok when is that reminder for?",
    "when's the next one?",
    "so when is it going to go off",
    "מתי זה?",
    "לאיזו שעה קבעת?",
    "מתי התזכורת הבאה?",
    "what time is this?",
    "what time is that one?",
    "what time's this reminder",
]


def test_what_time_is_it_stays_the_clock() -> None:
    asked = "what time is it?"
    assert reminder_queries.when_is_it(asked, pin(asked, actions=(latest(),))) is None


@pytest.mark.parametrize("asked", WHEN_IS_IT)
def test_when_is_it_is_the_time_of_the_reminder_just_set(asked: str) -> None:
    found = reminder_queries.when_is_it(
        asked, pin(asked, actions=(latest(summary="reminder “call mom” for Thu 17:00"),))
    )
    assert found is not None and found.action == "list" and found.constraints == {"about": "call mom"}


@pytest.mark.parametrize("asked", WHEN_IS_IT)
def test_when_is_it_after_no_reminder_is_no_question_of_a_reminder(asked: str) -> None:
    assert reminder_queries.when_is_it(asked, pin(asked)) is None
    after_a_list_add = (latest("lists", "added eggs"), latest(summary="reminder “call mom” for Thu 17:00"))
    assert reminder_queries.when_is_it(asked, pin(asked, actions=after_a_list_add)) is None


@pytest.mark.parametrize(
    "asked", ["what time is it?", "what time is it now", "מה השעה?", "when is it raining"]
)
def test_the_clock_or_anything_else_is_not_asked_here(asked: str) -> None:
    actions = (latest(summary="reminder “call mom” for Thu 17:00"),)
    assert reminder_queries.when_is_it(asked, pin(asked, actions=actions)) is None


def test_the_days_of_a_month_named() -> None:
    # NOW is 1 May 2024: next month is June, and May is the rest of this month.
    assert reminder_queries.days_named("rent next month", pin("x")) == (
        {"from": "2024-06-01", "until": "2024-07-01"},
        "rent",
    )
    assert reminder_queries.days_named("על החודש הבא", pin("x"))[0] == {
        "from": "2024-06-01",
        "until": "2024-07-01",
    }
    assert reminder_queries.days_named("rent in december", pin("x"))[0] == {
        "from": "2024-12-01",
        "until": "2025-01-01",
    }


@pytest.mark.parametrize(
    ("text", "days_ahead", "days"),
    [
        ("תראה לי את התזכורות שלי לשבוע הזה", 0, 3),
        ("מה התזכורות שלי בשבוע הזה", 0, 3),
        ("מה התזכורות שלי השבוע", 0, 3),
        ("מה יש לי לשבוע הקרוב", 0, 6),
        ("מה התזכורות שלי לשבוע הבא", None, 6),
        ("show my reminders for this week", 0, 3),
    ],
)
def test_the_week_asked_about_bounds_the_listing(text: str, days_ahead: int | None, days: int) -> None:
    # "לשבוע הזה" listed every reminder, of every week. This week (NOW is a Wednesday in Israel)
    # ends on Saturday; "the coming week" is seven days.
    (step,) = RulePlanner().plan(pin(text)).output.plan
    assert (step.capability, step.action) == ("reminders", "list")
    start, end = (
        date.fromisoformat(str(step.constraints["day"])),
        date.fromisoformat(str(step.constraints["until"])),
    )
    assert end - start == timedelta(days=days)
    if days_ahead is not None:
        assert start == NOW.date()
    else:
        assert start > NOW.date()


@pytest.mark.parametrize(
    ("message", "constraints"),
    [
        ("what did i ask you to remind me about on friday?", {"day": "2024-05-03"}),
        ("what did i ask you to remind me about", {}),
        ("what reminders did i set for friday", {"day": "2024-05-03"}),
        ("which reminders have i set", {}),
        ("reminders for the weekend", {"day": "2024-05-03", "until": "2024-05-04"}),
    ],
)
def test_a_question_about_what_was_set_lists_the_day_it_names(
    message: str, constraints: dict[str, str]
) -> None:
    found = reminder_queries.show(message, pin(message))
    assert found is not None and found.action == "list" and found.constraints == constraints


def test_set_the_reminder_for_friday_is_no_listing() -> None:
    assert reminder_queries.show("set the reminder for friday", pin("x")) is None


@pytest.mark.parametrize(
    ("message", "first"),
    [
        ("what's my next reminder?", 1), ("when is my next reminder", 1), ("next reminder?", 1),
        ("my next 3 reminders", 3), ("show me my next two reminders", 2), ("what are my next 5 reminders", 5),
        ("my next 40 reminders", 10), ("מה התזכורת הבאה?", 1), ("מתי התזכורת הבאה שלי?", 1),
    ],
)  # fmt: skip
def test_the_next_reminder_is_the_next_one_only(message: str, first: int) -> None:
    found = reminder_queries.next_ones(message, pin(message))
    assert found is not None and found.action == "list" and found.constraints == {"first": first}


@pytest.mark.parametrize("message", ["my next reminders", "what are my next reminders?"])
def test_the_next_reminders_with_no_count_are_every_one_to_come(message: str) -> None:
    found = reminder_queries.next_ones(message, pin(message))
    assert found is not None and found.constraints == {}


@pytest.mark.parametrize("message", ["when's the next one?", "what's next?", "remind me next week", "next"])
def test_other_words_with_next_are_not_the_next_reminder(message: str) -> None:
    assert reminder_queries.next_ones(message, pin(message)) is None


@given(days=st.integers(0, 13), zone=st.sampled_from(["Asia/Jerusalem", "Europe/London", "America/New_York"]))
def test_this_week_and_next_week_never_share_a_day(days: int, zone: str) -> None:
    # "this week" ran seven days from today, so Sunday's reminders were in both weeks.
    now = datetime(2024, 5, 1, 10, 0, tzinfo=ZoneInfo(zone)) + timedelta(days=days)
    today = now.date()
    for this_words, next_words in (
        ("what do I have this week?", "what do I have next week?"),
        ("show my reminders this week", "show my reminders next week"),
        ("מה יש לי השבוע?", "מה יש לי בשבוע הבא?"),
    ):
        shown = []
        for words in (this_words, next_words):
            inp = PlannerInput(
                message=words, now=now, timezone=zone, language="he" if "מה" in words else "en"
            )
            (step,) = RulePlanner().plan(inp).output.plan
            shown.append(
                (date.fromisoformat(step.constraints["day"]), date.fromisoformat(step.constraints["until"]))
            )
        (this_first, this_last), (next_first, next_last) = shown
        assert this_first == today and this_last + timedelta(days=1) == next_first
        assert next_last - next_first == timedelta(days=6)
        first = 6 if zone == "Asia/Jerusalem" or "מה" in this_words else 0  # Sunday in Israel and in Hebrew
        assert next_first.weekday() == first and this_last - this_first < timedelta(days=7)
