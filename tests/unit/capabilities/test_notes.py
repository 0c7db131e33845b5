"""Notes: the configured length limit (refused before anything is saved) and results that carry a
note's first characters, never a whole long note."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memo.capabilities.base import ExecutionContext
from memo.capabilities.items import Note
from memo.capabilities.notes import (
    LISTED_CHARS,
    NOTE_TOO_LONG,
    SEARCH_LIMIT,
    SHOWN_CHARS,
    NoteOperations,
    SaveNoteArgs,
    SearchNotesArgs,
    UpdateNoteArgs,
)
from tests.unit.capabilities.fakes import FakeItemsRepository

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
LIMIT = 100


def ctx(step_id: str = "s1", language: Any = "en") -> ExecutionContext:
    return ExecutionContext(thread_id=THREAD, trace_id="wamid.1", step_id=step_id, language=language, now=NOW)


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


@pytest.fixture
def notes(repo: FakeItemsRepository) -> NoteOperations:
    return NoteOperations(repo, lambda: NOW, max_chars=LIMIT)


def test_a_note_at_the_limit_is_saved_and_one_character_more_is_refused(
    notes: NoteOperations, repo: FakeItemsRepository
) -> None:
    assert notes.save(SaveNoteArgs(text="a" * LIMIT), ctx("s1")).success
    refused = notes.save(SaveNoteArgs(text="b" * (LIMIT + 1)), ctx("s2", "he"))
    assert not refused.success and refused.error_code == NOTE_TOO_LONG
    assert refused.error is not None and "101 תווים" in refused.error and "עד 100 תווים" in refused.error
    assert [n.text for n in repo.list_notes(THREAD)] == ["a" * LIMIT]


def test_an_update_past_the_limit_is_refused_and_the_note_stays(
    notes: NoteOperations, repo: FakeItemsRepository
) -> None:
    note_id = notes.save(SaveNoteArgs(text="gate code: 1234"), ctx()).external_ids["noteId"]
    assert isinstance(note_id, str)
    refused = notes.update(UpdateNoteArgs(note_ids=[note_id], text="x" * (LIMIT + 1), whole=True), ctx("s2"))
    assert refused.error_code == NOTE_TOO_LONG and refused.error is not None
    assert refused.error.startswith(
        "That note is 101 characters long, and I keep notes of up to 100 characters"
    )
    assert [n.text for n in repo.list_notes(THREAD)] == ["gate code: 1234"]


def _long_notes(repo: FakeItemsRepository, count: int, chars: int) -> None:
    for n in range(count):
        text = (f"note {n} " + "word " * chars)[:chars]
        repo.put_note(
            Note(note_id=f"n{n}", thread_id=THREAD, text=text, created_at=NOW - timedelta(minutes=n))
        )


def test_a_listing_carries_ids_first_characters_and_how_many_more(repo: FakeItemsRepository) -> None:
    _long_notes(repo, SEARCH_LIMIT + 2, 60_000)
    found = NoteOperations(repo, lambda: NOW).search(SearchNotesArgs(query=""), ctx())
    listed = found.data["notes"]
    assert [n["id"] for n in listed] == [f"n{n}" for n in range(SEARCH_LIMIT)]
    assert all(len(n["text"]) == LISTED_CHARS + 1 and n["chars"] == 60_000 for n in listed)
    assert found.data["more"] == 2 and found.data["total"] == SEARCH_LIMIT + 2


def test_a_note_found_alone_is_carried_as_far_as_one_message_holds(repo: FakeItemsRepository) -> None:
    _long_notes(repo, 1, 200_000)
    (note,) = NoteOperations(repo, lambda: NOW).search(SearchNotesArgs(query=""), ctx()).data["notes"]
    assert len(note["text"]) == SHOWN_CHARS + 1 and note["text"].endswith("…") and note["chars"] == 200_000


def test_a_short_note_is_carried_whole(repo: FakeItemsRepository) -> None:
    _long_notes(repo, 2, 30)
    listed = NoteOperations(repo, lambda: NOW).search(SearchNotesArgs(query=""), ctx()).data["notes"]
    assert all("chars" not in n and len(n["text"]) == 30 for n in listed)
