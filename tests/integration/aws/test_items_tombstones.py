"""Deletes and undo on the items table (`memo.aws.items_tombstones`) on moto's DynamoDB: a tombstone
hides the item until its undo restores it, once; a retry of the same step counts it again; an item
changed since the question was asked is left alone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import ListItem, Reminder, Tombstone
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"
UNDO = Tombstone(key="wamid.1", until=TEST_NOW + timedelta(minutes=10), operation="wamid.1:s1")


def _repo(items_db: Any) -> DynamoItemsRepository:
    repo = DynamoItemsRepository(items_db, TABLE)
    due = TEST_NOW + timedelta(days=1)
    repo.put_reminder(
        Reminder(reminder_id="r1", thread_id=THREAD, title="gym", due_at=due, created_at=TEST_NOW)
    )
    return repo


def test_a_tombstone_hides_the_item_until_its_undo_restores_it_once(items_db: Any) -> None:
    repo = _repo(items_db)
    removed = repo.remove_reminder(THREAD, "r1", undo=UNDO)
    assert removed.status == "deleted" and removed.item is not None and removed.item.status == "scheduled"
    assert repo.get_reminder(THREAD, "r1") is None and repo.list_reminders(THREAD) == []
    assert repo.remove_reminder(THREAD, "r1", undo=UNDO).status == "deleted"  # the same step's retry
    assert (
        repo.remove_reminder(THREAD, "r1", undo=UNDO.model_copy(update={"operation": "x"})).status == "gone"
    )
    (restored,) = repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored
    assert isinstance(restored, Reminder) and restored.status == "scheduled"
    assert repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored == []


def test_no_undo_after_its_window(items_db: Any) -> None:
    repo = _repo(items_db)
    repo.delete_reminder(THREAD, "r1", undo=UNDO)
    assert repo.restore(THREAD, "wamid.1", now=UNDO.until + timedelta(seconds=1)).restored == []


def test_an_item_changed_since_the_question_is_left_alone(items_db: Any) -> None:
    repo = _repo(items_db)
    repo.update_reminder(THREAD, "r1", title="swim", changed_at=TEST_NOW + timedelta(minutes=1))
    changed = repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=TEST_NOW)
    assert changed.status == "changed" and changed.item is not None and changed.item.title == "swim"
    assert repo.get_reminder(THREAD, "r1") is not None


def test_a_plain_delete_returns_what_it_deleted_once(items_db: Any) -> None:
    repo = _repo(items_db)
    deleted = repo.delete_reminder(THREAD, "r1")
    assert deleted is not None and deleted.title == "gym"
    assert repo.delete_reminder(THREAD, "r1") is None


def test_an_undo_leaves_what_is_there_again_and_restores_what_is_missing(items_db: Any) -> None:
    """One query reads the undo's tombstones and the live items: an equivalent item there again (a
    reminder of the same title at the same time, the same text on the same list) stays deleted."""
    repo = _repo(items_db)
    due = TEST_NOW + timedelta(days=1)
    repo.add_list_item(
        ListItem(item_id="i1", thread_id=THREAD, list_name="shopping", text="milk", created_at=TEST_NOW)
    )
    repo.add_list_item(
        ListItem(item_id="i2", thread_id=THREAD, list_name="shopping", text="eggs", created_at=TEST_NOW)
    )
    repo.remove_reminder(THREAD, "r1", undo=UNDO)
    repo.clear_list(THREAD, "shopping", undo=UNDO)
    repo.put_reminder(
        Reminder(reminder_id="r2", thread_id=THREAD, title="Gym", due_at=due, created_at=TEST_NOW)
    )
    repo.add_list_item(
        ListItem(item_id="i3", thread_id=THREAD, list_name="Shopping", text="Milk", created_at=TEST_NOW)
    )

    found = repo.restore(THREAD, "wamid.1", now=TEST_NOW)

    assert [i.text for i in found.restored if isinstance(i, ListItem)] == ["eggs"]
    assert sorted(type(i).__name__ for i in found.present) == ["ListItem", "Reminder"]
    assert [r.reminder_id for r in repo.list_reminders(THREAD)] == ["r2"]
    assert sorted(i.text for i in repo.list_items(THREAD, "shopping")) == ["Milk", "eggs"]
    # What was left stays tombstoned: once its equivalent is gone too, the undo brings it back.
    repo.delete_reminder(THREAD, "r2")
    (back,) = repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored
    assert isinstance(back, Reminder) and back.reminder_id == "r1"
