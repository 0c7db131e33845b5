"""Notes on the items table (`memo.aws.items_notes`) on moto's DynamoDB."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws.items_notes import DynamoNotes
from memo.capabilities.items import Note
from memo.errors import ItemTooLarge
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"


def test_notes_newest_first_and_rewritten_only_as_the_person_saw_them(items_db: Any) -> None:
    notes = DynamoNotes(items_db, TABLE)
    notes.put_note(Note(note_id="n1", thread_id=THREAD, text="milk", created_at=TEST_NOW))
    notes.put_note(
        Note(note_id="n2", thread_id=THREAD, text="eggs", created_at=TEST_NOW + timedelta(seconds=1))
    )
    assert [n.text for n in notes.list_notes(THREAD)] == ["eggs", "milk"]
    assert notes.update_note(THREAD, "n1", text="oat milk", expected="bread", changed_at=TEST_NOW) is None
    updated = notes.update_note(THREAD, "n1", text="oat milk", expected="milk", changed_at=TEST_NOW)
    assert updated is not None and updated.text == "oat milk"
    again = notes.update_note(THREAD, "n1", text="oat milk", expected="milk", changed_at=TEST_NOW)
    assert again is not None  # an earlier attempt of the same step
    deleted = notes.delete_note(THREAD, "n2")
    assert deleted is not None and deleted.text == "eggs"
    assert [n.note_id for n in notes.list_notes(THREAD)] == ["n1"]


def test_a_note_over_the_item_limit_is_refused_before_the_write(items_db: Any) -> None:
    notes = DynamoNotes(items_db, TABLE)
    at_limit = Note(note_id="n1", thread_id=THREAD, text="x" * 399_800, created_at=TEST_NOW)
    assert notes.put_note(at_limit)
    with pytest.raises(ItemTooLarge) as refused:
        notes.put_note(at_limit.model_copy(update={"note_id": "n2", "text": "x" * 400_001}))
    assert refused.value.what == "note"
    assert [n.note_id for n in notes.list_notes(THREAD)] == ["n1"]
