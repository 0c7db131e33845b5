"""Skipping times of a repeating reminder: the words that say it, the days they name (a day, a week,
a stretch from today), and the words that are no skip (all reminders, a note, a list, no days)."""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.planner.intents import reminder_skips
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, TZ, latest, pin

TODAY = NOW.astimezone(ZoneInfo(TZ)).date()


def _skip_of(message: str) -> dict[str, object]:
    found = reminder_skips.skip(message, pin(message))
    assert found is not None, message
    assert found.capability == "reminders" and found.action == "delete" and found.risk == "high"
    assert found.constraints["scope"] == "occurrence"
    return found.constraints


LEADS = [
    "skip {t}",
    "miss {t}",
    "don't remind me about {t}",
    "do not remind me about {t}",
    "pause {t}",
    "cancel {t}",
    "delete {t}",
    "no {t}",
    "no more {t}",
    "without {t}",
]
DAYS = [
    "tomorrow",
    "next week",
    "this week",
    "on friday",
    "for two weeks",
    "for the next 10 days",
    "until friday",
]


@settings(max_examples=200, deadline=None)
@given(
    lead=st.sampled_from(LEADS),
    days=st.sampled_from(DAYS),
    name=st.sampled_from(["gym", "the gym", "my gym"]),
)
def test_a_skip_said_with_days_names_the_reminder_and_the_days(lead: str, days: str, name: str) -> None:
    constraints = _skip_of(lead.format(t=f"{name} {days}"))
    within = constraints["within"]
    assert isinstance(within, dict)
    first, until = date.fromisoformat(within["from"]), date.fromisoformat(within["until"])
    assert TODAY <= first < until <= TODAY + timedelta(days=21)
    assert "gym" in str(constraints["target"]) and days.split()[-1] not in str(constraints["target"])


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("for two weeks", 14),
        ("for 2 weeks", 14),
        ("for the next 10 days", 10),
        ("for a week", 7),
        ("לשבועיים", 14),
        ("לשבוע", 7),
        ("ל-3 ימים", 3),
    ],
)
def test_a_stretch_is_from_today_for_that_many_days(said: str, days: int) -> None:
    message = f"skip the gym {said}" if said.isascii() else f"תדלג על החדר כושר {said}"
    within = _skip_of(message)["within"]
    assert within == {"from": TODAY.isoformat(), "until": (TODAY + timedelta(days=days)).isoformat()}


def test_until_a_day_is_from_today_through_it() -> None:
    within = _skip_of("skip the gym until december 10")["within"]
    assert isinstance(within, dict) and within["from"] == TODAY.isoformat()
    last = date.fromisoformat(within["until"]) - timedelta(days=1)
    assert (last.month, last.day) == (12, 10)


def test_days_said_in_the_clause_before_count_and_after_do_not() -> None:
    planned = RulePlanner().plan(pin("I'm on vacation next week, skip the gym")).output
    (step,) = planned.plan
    assert step.action == "delete" and step.constraints["scope"] == "occurrence"
    within = step.constraints["within"]
    assert isinstance(within, dict) and date.fromisoformat(within["from"]) > TODAY
    after = RulePlanner().plan(pin("skip the gym, I'll go tomorrow instead")).output
    assert all("within" not in step.constraints for step in after.plan)


@pytest.mark.parametrize(
    "message",
    [
        "don't remind me about the gym",  # no days: stopping it is `stop_reminding`'s
        "pause the gym",
        "cancel my dentist",
        "delete all my reminders tomorrow",
        "delete the note from yesterday",
        "cancel the shopping list tomorrow",
        "תמחק את כל התזכורות מחר",
        "תמחק את הפתק מאתמול",
        "no gym",
        "no thanks",
        "no, tomorrow",
        "no more notes tomorrow",
        "בלי חדר כושר",
    ],
)
def test_words_that_are_no_skip_without_days_or_of_more_than_a_reminder(message: str) -> None:
    assert reminder_skips.skip(message, pin(message)) is None


def test_a_skip_without_a_name_is_of_the_reminder_just_set() -> None:
    message = "don't remind me tomorrow"
    found = reminder_skips.skip(message, pin(message, actions=(latest(),)))
    assert found is not None and found.constraints["targetRef"] == "latest_action"
    assert reminder_skips.skip(message, pin(message)) is None  # nothing set: no skip of it


def test_next_weeks_gym_is_the_gym_next_week() -> None:
    constraints = _skip_of("cancel next week's gym")
    assert constraints["target"] == "gym"


@pytest.mark.parametrize(
    ("said", "last"),
    [
        ("until friday", date(2024, 5, 3)),
        ("till friday", date(2024, 5, 3)),
        ("through next week", date(2024, 5, 11)),  # to the end of that week (Saturday, in Israel)
        ("until december 10", date(2024, 12, 10)),
    ],
)
def test_until_is_from_today_through_the_days_named(said: str, last: date) -> None:
    within = _skip_of(f"skip the gym {said}")["within"]
    assert within == {"from": TODAY.isoformat(), "until": (last + timedelta(days=1)).isoformat()}


@pytest.mark.parametrize("message", ["בלי חדר כושר בשבוע הבא", "ללא חדר כושר מחר", "בלי הכושר לשבועיים"])
def test_hebrew_without_the_gym_on_some_days_is_its_skip(message: str) -> None:
    constraints = _skip_of(message)
    assert "כושר" in str(constraints["target"]) and isinstance(constraints["within"], dict)


@pytest.mark.parametrize(
    ("message", "only"),
    [
        ("delete tomorrow's reminder", "tomorrow"),
        ("delete the reminder for tomorrow", "for tomorrow"),
        ("cancel my reminder for friday", "for friday"),
        ("תמחק את התזכורת של מחר", "מחר"),
    ],
)
def test_the_reminder_of_a_day_is_that_day_s_reminders(message: str, only: str) -> None:
    # It was a skip of the latest reminder's time that day.
    (step,) = RulePlanner().plan(pin(message, actions=(latest(),))).output.plan
    assert (step.action, step.constraints) == ("delete_all", {"only": only})


def test_it_on_a_day_is_still_the_latest_reminder_s_time_then() -> None:
    (step,) = RulePlanner().plan(pin("delete it tomorrow", actions=(latest(),))).output.plan
    assert step.action == "delete" and step.constraints["targetRef"] == "latest_action"


@pytest.mark.parametrize(
    ("said", "times"),
    [
        ("skip the next two vitamins", 2),
        ("skip the next 3 vitamins", 3),
        ("skip the vitamins twice", 2),
        ("skip the vitamins 4 times", 4),
        ("skip the vitamins the next five times", 5),
        ("תדלג על הויטמינים פעמיים", 2),
        ("תדלג על שתי הפעמים הבאות של הויטמינים", 2),
        ("תדלג על הויטמינים 3 פעמים", 3),
    ],
)
def test_the_next_few_times_of_a_skip_are_counted_not_named(said: str, times: int) -> None:
    # "skip the next two vitamins" looked for a reminder called "two vitamins".
    step = RulePlanner().plan(pin(said)).output.plan[0]
    assert step.action == "delete" and step.constraints["times"] == times
    assert (
        step.constraints["target"] in ("vitamins", "הויטמינים") and step.constraints["scope"] == "occurrence"
    )
    assert "times" not in RulePlanner().plan(pin("skip the next vitamins")).output.plan[0].constraints
