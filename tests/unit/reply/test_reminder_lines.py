"""The line of a reminders step: set, updated, listed and deleted, times in the user's timezone."""

from __future__ import annotations

from datetime import UTC, datetime

from memo.reply.reminder_lines import reminder_line
from tests.unit.reply.factories import ok


def test_reminders_listed_with_local_times() -> None:
    result = ok(
        "s1",
        "reminders",
        "list",
        data={
            "reminders": [
                {"title": "pay rent", "due_at": "2025-06-05T06:30:00+00:00"},
                {"title": "gym", "dueAt": datetime(2025, 6, 7, 15, 0, tzinfo=UTC).isoformat()},
            ]
        },
    ).result
    assert reminder_line(result, "en", "Asia/Jerusalem") == (
        "Your reminders:\n• “pay rent” — Thu 5 Jun, 09:30\n• “gym” — Sat 7 Jun, 18:00"
    )
    assert reminder_line(result, "he", "Asia/Jerusalem") == (
        "התזכורות שלך:\n• „pay rent” — יום ה׳ 5.6 בשעה 09:30\n• „gym” — שבת 7.6 בשעה 18:00"
    )
    empty = ok("s1", "reminders", "list", data={"reminders": []}).result
    assert reminder_line(empty, "en", "UTC") == "You have no upcoming reminders."


def test_capability_shapes_reminder_update_and_delete() -> None:
    brief = {"id": "r1", "title": "dentist", "when": "2025-06-05T07:00:00+00:00"}
    update = ok(
        "s1",
        "reminders",
        "update",
        data={"reminders": [{**brief, "previousTitle": "dentist"}], "missing": 0},
        when=datetime(2025, 6, 5, 7, 0, tzinfo=UTC),
    ).result
    assert reminder_line(update, "en", "Asia/Jerusalem") == (
        "Updated the reminder “dentist” — now for Thu 5 Jun, 10:00."
    )
    delete = ok("s1", "reminders", "delete", data={"deleted": [brief], "missing": 0}).result
    assert reminder_line(delete, "en", "UTC") == "Deleted the reminder “dentist”."
    assert reminder_line(delete, "he", "UTC") == "מחקתי את התזכורת „dentist”."
    two = ok("s1", "reminders", "delete", data={"deleted": [brief, {**brief, "title": "gym"}]}).result
    assert reminder_line(two, "en", "UTC") == "Deleted 2 reminders: “dentist”, “gym”."
    everything = ok("s1", "reminders", "delete_all", data={"count": 4}).result
    assert reminder_line(everything, "en", "UTC") == "Deleted 4 reminders."


def test_a_repeating_reminder_says_how_it_repeats_and_its_first_time() -> None:
    data = {"title": "gym", "repeats": "every Monday at 08:00"}
    result = ok("s1", "reminders", "create", data=data, when=datetime(2025, 6, 9, 5, 0, tzinfo=UTC)).result
    assert reminder_line(result, "en", "Asia/Jerusalem") == (
        "🔁 Reminder set: “gym” every Monday at 08:00 (first: Mon 9 Jun, 08:00)."
    )


def test_how_many_reminders_puts_the_number_first() -> None:
    data = {"reminders": [{"title": "gym"}, {"title": "rent"}], "howMany": True}
    result = ok("s1", "reminders", "list", data=data).result
    assert reminder_line(result, "en", "UTC") == "You have 2 reminders:\n• “gym”\n• “rent”"


def test_the_next_reminder_is_said_as_the_next() -> None:
    one = ok("s1", "reminders", "list", data={"reminders": [{"title": "gym"}], "first": 1}).result
    assert reminder_line(one, "en", "UTC") == "Your next reminder: “gym”"
    assert reminder_line(one, "he", "UTC") == "התזכורת הבאה שלך: „gym”"
    two = ok(
        "s1", "reminders", "list", data={"reminders": [{"title": "gym"}, {"title": "rent"}], "first": 2}
    ).result
    assert reminder_line(two, "en", "UTC") == "Your next reminders:\n• “gym”\n• “rent”"
    none = ok("s1", "reminders", "list", data={"reminders": [], "first": 1}).result
    assert reminder_line(none, "en", "UTC") == "You have no upcoming reminders."


def test_no_reminder_about_it_shows_the_notes_that_say_it() -> None:
    data = {"reminders": [], "about": "flight", "notes": ["flight on friday", "flight to rome"]}
    found = ok("s1", "reminders", "list", data=data).result
    assert reminder_line(found, "en", "UTC") == (
        "You have no reminder about “flight”, but a note of yours says:\n• flight on friday\n• flight to rome"
    )
    assert reminder_line(found, "he", "UTC").startswith("אין לך תזכורת על „flight”, אבל יש פתק:")
    none = ok("s1", "reminders", "list", data={**data, "notes": []}).result
    assert reminder_line(none, "en", "UTC") == "You have no reminder about “flight”."
