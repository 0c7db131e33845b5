""" "change the reminder buy milk to buy oat milk" renames it, "... to nine thirty" moves it; where the
old title ends is not guessed."""

from __future__ import annotations

import pytest

from memo.planner.intents.reminder_retitles import renamed_instead, spoken_time_last
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin


def test_the_words_after_the_last_to_read_as_a_time_when_they_are_one() -> None:
    inp = pin("m")
    assert spoken_time_last("buy milk to nine thirty", inp) == "buy milk at nine thirty"
    assert spoken_time_last("talk to mom to seven", inp) == "talk to mom at seven"
    assert spoken_time_last("buy milk to buy oat milk", inp) == "buy milk to buy oat milk"


def test_a_rename_needs_change_and_one_to() -> None:
    inp = pin("m")
    assert renamed_instead("change the reminder x to y", "x to y", inp) is not None
    assert renamed_instead("move the reminder x to y", "x to y", inp) is None
    assert renamed_instead("change the reminder talk to mom to y", "talk to mom to y", inp) is None
    assert renamed_instead("change the reminder x to tomorrow", "x to tomorrow", inp) is None


@pytest.mark.parametrize("verb", ["change", "move", "update", "reschedule"])
@pytest.mark.parametrize("named", ["the reminder buy milk", "the buy milk reminder", "my buy milk reminder"])
@pytest.mark.parametrize(
    ("spoken", "time"), [("nine", "09:00"), ("nine thirty", "09:30"), ("ten fifteen", "10:15")]
)
def test_a_named_reminder_moved_to_a_time_in_words(verb: str, named: str, spoken: str, time: str) -> None:
    # "change the reminder buy milk to nine" asked "What time do you mean?"
    message = f"{verb} {named} to {spoken}"
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert step.constraints == {"target": "buy milk"} and (step.changes or {}).get("time") == time, message


@pytest.mark.parametrize("verb", ["change", "update"])
@pytest.mark.parametrize("named", ["the reminder buy milk", "the buy milk reminder"])
def test_change_a_named_reminder_to_words_that_are_no_time_renames_it(verb: str, named: str) -> None:
    # It asked "What time do you mean?"
    (step,) = RulePlanner().plan(pin(f"{verb} {named} to buy oat milk")).output.plan
    assert (step.constraints, step.changes) == ({"target": "buy milk"}, {"title": "buy oat milk"})


@pytest.mark.parametrize(
    "message",
    [
        "change the reminder talk to mom to talk to dad",  # where the old title ends is not said
        "move the reminder buy milk to buy oat milk",  # "move" asks for a time
    ],
)
def test_a_new_title_that_cannot_be_told_apart_is_not_guessed(message: str) -> None:
    output = RulePlanner().plan(pin(message)).output
    assert "time_unclear" in output.missing_fields and not (output.plan[0].changes or {}), message
