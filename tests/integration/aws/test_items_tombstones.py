"""Deletes and undo on the items table (`memo.aws.items_tombstones`) on moto's DynamoDB: a tombstone
hides the item until its undo restores it, once; a retry of the same step counts it again; an item
changed since the question was asked is left alone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import Reminder, Tombstone
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
    (restored,) = repo.restore(THREAD, "wamid.1", now=TEST_NOW)
    assert isinstance(restored, Reminder) and restored.status == "scheduled"
    assert repo.restore(THREAD, "wamid.1", now=TEST_NOW) == []


def test_no_undo_after_its_window(items_db: Any) -> None:
    repo = _repo(items_db)
    repo.delete_reminder(THREAD, "r1", undo=UNDO)
    assert repo.restore(THREAD, "wamid.1", now=UNDO.until + timedelta(seconds=1)) == []


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
