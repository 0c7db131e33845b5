"""What a plan step would do, in words, in both languages."""

from __future__ import annotations

from memo.hitl import templates
from tests.unit.hitl.conftest import TZ, plan, step


def test_step_descriptions() -> None:
    create = step(constraints={"title": "call mom", "when": "2024-05-02T17:00:00+03:00"})
    assert templates.describe_step(create, "en", TZ) == "set a reminder “call mom” for Thu 2 May, 17:00"
    assert templates.describe_step(create, "he", TZ) == "לקבוע תזכורת „call mom” ליום ה׳ 2.5 בשעה 17:00"
    items = step(
        capability="lists",
        action="add",
        constraints={"listName": "shopping"},
        changes={"items": ["milk", "eggs"]},
    )
    assert templates.describe_step(items, "en", TZ) == "add milk, eggs to your shopping list"
    move = step(action="update", constraints={"target": "gym"}, changes={"when": "2024-05-03T08:00:00+03:00"})
    assert templates.describe_step(move, "en", TZ) == "update the reminder “gym”: move it to Fri 3 May, 08:00"


def test_would_do_is_truthful() -> None:
    output = plan(step(action="delete_all"))
    assert templates.would_do(output, "en", TZ) == (
        "I would delete all your reminders — but execution isn't connected yet, so nothing was changed."
    )
    assert "לא שיניתי כלום" in templates.would_do(output, "he", TZ)


def test_a_repeating_reminder_says_how_it_repeats() -> None:
    create = step(
        constraints={
            "title": "gym",
            "when": "2024-05-06T08:00:00+03:00",
            "recurrence": "FREQ=WEEKLY;BYDAY=MO",
        }
    )
    assert templates.describe_step(create, "en", TZ) == "set a reminder “gym” every Monday at 08:00"


def test_a_shift_is_said_in_hours_or_days() -> None:
    later = step(action="update", constraints={"target": "gym"}, changes={"shiftMinutes": 120})
    assert templates.describe_step(later, "en", TZ) == "update the reminder “gym”: move it 2 hours later"
    assert templates.describe_step(later, "he", TZ) == "לעדכן את התזכורת „gym”: לדחות אותה ב2 שעות"
    earlier = step(action="update", constraints={"target": "gym"}, changes={"shiftMinutes": -1440})
    assert templates.describe_step(earlier, "en", TZ) == "update the reminder “gym”: move it 1 day earlier"


def test_notes_calendar_and_unknown_actions() -> None:
    search = step(capability="notes", action="search", constraints={"query": "wifi"})
    assert templates.describe_step(search, "en", TZ) == "search your notes for “wifi”"
    assert (
        templates.describe_step(step(capability="calendar", action="create"), "he", TZ) == "להשתמש ביומן שלך"
    )
    assert templates.describe_step(step(action="snooze"), "en", TZ) == "reminders: snooze"


def test_a_plan_of_several_steps_is_one_sentence() -> None:
    output = plan(step(action="list"), step(capability="notes", action="delete_all", step_id="s2"))
    assert templates.describe_plan(output, "en", TZ) == "show your reminders, then delete all your notes"
