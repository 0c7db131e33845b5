"""The line of a notes step: saved, updated, found or not found."""

from __future__ import annotations

from memo.reply.note_lines import note_line
from tests.unit.reply.factories import ok


def test_notes_found_and_not_found() -> None:
    found = ok("s1", "notes", "search", data={"query": "wifi", "notes": [{"text": "wifi: hunter2"}]}).result
    assert note_line(found, "en") == "Found 1 note for “wifi”:\n• wifi: hunter2"
    assert note_line(found, "he") == "מצאתי פתק אחד עבור „wifi”:\n• wifi: hunter2"
    none = ok("s1", "notes", "search", data={"query": "wifi", "notes": []}).result
    assert note_line(none, "en") == "I found no notes matching “wifi”."


def test_a_saved_note_is_quoted() -> None:
    saved = ok("s1", "notes", "save", data={"text": "wifi: hunter2"}).result
    assert note_line(saved, "en") == "📝 Saved your note “wifi: hunter2”."
    assert note_line(ok("s1", "notes", "save").result, "en") is None
