"""What a plan step would do, in words, in both languages."""

from __future__ import annotations

import pytest

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


def test_a_skip_is_said_as_a_skip_never_as_a_delete() -> None:
    week = step(
        action="delete",
        constraints={
            "target": "gym",
            "scope": "occurrence",
            "within": {"from": "2024-05-05", "until": "2024-05-12"},
        },
    )
    assert templates.describe_step(week, "en", TZ) == "skip “gym” from Sun 5 May to Sat 11 May"
    assert templates.describe_step(week, "he", TZ) == "לדלג על „gym” מיום א׳ 5.5 עד שבת 11.5"
    day = step(
        action="delete",
        constraints={
            "target": "gym",
            "scope": "occurrence",
            "within": {"from": "2024-05-02", "until": "2024-05-03"},
        },
    )
    assert templates.describe_step(day, "en", TZ) == "skip “gym” on Thu 2 May"
    assert templates.describe_step(day, "he", TZ) == "לדלג על „gym” ביום ה׳ 2.5"
    next_time = step(action="delete", constraints={"target": "gym", "scope": "occurrence"})
    assert templates.describe_step(next_time, "en", TZ) == "skip the next time of “gym”"
    broken = step(
        action="delete", constraints={"target": "gym", "scope": "occurrence", "within": {"from": "x"}}
    )
    assert "delete" not in templates.describe_step(broken, "en", TZ)


def test_new_days_for_a_series_are_said() -> None:
    days = step(
        action="update", constraints={"target": "gym"}, changes={"recurrence": "FREQ=WEEKLY;BYDAY=MO,TH"}
    )
    assert (
        templates.describe_step(days, "en", TZ)
        == "update the reminder “gym”: move it to every Monday and Thursday"
    )
    assert templates.describe_step(days, "he", TZ) == "לעדכן את התזכורת „gym”: להזיז אותה לכל יום שני וחמישי"
    daily = step(action="update", constraints={"target": "pills"}, changes={"recurrence": "FREQ=DAILY"})
    assert templates.describe_step(daily, "en", TZ) == "update the reminder “pills”: move it to every day"
    yearly = step(action="update", constraints={"target": "pills"}, changes={"recurrence": "FREQ=YEARLY"})
    assert templates.describe_step(yearly, "en", TZ) == "update the reminder “pills”"


def test_a_reminder_said_as_it_has_no_empty_quotes() -> None:
    snooze = step(action="update", constraints={}, changes={"shiftMinutes": 10})
    assert templates.describe_step(snooze, "en", TZ) == "update the reminder: move it 10 minutes later"
    assert templates.describe_step(snooze, "he", TZ) == "לעדכן את התזכורת: לדחות אותה ב10 דקות"


def test_a_list_item_change_names_both_words_and_the_list() -> None:
    change = step(
        capability="lists",
        action="update",
        constraints={"listName": "shopping", "target": "eggs"},
        changes={"text": "12 eggs"},
    )
    assert templates.describe_step(change, "en", TZ) == "change “eggs” to “12 eggs” on your shopping list"
    unnamed = change.model_copy(update={"constraints": {"listName": "default", "target": "eggs"}})
    assert templates.describe_step(unnamed, "en", TZ) == "change “eggs” to “12 eggs” on your list"
    hebrew = step(
        capability="lists",
        action="update",
        constraints={"listName": "קניות", "target": "ביצים"},
        changes={"text": "12 ביצים"},
    )
    assert templates.describe_step(hebrew, "he", TZ) == "לשנות את „ביצים” ל„12 ביצים” ברשימת הקניות"


def test_a_limited_delete_all_is_said_with_its_limit() -> None:
    # The set-aside line said "delete all your reminders" of a request for tomorrow's alone.
    only = step(action="delete_all", constraints={"only": "tomorrow's"})
    assert templates.describe_step(only, "en", TZ) == "delete your reminders for tomorrow"
    assert templates.describe_step(
        step(action="delete_all", constraints={"only": "for friday"}), "en", TZ
    ) == ("delete your reminders for friday")
    assert templates.describe_step(step(action="delete_all", constraints={"only": "של מחר"}), "he", TZ) == (
        "למחוק את התזכורות שלך של מחר"
    )
    keep = step(action="delete_all", constraints={"keep": "call mom"})
    assert templates.describe_step(keep, "en", TZ) == "delete all your reminders except “call mom”"
    assert templates.describe_step(step(action="delete_all"), "en", TZ) == "delete all your reminders"


def test_an_add_whose_items_were_asked_says_items() -> None:
    # It was "add  to your packing list".
    asked = step(capability="lists", action="add", constraints={"listName": "packing"})
    assert templates.describe_step(asked, "en", TZ) == "add items to your packing list"
    assert templates.describe_step(asked, "he", TZ).startswith("להוסיף פריטים לרשימת")


@pytest.mark.parametrize(
    ("only", "said"),
    [
        ("for tomorrow's", "tomorrow"),
        ("tomorrow's", "tomorrow"),
        ("on friday", "friday"),
        ("Friday", "Friday"),
        ("ביום שישי", "יום שישי"),
        ("למחר", "מחר"),
        ("של מחר", "מחר"),
        ("בדיקה", "בדיקה"),  # a word of its own keeps its first letter
        ("לימוד", "לימוד"),
        ("forest", "forest"),
    ],
)
def test_the_day_a_request_was_limited_to_is_said_without_its_preposition(only: str, said: str) -> None:
    assert templates.day_said(only) == said


@pytest.mark.parametrize(
    ("constraints", "en", "he"),
    [
        (
            {
                "targetRef": "latest_action",
                "scope": "occurrence",
                "within": {"from": "2024-05-02", "until": "2024-05-03"},
            },
            "skip the reminder on Thu 2 May",
            "לדלג על התזכורת ביום ה׳ 2.5",
        ),
        (
            {"targetRef": "latest_action", "scope": "occurrence"},
            "skip the next time of the reminder",
            "לדלג על הפעם הבאה של התזכורת",
        ),
        ({"targetRef": "latest_action"}, "delete the reminder", "למחוק את התזכורת"),
        ({"target": "gym"}, "delete the reminder “gym”", "למחוק את התזכורת „gym”"),
    ],
)
def test_a_reminder_named_by_it_is_said_with_no_empty_quotes(constraints: dict, en: str, he: str) -> None:
    # "skip tomorrow" set aside was said back as "skip “” on Tue 24 Nov".
    said = step(action="delete", constraints=constraints)
    assert templates.describe_step(said, "en", TZ) == en
    assert templates.describe_step(said, "he", TZ) == he


@pytest.mark.parametrize(
    ("action", "en", "he"),
    [
        ("remove", "remove cucumbers from your list", "להוריד cucumbers מהרשימה"),
        ("add", "add cucumbers to your list", "להוסיף cucumbers לרשימה"),
    ],
)
def test_a_list_not_named_is_never_called_default(action: str, en: str, he: str) -> None:
    # "remove cucumbers and add lettuce" was confirmed as "remove cucumbers from your default list".
    said = step(
        capability="lists",
        action=action,
        constraints={"listName": "default"},
        changes={"items": ["cucumbers"]},
    )
    assert templates.describe_step(said, "en", TZ) == en
    assert templates.describe_step(said, "he", TZ) == he
