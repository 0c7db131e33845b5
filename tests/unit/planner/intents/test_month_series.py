"""A yearly reminder said by its month and no day ("every march at 9"): the day is asked, never a
one-time reminder titled "every march"; the answer's day is read in that month."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.intents.month_series import (
    MONTH_DAY_REQUIRED,
    SAID_MONTH,
    MonthSaid,
    day_in_month,
    month_without_day,
)
from memo.planner.rules import RulePlanner
from memo.text.months import MONTHS_EN, MONTHS_HE
from tests.unit.planner.conftest import pin

PLANNER = RulePlanner()
EN_FORMS = ("every {m}", "each {m}", "every year in {m}", "in {m} every year")
HE_FORMS = ("כל {m}", "בכל {m}", "כל שנה ב{m}", "ב{m} כל שנה")


@given(
    month=st.integers(1, 12),
    form=st.integers(0, 3),
    hebrew=st.booleans(),
    time=st.sampled_from([None, "9", "18:30"]),
)
def test_a_month_with_no_day_asks_the_day_and_sets_nothing(
    month: int, form: int, hebrew: bool, time: str | None
) -> None:
    if hebrew:
        said = HE_FORMS[form].format(m=MONTHS_HE[month - 1])
        message = f"תזכיר לי {said}{f' ב-{time}' if time else ''} לחדש ביטוח"
        title = "לחדש ביטוח"
    else:
        said = EN_FORMS[form].format(m=MONTHS_EN[month - 1].lower())
        message = f"remind me {said}{f' at {time}' if time else ''} to renew insurance"
        title = "renew insurance"
    output = PLANNER.plan(pin(message)).output
    (step,) = output.plan
    assert output.missing_fields == [MONTH_DAY_REQUIRED, "reminder_time_required"]
    assert step.constraints["title"] == title
    assert step.constraints["recurrence"] == "FREQ=YEARLY"
    assert step.constraints[SAID_MONTH] == month
    assert "when" not in step.constraints
    assert ("saidTime" in step.constraints) == (time is not None)


@pytest.mark.parametrize(
    "message",
    [
        "remind me every march on the 5th at 9 to renew insurance",
        "remind me every march the 5th at 9 to renew insurance",
        "remind me every march 5 at 9 to renew insurance",
    ],
)
def test_a_day_said_with_the_month_is_that_yearly_date(message: str) -> None:
    (step,) = PLANNER.plan(pin(message)).output.plan
    assert dict(step.constraints) == {
        "title": "renew insurance",
        "recurrence": "FREQ=YEARLY",
        "when": "2025-03-05T09:00:00+02:00",
    }


@pytest.mark.parametrize(
    "text", ["every marching band practice at 9", "every march 5 at 9", "in march at 9", "כל 5 במרץ"]
)
def test_other_words_are_not_read_here(text: str) -> None:
    assert not isinstance(month_without_day(text), MonthSaid)


@pytest.mark.parametrize(
    ("answer", "hebrew", "said"),
    [
        ("5", False, "March 5"),
        ("the 5th", False, "March 5"),
        ("on the 5th at 10", False, "March 5 at 10"),
        ("march 5", False, "march 5"),
        ("5pm", False, "5pm"),
        ("10:30", False, "10:30"),
        ("ב-5", True, "5 במרץ"),
        ("ה-5 בשעה 9", True, "5 במרץ בשעה 9"),
        ("ב-5 באפריל", True, "ב-5 באפריל"),
        ("the 5th of april", False, "the 5th of april"),
    ],
)
def test_an_answer_day_is_read_in_the_month_asked(answer: str, hebrew: bool, said: str) -> None:
    assert day_in_month(answer, 3, hebrew) == said
