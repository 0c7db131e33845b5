"""The items table's `ItemsRepository` (`memo.aws.items_table`): one repository over every kind of
item, each kind under its own keys of the user's partition."""

from __future__ import annotations

from typing import Any

from memo import tables
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import ListItem, Note, Reminder
from memo.capabilities.store import ItemsRepository
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"


def test_every_kind_lives_apart_in_the_users_partition(items_db: Any) -> None:
    repo: ItemsRepository = DynamoItemsRepository(items_db, TABLE)
    repo.put_reminder(
        Reminder(reminder_id="x", thread_id=THREAD, title="gym", due_at=TEST_NOW, created_at=TEST_NOW)
    )
    repo.put_note(Note(note_id="x", thread_id=THREAD, text="milk", created_at=TEST_NOW))
    repo.add_list_item(
        ListItem(item_id="x", thread_id=THREAD, list_name="todo", text="call", created_at=TEST_NOW)
    )
    assert [r.title for r in repo.list_reminders(THREAD)] == ["gym"]
    assert [n.text for n in repo.list_notes(THREAD)] == ["milk"]
    assert [i.text for i in repo.all_list_items(THREAD)] == ["call"]
    assert {i["sk"]["S"] for i in items_db.scan(TableName=TABLE)["Items"]} == {
        "REMINDER#x",
        "NOTE#x",
        "LIST#todo#ITEM#x",
    }
