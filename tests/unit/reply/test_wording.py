"""What the user reads after a turn: complete, partial and total failure, in English and Hebrew."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memo.reply.format import format_failure, format_joined, format_success
from memo.reply.join import join
from memo.reply.writer import write
from tests.unit.reply.factories import failed, ok, reminder_created


def reply_text(*outcomes, language="en", timezone="Asia/Jerusalem") -> str:
    return write(format_joined(join(outcomes), language, timezone)).text


def test_complete_single_reminder_in_the_users_timezone() -> None:
    # 14:00 UTC on Wed 4 Jun is 17:00 in Jerusalem (UTC+3 in summer).
    assert reply_text(reminder_created()) == "⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00."
    assert (
        reply_text(reminder_created(), language="he") == "⏰ קבעתי תזכורת „call mom” ליום ד׳ 4.6 בשעה 17:00."
    )


def test_complete_two_steps_are_each_marked_done() -> None:
    text = reply_text(
        reminder_created(),
        ok("s2", "lists", "add", data={"list_name": "shopping", "items": ["milk", "eggs"]}),
    )
    assert text == (
        "✅ ⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00.\n✅ Added milk, eggs to your shopping list."
    )


def test_partial_failure_says_what_worked_and_what_did_not() -> None:
    outcomes = (
        reminder_created(),
        failed("s2", "reminders", "delete", "NOT_FOUND", data={"target": "dentist"}),
    )
    assert reply_text(*outcomes) == (
        "I did part of it:\n"
        "✅ ⏰ Reminder set: “call mom” for Wed 4 Jun, 17:00.\n"
        "❌ I couldn't find a reminder matching “dentist”, so I couldn't delete the reminder."
    )
    assert reply_text(*outcomes, language="he") == (
        "עשיתי רק חלק:\n"
        "✅ ⏰ קבעתי תזכורת „call mom” ליום ד׳ 4.6 בשעה 17:00.\n"
        "❌ לא מצאתי תזכורת שמתאימה ל„dentist”, אז לא יכולתי למחוק את התזכורת."
    )


def test_total_failure_of_several_steps_claims_no_success() -> None:
    outcomes = (
        failed("s1", "notes", "save", "STEP_FAILED"),
        failed("s2", "lists", "show", "NOT_FOUND", data={"target": "groceries"}),
    )
    text = reply_text(*outcomes)
    assert text.startswith("I couldn't do any of it:\n❌ ")
    assert "Something went wrong when I tried to save the note, and I can't confirm it went through." in text
    assert "✅" not in text
    he = reply_text(*outcomes, language="he")
    assert he.startswith("לא הצלחתי לבצע אף אחד מהם:\n❌ ")
    assert "משהו השתבש כשניסיתי לשמור את הפתק, ואין לי אישור שזה הצליח." in he


def test_single_failure_is_its_own_line_without_a_header() -> None:
    text = reply_text(failed("s1", "notes", "delete", "NOT_FOUND", data={"query": "wifi"}))
    assert text == "I couldn't find a note matching “wifi”, so I couldn't delete the note."


def test_missing_result_never_claims_the_step_happened_or_did_not() -> None:
    result = failed("s1", "reminders", "delete", "IDEMPOTENCY_MISSING_RESULT").result
    en = format_failure(result, "en")
    assert en == (
        "I may already have tried to delete the reminder earlier, but I can't confirm whether it went "
        "through — please check before asking again."
    )
    for claim in ("Deleted", "deleted the", "didn't", "nothing was"):
        assert claim not in en
    assert "אין לי אישור אם זה הצליח" in format_failure(result, "he")


@pytest.mark.parametrize(
    ("code", "en", "he"),
    [
        (
            "APPROVAL_EXPIRED",
            "I didn't delete the reminder: your approval expired before I got to it. "
            "Ask again if you still want it.",
            "לא ביצעתי את הבקשה למחוק את התזכורת: האישור שלך פג לפני שהספקתי. אפשר לבקש שוב.",
        ),
        (
            "APPROVAL_ARGS_CHANGED",
            "I didn't delete the reminder: the details changed after you approved, "
            "so it needs your approval again.",
            "לא ביצעתי את הבקשה למחוק את התזכורת: הפרטים השתנו אחרי שאישרת, אז צריך לאשר שוב.",
        ),
        (
            "APPROVAL_MISSING",
            "I didn't delete the reminder: it needs your approval first.",
            "לא ביצעתי את הבקשה למחוק את התזכורת: זה צריך את האישור שלך קודם.",
        ),
    ],
)
def test_refused_approvals_say_the_step_was_not_done(code: str, en: str, he: str) -> None:
    result = failed("s1", "reminders", "delete", code).result
    assert format_failure(result, "en") == en
    assert format_failure(result, "he") == he


def test_calendar_is_refused_with_connect_your_account() -> None:
    result = failed("s1", "calendar", "create", "CAPABILITY_UNAVAILABLE").result
    assert format_failure(result, "en") == "I can't use your calendar yet — connect your account first."


def test_empty_plan_says_nothing_was_done() -> None:
    assert reply_text() == "I didn't do anything — there was nothing to run."
    assert reply_text(language="he") == "לא עשיתי כלום — לא היה מה לבצע."


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
    assert format_success(result, "en", "Asia/Jerusalem") == (
        "Your reminders:\n• “pay rent” — Thu 5 Jun, 09:30\n• “gym” — Sat 7 Jun, 18:00"
    )
    assert format_success(result, "he", "Asia/Jerusalem") == (
        "התזכורות שלך:\n• „pay rent” — יום ה׳ 5.6 בשעה 09:30\n• „gym” — שבת 7.6 בשעה 18:00"
    )
    empty = ok("s1", "reminders", "list", data={"reminders": []}).result
    assert format_success(empty, "en", "UTC") == "You have no upcoming reminders."


def test_notes_found_and_not_found() -> None:
    found = ok("s1", "notes", "search", data={"query": "wifi", "notes": [{"text": "wifi: hunter2"}]}).result
    assert format_success(found, "en", "UTC") == "Found 1 note for “wifi”:\n• wifi: hunter2"
    assert format_success(found, "he", "UTC") == "מצאתי פתק אחד עבור „wifi”:\n• wifi: hunter2"
    none = ok("s1", "notes", "search", data={"query": "wifi", "notes": []}).result
    assert format_success(none, "en", "UTC") == "I found no notes matching “wifi”."


def test_list_contents_and_empty_list() -> None:
    show = ok("s1", "lists", "show", data={"listName": "shopping", "items": [{"text": "milk"}, "bread"]})
    assert format_success(show.result, "en", "UTC") == "Your shopping list:\n• milk\n• bread"
    assert format_success(show.result, "he", "UTC") == "רשימת shopping:\n• milk\n• bread"
    empty = ok("s1", "lists", "show", data={"list_name": "todo", "items": []}).result
    assert format_success(empty, "en", "UTC") == "Your todo list is empty."


def test_deleted_counts() -> None:
    many = ok("s1", "reminders", "delete_all", data={"deleted": 3}).result
    assert format_success(many, "en", "UTC") == "Deleted 3 reminders."
    assert format_success(many, "he", "UTC") == "מחקתי 3 תזכורות."
    one = ok("s1", "notes", "delete", data={"deleted": 1, "text": "old wifi"}).result
    assert format_success(one, "en", "UTC") == "Deleted the note “old wifi”."
    none = ok("s1", "reminders", "delete_all", data={"deleted": 0}).result
    assert format_success(none, "en", "UTC") == "There were no reminders to delete."


def test_unknown_shapes_fall_back_to_the_summary_not_to_invented_values() -> None:
    result = ok("s1", "reminders", "delete", summary="reminder “dentist”").result
    assert format_success(result, "en", "UTC") == "Done: reminder “dentist”."
    assert format_success(ok("s1", "general", "chat").result, "he", "UTC") == "בוצע."


# --- the shapes memo.capabilities returns -------------------------------------------------------


def test_capability_shapes_reminder_update_and_delete() -> None:
    brief = {"id": "r1", "title": "dentist", "when": "2025-06-05T07:00:00+00:00"}
    update = ok(
        "s1",
        "reminders",
        "update",
        data={"reminders": [{**brief, "previousTitle": "dentist"}], "missing": 0},
        when=datetime(2025, 6, 5, 7, 0, tzinfo=UTC),
    ).result
    assert format_success(update, "en", "Asia/Jerusalem") == (
        "Updated the reminder “dentist” — now for Thu 5 Jun, 10:00."
    )
    delete = ok("s1", "reminders", "delete", data={"deleted": [brief], "missing": 0}).result
    assert format_success(delete, "en", "UTC") == "Deleted the reminder “dentist”."
    assert format_success(delete, "he", "UTC") == "מחקתי את התזכורת „dentist”."
    two = ok("s1", "reminders", "delete", data={"deleted": [brief, {**brief, "title": "gym"}]}).result
    assert format_success(two, "en", "UTC") == "Deleted 2 reminders: “dentist”, “gym”."
    everything = ok("s1", "reminders", "delete_all", data={"count": 4}).result
    assert format_success(everything, "en", "UTC") == "Deleted 4 reminders."


def test_capability_shapes_list_add_and_remove() -> None:
    add = ok(
        "s1",
        "lists",
        "add",
        data={"listName": "shopping", "added": ["milk"], "alreadyThere": ["eggs"], "items": ["eggs", "milk"]},
    ).result
    assert format_success(add, "en", "UTC") == "Added milk to your shopping list. Already there: eggs."
    assert format_success(add, "he", "UTC") == "הוספתי milk לרשימת shopping. כבר ברשימה: eggs."
    remove = ok(
        "s1",
        "lists",
        "remove",
        data={"listName": "shopping", "removed": ["milk"], "notFound": [], "items": []},
    ).result
    assert format_success(remove, "en", "UTC") == "Removed milk from your shopping list."
    cleared = ok("s1", "lists", "clear", data={"listName": "todo", "count": 2}).result
    assert format_success(cleared, "en", "UTC") == "Cleared your todo list (2 items)."
    # The approved items by name (an answer may have kept some on the list); many are counted.
    pinned = ok(
        "s1", "lists", "clear", data={"listName": "todo", "count": 1, "removedItems": ["milk"]}
    ).result
    assert format_success(pinned, "en", "UTC") == "Removed milk from your todo list."
    many = [f"item {n}" for n in range(6)]
    lots = ok("s1", "lists", "clear", data={"listName": "todo", "count": 6, "removedItems": many}).result
    assert format_success(lots, "en", "UTC") == "Removed 6 items from your todo list."


def test_time_in_the_past_is_explained() -> None:
    result = failed("s1", "reminders", "create", "TIME_IN_PAST").result
    assert format_failure(result, "en") == "I couldn't set the reminder: that time has already passed."
    assert format_failure(result, "he") == "לא יכולתי לקבוע את התזכורת: הזמן הזה כבר עבר."
