"""The undo's line (`memo.reply.undo_lines`): deletes brought back, updates put back as they were
(a note's text, a reminder's time in the user's zone), times passed, items left as they are."""

from __future__ import annotations

from typing import Any

from memo.capabilities.base import ExecutionResult
from memo.reply.undo_lines import undo_line

ZONE = "Asia/Jerusalem"


def _undo(**data: Any) -> ExecutionResult:
    return ExecutionResult(success=True, capability="general", action="undo", data=data)


def test_a_note_put_back_is_named_by_its_subject() -> None:
    note = {"kind": "note", "subject": "gate code", "text": "gate code is 1234"}
    assert undo_line(_undo(reverted=[note]), "en", ZONE) == (
        "↩️ Undone: the note “gate code” is back to “gate code is 1234”."
    )
    assert (
        undo_line(_undo(reverted=[note]), "he", ZONE)
        == "↩️ ביטלתי: הפתק „gate code” חזר ל„gate code is 1234”."
    )
    plain = {"kind": "note", "text": "buy milk"}
    assert undo_line(_undo(reverted=[plain]), "en", ZONE) == "↩️ Undone: the note is back to “buy milk”."


def test_a_reminder_put_back_is_named_with_its_time_in_the_users_zone() -> None:
    mom = {"kind": "reminder", "title": "call mom", "when": "2026-11-29T15:00:00+00:00"}
    assert (
        undo_line(_undo(reverted=[mom]), "en", ZONE) == "↩️ Undone: “call mom” is back at Sun 29 Nov, 17:00."
    )
    said = undo_line(_undo(reverted=[mom]), "he", ZONE)
    assert said is not None and said.startswith("↩️ ביטלתי: „call mom” חזרה ל") and "17:00" in said
    series = {**mom, "repeats": "every day at 17:00"}
    assert undo_line(_undo(reverted=[series]), "en", ZONE) == (
        "↩️ Undone: “call mom” is back at Sun 29 Nov, 17:00 (every day at 17:00)."
    )


def test_a_delete_and_an_update_undone_together_and_what_was_left() -> None:
    mom = {"kind": "reminder", "title": "call mom", "when": "2026-11-29T15:00:00+00:00"}
    said = undo_line(
        _undo(restored=["milk"], reverted=[mom], timePassed=["call mom"], changedAgain=["gym"]), "en", ZONE
    )
    assert said == (
        "↩️ Undone: “milk” is back; “call mom” is back at Sun 29 Nov, 17:00."
        " The time of “call mom” passed meanwhile, so no reminder will fire for it."
        " “gym” was changed again since, so I left it as it is."
    )


def test_a_delete_alone_reads_as_before() -> None:
    assert undo_line(_undo(restored=["call mom"]), "en", ZONE) == "↩️ Undone: “call mom” is back."
    assert undo_line(_undo(restored=["חלב"]), "he", ZONE) == "↩️ ביטלתי את המחיקה ושחזרתי את „חלב”."
    assert undo_line(_undo(), "en", ZONE) is None


def test_a_list_items_words_put_back_are_said_with_its_list() -> None:
    # It was "Done: restored “apples”." (the undo's summary: the line named nothing)
    apples = {"kind": "list_item", "text": "apples", "list": "shopping"}
    assert undo_line(_undo(reverted=[apples]), "en", ZONE) == (
        "↩️ Undone: the item on your shopping list is “apples” again."
    )
    eggs = {"kind": "list_item", "text": "ביצים", "list": "קניות"}
    assert undo_line(_undo(reverted=[eggs]), "he", ZONE) == "↩️ ביטלתי: הפריט ברשימת הקניות חזר ל„ביצים”."
    unnamed = {"kind": "list_item", "text": "apples", "list": "default"}
    assert (
        undo_line(_undo(reverted=[unnamed]), "en", ZONE)
        == "↩️ Undone: the item on your list is “apples” again."
    )


def test_items_an_add_put_on_are_said_off_again_by_their_list() -> None:
    off = [
        {"text": "eggs", "list": "shopping"},
        {"text": "bread", "list": "shopping"},
        {"text": "nails", "list": "hardware"},
    ]
    assert undo_line(_undo(takenOff=off), "en", ZONE) == (
        "↩️ Undone: “eggs”, “bread” are off your shopping list again; “nails” is off your hardware list again."
    )
    assert undo_line(_undo(takenOff=off[:1]), "he", ZONE) == "↩️ ביטלתי: „eggs” ירד שוב מרשימת הקניות."
    # A move undone: back on the list it was on, off the one it went to.
    moved = undo_line(
        _undo(restored=["batteries"], takenOff=[{"text": "batteries", "list": "shopping"}]), "en", ZONE
    )
    assert moved == "↩️ Undone: “batteries” is back; “batteries” is off your shopping list again."
    assert undo_line(_undo(takenOff=["not a record"]), "en", ZONE) is None


def test_a_note_saved_then_undone_is_said_deleted() -> None:
    assert undo_line(_undo(deletedAgain=["wifi password"]), "en", ZONE) == (
        "↩️ Undone: the note “wifi password” is deleted."
    )
    assert undo_line(_undo(deletedAgain=["קוד השער"]), "he", ZONE) == "↩️ ביטלתי: הפתק „קוד השער” נמחק."
