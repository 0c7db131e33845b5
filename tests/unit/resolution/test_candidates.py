"""The user's items as lookup candidates: labels, descriptions and the time a reminder carries."""

from __future__ import annotations

from memo.resolution.candidates import candidate, entities, not_found_text
from memo.resolution.resolvers import TargetQuery
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_list_item, add_note, add_reminder, state_for


def test_reminders_are_described_by_their_time_in_the_users_timezone() -> None:
    repo = FakeItemsRepository()
    reminder = add_reminder(repo, "r-1", "Call mom", hours=3)
    [entity] = entities(TargetQuery(kind="reminder", text="mom"), repo, state_for(), NOW)
    assert (entity.id, entity.label, entity.description) == ("r-1", "Call mom", "Tue 10 Mar, 14:00")
    assert candidate(entity).data == {"at": reminder.due_at.isoformat()}


def test_notes_and_list_items_carry_no_time() -> None:
    repo = FakeItemsRepository()
    add_note(repo, "n-1", "gate code 1234")
    add_list_item(repo, "i-1", "shopping", "milk")
    [note] = entities(TargetQuery(kind="note", text="gate"), repo, state_for(), NOW)
    [item] = entities(
        TargetQuery(kind="list_item", text="milk", list_name="shopping"), repo, state_for(), NOW
    )
    assert candidate(note).data == {} and note.label == "gate code 1234"
    assert (item.id, item.description) == ("i-1", "shopping")


def test_not_found_names_the_words_in_the_users_language() -> None:
    assert not_found_text("note", ["gate"], "en") == "I couldn't find a note matching “gate”."
    assert not_found_text("reminder", ["רופא"], "he").startswith("לא מצאתי תזכורת")
