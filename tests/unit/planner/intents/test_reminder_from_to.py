"""A reminder moved from the time it is at to another: the words after the last "to" are the new
time, the words before it name the reminder by its time (and title words)."""

from __future__ import annotations

import pytest

from memo.planner.intents import reminder_from_to
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import latest, pin

_NEW = {
    "4pm": {"time": "16:00"},
    "16:30": {"time": "16:30"},
    "5:15pm": {"time": "17:15"},
    "tomorrow": "day",
    "friday": "day",
}
_WHICH = [
    ("the {at} reminder", "{at}"),
    ("my {at}", "{at}"),
    ("the reminder at {at}", "at {at}"),
    ("it from {at}", "{at}"),
    ("the {at} water", "{at} water"),
    ("the water from {at}", "{at} water"),
    ("the dentist reminder from {at}", "{at} dentist"),
]


@pytest.mark.parametrize("verb", ["move", "change", "push", "reschedule"])
@pytest.mark.parametrize("at", ["3pm", "15:00", "9am", "3:45pm"])
@pytest.mark.parametrize(("which", "target"), _WHICH)
def test_the_time_before_to_names_the_reminder_and_the_time_after_it_is_the_new_one(
    verb: str, at: str, which: str, target: str
) -> None:
    # "move the 3pm reminder to 4pm" moved a reminder "4pm" to 15:00.
    for new, changes in _NEW.items():
        said = f"{verb} {which.format(at=at)} to {new}"
        (step,) = RulePlanner().plan(pin(said)).output.plan
        assert (step.capability, step.action) == ("reminders", "update"), said
        assert step.constraints["target"] == target.format(at=at), said
        assert step.changes == changes if isinstance(changes, dict) else list(step.changes) == [changes], said


@pytest.mark.parametrize(
    ("said", "target", "time"),
    [
        ("move the dentist from 3 to 4", "3 dentist", "16:00"),
        ("move my 9am to 10", "9am", "10:00"),
        ("תזיז את התזכורת של 15:00 ל-16:00", "15:00", "16:00"),
        ("תעביר את הרופא מ-3 ל-4", "3 הרופא", "16:00"),
    ],
)
def test_hours_said_bare_are_times_of_day_never_minutes_to_the_hour(
    said: str, target: str, time: str
) -> None:
    # "from 3 to 4" was 15:57, three minutes to four.
    (step,) = RulePlanner().plan(pin(said)).output.plan
    assert (step.constraints["target"], step.changes["time"]) == (target, time)


@pytest.mark.parametrize(
    "said",
    [
        "move the water reminder to 3:30",
        "move the reminder to go to the gym to 6pm",
        "move the dentist to friday",
        "move monday's meeting to 11pm",
        "move the 3pm reminder to the top",
        "move",
        "change it to every hour from 10 to 6",
        "make it from 10am to 6pm",
        "change the hours to 10am to 6pm",
    ],
)
def test_no_time_before_to_is_left_to_the_other_moves(said: str) -> None:
    assert reminder_from_to.from_to(said, pin(said)) is None


def test_it_from_a_time_is_the_reminder_just_set_when_there_is_one() -> None:
    said = "move it from 3pm to 4pm"
    (step,) = RulePlanner().plan(pin(said, actions=(latest(),))).output.plan
    assert (step.constraints.get("targetRef"), step.changes) == ("latest_action", {"time": "16:00"})
    (alone,) = RulePlanner().plan(pin(said)).output.plan
    assert (alone.constraints["target"], alone.changes) == ("3pm", {"time": "16:00"})


@pytest.mark.parametrize("many", [1, 50, 500])
def test_only_a_to_near_the_end_can_start_the_new_time(many: int) -> None:
    # Each "to" further back than a time's words is never read as the start of one.
    said = "move the 3pm reminder " + "to go to the shop " * many + "to 4pm"
    found = reminder_from_to.from_to(said, pin(said))
    assert found is not None and found.changes == {"time": "16:00"}
    assert reminder_from_to.from_to(said + " and then to the bank and back home", pin(said)) is None
