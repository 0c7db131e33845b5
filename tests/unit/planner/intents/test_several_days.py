"""A reminder said for several weekdays at once: one reminder on each day, as each day alone would be."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.intents import reminders
from memo.planner.intents.several_days import on_several_days
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

EN_FORMS = {
    0: ("monday", "mon"),
    1: ("tuesday", "tue", "tues"),
    2: ("wednesday", "wed", "weds"),
    3: ("thursday", "thu", "thurs"),
    4: ("friday", "fri"),
    5: ("saturday", "sat"),
    6: ("sunday", "sun"),
}
HE_DAYS = ("שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון")
PLANNER = RulePlanner()


def _said(names: list[str], hebrew: bool) -> str:
    if len(names) == 2:
        return f"{names[0]} {'ו' if hebrew else 'and '}{names[1]}"
    return ", ".join(names[:-1]) + (f" ו{names[-1]}" if hebrew else f" and {names[-1]}")


def _alone(message: str) -> tuple[str, str]:
    (step,) = PLANNER.plan(pin(message)).output.plan
    return step.constraints["title"], step.constraints["when"]


@given(
    days=st.lists(st.integers(0, 6), min_size=2, max_size=4, unique=True),
    form=st.integers(0, 2),
    hour=st.sampled_from(["10", "6pm", "7:30am", "18:45"]),
)
def test_each_weekday_named_is_one_reminder_as_that_day_alone_would_be(
    days: list[int], form: int, hour: str
) -> None:
    names = [EN_FORMS[d][min(form, len(EN_FORMS[d]) - 1)] for d in days]
    message = f"remind me on {_said(names, hebrew=False)} at {hour} to call mom"
    steps = PLANNER.plan(pin(message)).output.plan
    expected = [_alone(f"remind me on {name} at {hour} to call mom") for name in names]
    assert [(s.constraints["title"], s.constraints["when"]) for s in steps] == expected
    assert all("recurrence" not in s.constraints for s in steps)


@given(days=st.lists(st.integers(0, 6), min_size=2, max_size=3, unique=True))
def test_hebrew_weekdays(days: list[int]) -> None:
    names = [HE_DAYS[d] for d in days]
    message = f"תזכיר לי ביום {_said(names, hebrew=True)} ב-10 להתקשר לאמא"
    steps = PLANNER.plan(pin(message)).output.plan
    expected = [_alone(f"תזכיר לי ביום {name} ב-10 להתקשר לאמא") for name in names]
    assert [(s.constraints["title"], s.constraints["when"]) for s in steps] == expected


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("remind me on mondays and wednesdays at 10 to call mom", "FREQ=WEEKLY;BYDAY=MO,WE"),
        ("remind me every monday and wednesday at 10 to call mom", "FREQ=WEEKLY;BYDAY=MO,WE"),
        ("remind me on tues, weds and fridays at 10 to call mom", "FREQ=WEEKLY;BYDAY=TU,WE,FR"),
        ("remind me every weds at 10 to call mom", "FREQ=WEEKLY;BYDAY=WE"),
        ("תזכיר לי כל יום שני ורביעי ב-10 להתקשר לאמא", "FREQ=WEEKLY;BYDAY=MO,WE"),
    ],
)
def test_a_repetition_is_one_repeating_reminder(message: str, rule: str) -> None:
    (step,) = PLANNER.plan(pin(message)).output.plan
    assert step.constraints["recurrence"] == rule
    assert step.constraints["title"] in ("call mom", "להתקשר לאמא")


@pytest.mark.parametrize(
    ("short", "day"), [("tues", "tuesday"), ("weds", "wednesday"), ("thurs", "thursday")]
)
def test_a_shortened_weekday_is_one_day_not_a_repetition(short: str, day: str) -> None:
    (step,) = PLANNER.plan(pin(f"remind me on {short} at 10 to call mom")).output.plan
    assert "recurrence" not in step.constraints
    assert (step.constraints["title"], step.constraints["when"]) == _alone(
        f"remind me on {day} at 10 to call mom"
    )


@pytest.mark.parametrize(
    "message",
    [
        "remind me on monday at 10 to call mom",  # one day
        "remind me on monday and monday at 10 to call mom",  # the same day twice
        "remind me on monday and wednesday",  # no title: each day alone misses more than its time
    ],
)
def test_nothing_is_read_here_without_two_days_that_miss_at_most_their_time(message: str) -> None:
    assert on_several_days(message, pin(message), lambda text, inp: None) == []
    assert on_several_days(message, pin(message), reminders.create) == []


@given(days=st.lists(st.integers(1, 28), min_size=2, max_size=4, unique=True))
def test_several_days_of_every_month_are_a_monthly_reminder_on_each(days: list[int]) -> None:
    def nth(day: int) -> str:
        return f"{day}{'st' if day % 10 == 1 and day != 11 else 'nd' if day % 10 == 2 and day != 12 else 'rd' if day % 10 == 3 and day != 13 else 'th'}"

    said = ", ".join(nth(d) for d in days[:-1]) + f" and {nth(days[-1])}"
    steps = PLANNER.plan(pin(f"remind me on the {said} of every month at 9 to pay bills")).output.plan
    alone = [
        PLANNER.plan(pin(f"remind me on the {nth(d)} of every month at 9 to pay bills")).output.plan[0]
        for d in days
    ]
    assert [dict(s.constraints) for s in steps] == [dict(a.constraints) for a in alone]
    assert [s.constraints["recurrence"] for s in steps] == [f"FREQ=MONTHLY;BYMONTHDAY={d}" for d in days]


def test_hebrew_days_of_every_month() -> None:
    steps = PLANNER.plan(pin("תזכיר לי ב-1 וב-15 לכל חודש ב-9 לשלם חשבונות")).output.plan
    assert [s.constraints["recurrence"] for s in steps] == [
        "FREQ=MONTHLY;BYMONTHDAY=1",
        "FREQ=MONTHLY;BYMONTHDAY=15",
    ]


def _asked_alone(message: str) -> tuple[str, str]:
    output = PLANNER.plan(pin(message)).output
    assert output.missing_fields == ["reminder_time_required"]
    (step,) = output.plan
    return step.constraints["title"], step.constraints["day"]


@given(
    days=st.lists(st.integers(0, 6), min_size=2, max_size=4, unique=True),
    form=st.integers(0, 2),
    hebrew=st.booleans(),
)
def test_without_a_time_each_day_is_one_reminder_whose_time_is_asked_once(
    days: list[int], form: int, hebrew: bool
) -> None:
    """ "on monday and wednesday to call mom": the title is "call mom" on each day (it was
    "wednesday to call mom" on monday alone), and the one question is the time."""
    if hebrew:
        names = [HE_DAYS[d] for d in days]
        message = f"תזכיר לי ביום {_said(names, hebrew=True)} להתקשר לאמא"
        alone = [f"תזכיר לי ביום {name} להתקשר לאמא" for name in names]
    else:
        names = [EN_FORMS[d][min(form, len(EN_FORMS[d]) - 1)] for d in days]
        message = f"remind me on {_said(names, hebrew=False)} to call mom"
        alone = [f"remind me on {name} to call mom" for name in names]
    output = PLANNER.plan(pin(message)).output
    assert output.missing_fields == ["reminder_time_required"]
    assert [(s.constraints["title"], s.constraints["day"]) for s in output.plan] == [
        _asked_alone(a) for a in alone
    ]
    assert all("when" not in s.constraints and "recurrence" not in s.constraints for s in output.plan)


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("remind me on the 1st and 15th of every month to pay bills", "pay bills"),
        ("תזכיר לי ב-1 וב-15 לכל חודש לשלם חשבונות", "לשלם חשבונות"),
    ],
)
def test_without_a_time_each_day_of_the_month_is_a_monthly_reminder_whose_time_is_asked(
    message: str, title: str
) -> None:
    output = PLANNER.plan(pin(message)).output
    assert output.missing_fields == ["reminder_time_required"]
    assert [dict(s.constraints) for s in output.plan] == [
        {"title": title, "recurrence": "FREQ=MONTHLY;BYMONTHDAY=1"},
        {"title": title, "recurrence": "FREQ=MONTHLY;BYMONTHDAY=15"},
    ]


@given(days=st.lists(st.integers(0, 6), min_size=3, max_size=4, unique=True), hebrew=st.booleans())
def test_weekdays_listed_with_spaces_only_are_each_one_reminder(days: list[int], hebrew: bool) -> None:
    # "on monday wednesday and friday at 7" was two guessed reminders, one titled "wednesday".
    names = [HE_DAYS[d] if hebrew else EN_FORMS[d][0] for d in days]
    said = " ".join(names[:-1]) + (f" ו{names[-1]}" if hebrew else f" and {names[-1]}")
    if hebrew:
        message, alone = f"תזכיר לי ביום {said} ב-10 להתקשר לאמא", "תזכיר לי ביום {} ב-10 להתקשר לאמא"
    else:
        message, alone = f"remind me on {said} at 10 to call mom", "remind me on {} at 10 to call mom"
    steps = PLANNER.plan(pin(message)).output.plan
    assert [(s.constraints["title"], s.constraints["when"]) for s in steps] == [
        _alone(alone.format(n)) for n in names
    ]
