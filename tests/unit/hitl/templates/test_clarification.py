"""Questions for a missing or unclear detail, and the yes/no check."""

from __future__ import annotations

import pytest

from memo.domain import RoutingSuggestion
from memo.hitl import templates
from tests.unit.hitl.conftest import TZ, step


def suggest(capability: str, confidence: float) -> RoutingSuggestion:
    return RoutingSuggestion(capability=capability, action="x", confidence=confidence, reason="keyword")


def test_a_missing_title_and_time_are_asked_together() -> None:
    both = ["reminder_time_required", "reminder_title_required"]
    assert templates.missing_fields_question("en", both) == (
        "What should I remind you about, and when? (e.g. “call mom tomorrow at 17:00”)"
    )
    assert templates.missing_fields_question("he", ["note_text_required"]) == "מה לרשום בפתק?"
    assert (
        templates.missing_fields_question("en", ["unknown"]) == "I need one more detail — can you fill it in?"
    )


def test_an_unclear_intent_names_a_suggestion_or_offers_examples() -> None:
    assert templates.intent_unclear_question("en", [suggest("email", 0.5)]) == (
        "I'm not sure I understood — did you want to email? Tell me in other words."
    )
    assert templates.intent_unclear_question("en", [suggest("reminders", 0.4)]).startswith(
        "I'm not sure I understood — what would you like me to do?"
    )


def test_the_time_of_a_known_day_or_of_a_series() -> None:
    assert (
        templates.time_on_day_question("en", ["2024-05-03"], TZ)
        == "What time on Fri 3 May? (e.g. “at 17:00”)"
    )
    assert templates.time_of_series_question("he") == "באיזו שעה, בכל פעם? (למשל „ב-9:00”)"


def test_the_time_of_several_days_names_each_in_order() -> None:
    days = ["2024-05-08", "2024-05-06", "2024-05-10"]
    assert templates.time_on_day_question("en", days, TZ) == (
        "What time on Mon 6 May, Wed 8 May and Fri 10 May? (e.g. “at 17:00”)"
    )
    assert templates.time_on_day_question("he", days[:2], TZ).startswith(
        "באיזו שעה ביום ב׳ 6.5 וביום ד׳ 8.5?"
    )


def test_which_item_to_act_on() -> None:
    stop = step(action="delete", constraints={"scope": "series"})
    assert (
        templates.which_item_question("en", stop)
        == "Which reminder should I stop? A word of its name is enough."
    )
    note = step(capability="notes", action="delete")
    assert templates.which_item_question("he", note) == "איזה פתק למחוק? אפשר לכתוב מילה מהשם."


def test_the_yes_no_check() -> None:
    assert [o.id for o in templates.yes_no_options("he")] == ["yes", "no"]
    assert templates.low_confidence_question("en", "save the note “x”") == (
        "Just to check — you want me to save the note “x”?"
    )


def test_the_day_of_a_month_said_alone_asks_what_was_not_said() -> None:
    assert templates.month_day_question("en", 3, time_known=True, title_known=True) == (
        "Which day of March? (e.g. “the 5th”)"
    )
    assert templates.month_day_question("en", 3, time_known=False, title_known=True) == (
        "Which day of March, and at what time? (e.g. “the 5th at 9:00”)"
    )
    assert templates.month_day_question("he", 3, time_known=True, title_known=False) == (
        "באיזה יום במרץ, ועל מה להזכיר? (למשל „ב-5 לחדש את הביטוח”)"
    )


@pytest.mark.parametrize(
    ("minutes", "english", "hebrew"),
    [
        (60, "1 hour", "שעה"),
        (30, "30 minutes", "30 דקות"),
        (120, "2 hours", "2 שעות"),
        (1440, "1 day", "יום"),
    ],
)
def test_which_way_names_the_amount_and_the_reminder(minutes: int, english: str, hebrew: str) -> None:
    assert templates.shift_direction_question("en", minutes, "call mom") == (
        f"Move “call mom” {english} earlier or {english} later? (e.g. “later”)"
    )
    assert templates.shift_direction_question("en", minutes, None).startswith(f"Move it {english} earlier")
    assert templates.shift_direction_question("he", minutes, "לאמא") == (
        f"להקדים את „לאמא” ב{hebrew} או לדחות ב{hebrew}? (למשל „מאוחר יותר”)"
    )


def test_what_to_take_off_a_list_names_the_list() -> None:
    assert (
        templates.list_items_question("en", "shopping", "remove")
        == "What should I take off your shopping list?"
    )
    assert templates.list_items_question("he", "קניות", "remove") == "מה להוריד מרשימת הקניות?"
    assert templates.list_items_question("en", "default", "remove") == "What should I take off the list?"
    assert templates.list_items_question("he", "default", "remove") == "מה להוריד מהרשימה?"
    assert templates.list_items_question("en", "packing") == "What should I add to your packing list?"
