"""Changing a reminder: its title, its time, and which part of a repeating one."""

from __future__ import annotations

from memo.planner.intents import reminder_changes
from tests.unit.planner.conftest import pin


def test_rename_names_the_old_title_and_the_new_one() -> None:
    found = reminder_changes.rename("rename the call mom reminder to call dad", pin("x"))
    assert found is not None and found.action == "update"
    assert found.changes == {"title": "call dad"}


def test_a_time_alone_keeps_the_reminders_day() -> None:
    found = reminder_changes.move("move the call mom reminder to 6pm", pin("x"))
    assert found is not None
    assert found.changes == {"time": "18:00"}
    assert found.pattern == "reminders:update"


def test_moving_a_thing_in_time_without_saying_reminder() -> None:
    found = reminder_changes.move_named("push the dentist by an hour", pin("x"))
    assert found is not None and found.changes == {"shiftMinutes": 60}
    assert reminder_changes.move_named("move it to 6pm", pin("x")) is None  # "it": a follow-up


def test_scope_words() -> None:
    assert reminder_changes.scope_of("just this one") == {"scope": "occurrence"}
    assert reminder_changes.scope_of("את כל הסדרה") == {"scope": "series"}
    assert reminder_changes.scope_of("call mom") == {}
    assert reminder_changes.strip_scope("vitamins just this one") == "vitamins"
