"""The lines of a delete: how many were deleted, and what it left alone."""

from __future__ import annotations

from memo.reply.deletion_lines import changed_since_line, deleted_line, left_alone_line

REMINDERS = ("reminder", "reminders", "תזכורת אחת", "תזכורות")
NOTES = ("note", "notes", "פתק אחד", "פתקים")


def test_deleted_counts() -> None:
    assert deleted_line({"deleted": 3}, "en", REMINDERS, "התזכורת") == "Deleted 3 reminders."
    assert deleted_line({"deleted": 3}, "he", REMINDERS, "התזכורת") == "מחקתי 3 תזכורות."
    one = {"deleted": 1, "text": "old wifi"}
    assert deleted_line(one, "en", NOTES, "הפתק") == "Deleted the note “old wifi”."
    assert deleted_line({"deleted": 0}, "en", REMINDERS, "התזכורת") == "There were no reminders to delete."
    assert deleted_line({}, "en", REMINDERS, "התזכורת") is None


def test_what_a_partial_delete_left_alone() -> None:
    data = {"changed": [{"title": "gym"}], "gone": 2}
    assert left_alone_line(data, "en", "UTC", REMINDERS) == (
        "I didn't delete “gym”: it was changed after you approved. 2 reminders were already gone."
    )
    assert left_alone_line({"gone": 1}, "he", "UTC", REMINDERS) == "תזכורת אחת כבר נמחקה קודם."
    assert left_alone_line({}, "en", "UTC", REMINDERS) is None


def test_a_changed_item_is_named_with_its_new_time() -> None:
    data = {"changed": [{"title": "gym", "when": "2025-06-05T07:00:00+00:00"}]}
    assert changed_since_line(data, "en", "Asia/Jerusalem") == (
        "I didn't delete “gym”: it was changed after you approved (now for Thu 5 Jun, 10:00)."
    )
    assert changed_since_line({}, "en", "UTC") is None


def test_a_delete_of_several_names_what_it_deleted_with_its_count() -> None:
    two = {"count": 2, "titles": ["call mom", "pay rent"]}
    assert deleted_line(two, "en", REMINDERS, "התזכורת") == "Deleted 2 reminders: “call mom”, “pay rent”."
    assert deleted_line(two, "he", REMINDERS, "התזכורת") == "מחקתי 2 תזכורות: „call mom”, „pay rent”."
    # Kept to one by an answer: still said as a count, then named.
    one = {"count": 1, "titles": ["pay rent"]}
    assert deleted_line(one, "en", REMINDERS, "התזכורת") == "Deleted 1 reminder: “pay rent”."
    assert deleted_line(one, "he", REMINDERS, "התזכורת") == "מחקתי תזכורת אחת: „pay rent”."
    # Titles that do not match the count are not shown.
    assert deleted_line({"count": 3, "titles": ["a"]}, "en", REMINDERS, "התזכורת") == "Deleted 3 reminders."


def test_a_skip_left_alone_says_skip() -> None:
    data = {"changed": [{"title": "gym", "when": "2025-06-05T07:00:00+00:00"}], "skip": True}
    assert changed_since_line(data, "en", "Asia/Jerusalem") == (
        "I didn't skip “gym”: it was changed after you approved (now for Thu 5 Jun, 10:00)."
    )
    assert changed_since_line(data, "he", "Asia/Jerusalem") == (
        "על „gym” לא דילגתי: הפרטים השתנו אחרי שאישרת (עכשיו ליום ה׳ 5.6 בשעה 10:00)."
    )
