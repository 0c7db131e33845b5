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


def test_a_note_the_result_cut_says_its_length() -> None:
    saved = ok("s1", "notes", "save", data={"text": "codes: 1234…", "chars": 4_000}).result
    assert note_line(saved, "en") == "📝 Saved your note “codes: 1234…” (4,000 characters)."
    assert note_line(saved, "he") == "📝 שמרתי את הפתק „codes: 1234…” (4,000 תווים)."


def test_a_listing_says_how_many_more_notes_matched() -> None:
    notes = [{"id": f"n{i}", "text": f"note {i}…", "chars": 60_000} for i in range(10)]
    found = ok("s1", "notes", "search", data={"query": "", "notes": notes, "more": 2}).result
    line = note_line(found, "en")
    assert line is not None and line.startswith("Found 10 notes:\n• note 0…")
    assert line.endswith("\n…and 2 more. Tell me a word from the one you're looking for.")
    he = note_line(found, "he")
    assert he is not None and he.endswith("\n…ועוד 2. אפשר לכתוב לי מילה מהפתק שמחפשים.")


def test_one_note_found_and_cut_says_how_much_of_it_is_shown() -> None:
    notes = [{"id": "n1", "text": "a" * 3_500 + "…", "chars": 200_000}]
    found = ok("s1", "notes", "search", data={"query": "", "notes": notes, "more": 0}).result
    line = note_line(found, "en")
    assert line is not None and line.endswith("\n(the first 3,500 of its 200,000 characters)")
    he = note_line(found, "he")
    assert he is not None and he.endswith("\n(מוצגים 3,500 התווים הראשונים מתוך 200,000)")
