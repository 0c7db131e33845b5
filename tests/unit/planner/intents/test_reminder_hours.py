"""New hours for a reminder that repeats within the hours of each day: the window said alone is the
series' hours; with a repetition it is a new repetition, and "from X to Y" after "move" is a move."""

from __future__ import annotations

import pytest

from memo.planner.intents import reminder_hours
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import latest, pin

_HOURS = [("10am", "6pm", "10:00-18:00"), ("10", "6", "10:00-18:00"), ("8:00", "12:00", "08:00-12:00")]


@pytest.mark.parametrize(("start", "end", "hours"), _HOURS)
@pytest.mark.parametrize(
    "said",
    [
        "make it from {a} to {b}",
        "make it between {a} and {b}",
        "set it to between {a} and {b}",
        "change it to between {a} and {b}",
        "change it to be from {a} to {b}",
        "change the hours to {a} to {b}",
        "move it to between {a} and {b}",
    ],
)
def test_the_hours_said_alone_are_the_series_hours(said: str, start: str, end: str, hours: str) -> None:
    # "make it from 10am to 6pm" moved the reminder to 10:00; "change it to between 10 and 6" was
    # not understood.
    message = said.format(a=start, b=end)
    (step,) = RulePlanner().plan(pin(message, actions=(latest(),))).output.plan
    assert (step.action, step.changes, step.constraints.get("targetRef")) == (
        "update",
        {"hours": hours},
        "latest_action",
    ), message


@pytest.mark.parametrize(
    ("said", "target"),
    [
        ("make the water reminder from 10 to 6", "the water"),
        ("set the hours of the water reminder to 10 to 6", "the water"),
    ],
)
def test_a_reminder_named_gets_the_hours(said: str, target: str) -> None:
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.constraints["target"], step.changes) == (target, {"hours": "10:00-18:00"})


@pytest.mark.parametrize(
    "said", ["תעשה את זה בין 10 ל-18", "תשנה את השעות ל-10 עד 18", "תשנה את זה בין 10 ל-18"]
)
def test_hebrew_the_hours_said_alone(said: str) -> None:
    (step,) = RulePlanner().plan(pin(said, actions=(latest(),))).output.plan
    assert step.changes == {"hours": "10:00-18:00"}, said


@pytest.mark.parametrize(
    "said",
    [
        "make it every hour between 10am and 6pm",
        "move it from 3pm to 4pm",
        "change it from 3pm to 4pm",
        "make it 6pm",
        "make it from 10 to 6 on friday",
    ],
)
def test_not_the_hours_alone(said: str) -> None:
    assert reminder_hours.hours_changed(said, pin(said, actions=(latest(),))) is None
