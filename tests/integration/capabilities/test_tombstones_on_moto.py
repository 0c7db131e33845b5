"""The items table's tombstones (the undo of a delete) on moto: hidden from every read,
restored once, not after the window, and carrying the table's TTL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import ListItem, Note, Reminder, Tombstone
from memo.tables import ITEMS

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
UNDO = Tombstone(key="wamid.del", until=NOW + timedelta(minutes=10))


@pytest.fixture
def ddb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**ITEMS.create_table_kwargs())
        yield client


@pytest.fixture
def repo(ddb: Any) -> DynamoItemsRepository:
    return DynamoItemsRepository(ddb, ITEMS.default_name)


def _reminder(reminder_id: str, title: str) -> Reminder:
    return Reminder(
        reminder_id=reminder_id,
        thread_id=THREAD,
        title=title,
        due_at=NOW + timedelta(hours=3),
        schedule_name=f"s-{reminder_id}",
        created_at=NOW,
    )


def test_a_tombstoned_reminder_is_hidden_cancelled_and_restored_once(
    repo: DynamoItemsRepository, ddb: Any
) -> None:
    repo.put_reminder(_reminder("r1", "call mom"))
    repo.put_reminder(_reminder("r2", "call dad"))
    gone = repo.delete_reminder(THREAD, "r1", undo=UNDO)
    assert gone is not None and gone.title == "call mom"
    assert repo.get_reminder(THREAD, "r1") is None
    assert [r.reminder_id for r in repo.list_reminders(THREAD)] == ["r2"]
    assert repo.delete_reminder(THREAD, "r1", undo=UNDO) is None  # already deleted
    assert repo.update_reminder(THREAD, "r1", title="x") is None  # invisible to updates too
    raw = ddb.get_item(
        TableName=ITEMS.default_name, Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}}
    )
    item = raw["Item"]
    assert item["status"]["S"] == "cancelled" and item["undo_status"]["S"] == "scheduled"
    assert int(item["ttl"]["N"]) == int(UNDO.until.timestamp())

    (restored,) = repo.restore(THREAD, "wamid.del", now=NOW + timedelta(minutes=5)).restored
    assert isinstance(restored, Reminder) and restored.status == "scheduled" and restored.title == "call mom"
    assert repo.restore(THREAD, "wamid.del", now=NOW + timedelta(minutes=5)).restored == []
    raw = ddb.get_item(
        TableName=ITEMS.default_name, Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}}
    )
    assert not {"undo_key", "undo_until", "undo_status", "ttl"} & set(raw["Item"])
    assert [r.reminder_id for r in repo.list_reminders(THREAD)] == ["r1", "r2"]


def test_nothing_is_restored_after_the_window_or_under_another_key(repo: DynamoItemsRepository) -> None:
    repo.put_note(Note(note_id="n1", thread_id=THREAD, text="gate code", created_at=NOW))
    repo.delete_note(THREAD, "n1", undo=UNDO)
    assert repo.restore(THREAD, "wamid.other", now=NOW).restored == []
    assert repo.restore(THREAD, "wamid.del", now=UNDO.until).restored == []
    assert repo.list_notes(THREAD) == []


def test_clearing_a_list_tombstones_only_the_pinned_items(repo: DynamoItemsRepository) -> None:
    for item_id, text in (("i1", "milk"), ("i2", "eggs"), ("i3", "bread")):
        repo.add_list_item(
            ListItem(item_id=item_id, thread_id=THREAD, list_name="Shopping", text=text, created_at=NOW)
        )
    cleared = repo.clear_list(THREAD, "shopping", item_ids=["i1", "i2"], undo=UNDO)
    assert sorted(i.text for i in cleared) == ["eggs", "milk"]
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["bread"]
    restored = repo.restore(THREAD, "wamid.del", now=NOW).restored
    assert sorted(i.item_id for i in restored if isinstance(i, ListItem)) == ["i1", "i2"]
    assert len(repo.list_items(THREAD, "shopping")) == 3
    # Without a tombstone a clear still deletes for good.
    assert len(repo.clear_list(THREAD, "shopping")) == 3
    assert repo.restore(THREAD, "wamid.del", now=NOW).restored == []
