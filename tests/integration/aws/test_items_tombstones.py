"""Deletes and undo on the items table (`memo.aws.items_tombstones`) on moto's DynamoDB: a tombstone
hides the item until its undo restores it, once; a retry of the same step counts it again; an item
changed since the question was asked is left alone. Several reminders go in one transaction, with
the write that must go with them (the executor's claim) or not at all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws import items_tombstones
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.base import ExecutionResult
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


class _Marker:
    """A `FirstWrite`: puts a marker item once, to see that it goes in with the tombstones or not."""

    def __init__(self) -> None:
        self.was_sent = False
        self.told: list[Sequence[str] | None] = []

    def completed_as(self, result_of: Callable[[Sequence[str]], ExecutionResult]) -> None:
        raise AssertionError("the adapter never asks for the result")

    def entry_for(self, written: Sequence[str] | None) -> dict[str, Any]:
        self.told.append(written)
        return {
            "Put": {
                "TableName": TABLE,
                "Item": {"pk": {"S": "MARKER"}, "sk": {"S": "MARKER"}},
                "ConditionExpression": "attribute_not_exists(pk)",
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        }

    def sent(self) -> None:
        self.was_sent = True

    def refused(self, found: dict[str, Any] | None) -> Exception:
        return _Refused(found)


class _Refused(Exception):
    def __init__(self, found: dict[str, Any] | None) -> None:
        super().__init__("the marker is there")
        self.found = found


def _requests(items_db: Any) -> list[str]:
    """The names of the requests `items_db` sends from now on."""
    sent: list[str] = []
    items_db.meta.events.register("before-call.dynamodb.*", lambda model, **_: sent.append(model.name))
    return sent


def _three(items_db: Any) -> DynamoItemsRepository:
    repo = _repo(items_db)
    for reminder_id in ("r2", "r3"):
        repo.put_reminder(
            Reminder(
                reminder_id=reminder_id,
                thread_id=THREAD,
                title=reminder_id,
                due_at=TEST_NOW + timedelta(days=1),
                created_at=TEST_NOW,
            )
        )
    return repo


def _marked(items_db: Any) -> bool:
    return "Item" in items_db.get_item(TableName=TABLE, Key={"pk": {"S": "MARKER"}, "sk": {"S": "MARKER"}})


def test_several_reminders_go_in_one_transaction_with_the_first_write(items_db: Any) -> None:
    repo, marker = _three(items_db), _Marker()
    sent = _requests(items_db)
    removed = repo.remove_reminders(THREAD, ["r1", "r2", "r3", "r1"], undo=UNDO, first_write=marker)
    assert sent == ["TransactWriteItems"]
    assert {k: v.status for k, v in removed.items()} == {"r1": "deleted", "r2": "deleted", "r3": "deleted"}
    assert marker.was_sent and _marked(items_db) and repo.list_reminders(THREAD) == []
    assert marker.told == [["r1", "r2", "r3"]]  # the only transaction: told what it writes
    # The same step's retry counts its own tombstones again (no first write: its claim is held).
    again = repo.remove_reminders(THREAD, ["r1", "r2", "r3"], undo=UNDO)
    assert {v.status for v in again.values()} == {"deleted"}
    assert len(repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored) == 3


def test_a_refused_first_write_tombstones_nothing(items_db: Any) -> None:
    repo = _three(items_db)
    items_db.put_item(TableName=TABLE, Item={"pk": {"S": "MARKER"}, "sk": {"S": "MARKER"}})
    marker = _Marker()
    with pytest.raises(_Refused) as refused:
        repo.remove_reminders(THREAD, ["r1", "r2", "r3"], undo=UNDO, first_write=marker)
    assert refused.value.found == {"pk": "MARKER", "sk": "MARKER"} and not marker.was_sent
    assert len(repo.list_reminders(THREAD)) == 3


def test_the_lost_ones_are_named_and_the_rest_sent_again_with_the_first_write(items_db: Any) -> None:
    repo, marker = _three(items_db), _Marker()
    repo.update_reminder(THREAD, "r1", title="swim", changed_at=TEST_NOW + timedelta(minutes=1))
    sent = _requests(items_db)
    removed = repo.remove_reminders(
        THREAD, ["r1", "gone", "r3"], undo=UNDO, unchanged_since=TEST_NOW, first_write=marker
    )
    assert sent == ["TransactWriteItems", "TransactWriteItems"]
    assert {k: v.status for k, v in removed.items()} == {"r1": "changed", "gone": "gone", "r3": "deleted"}
    assert removed["r1"].item is not None and removed["r1"].item.title == "swim"
    assert marker.was_sent and _marked(items_db)
    assert marker.told == [["r1", "gone", "r3"], ["r3"]]  # sent again, told what it writes now
    assert sorted(r.reminder_id for r in repo.list_reminders(THREAD)) == ["r1", "r2"]


def test_every_lost_one_leaves_the_first_write_unsent(items_db: Any) -> None:
    repo, marker = _repo(items_db), _Marker()
    removed = repo.remove_reminders(THREAD, ["gone"], undo=UNDO, first_write=marker)
    assert removed["gone"].status == "gone" and not marker.was_sent and not _marked(items_db)


def test_past_the_transaction_limit_the_first_write_goes_in_the_first_one(
    items_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(items_tombstones, "TRANSACT_LIMIT", 2)
    repo, marker = _three(items_db), _Marker()
    sent = _requests(items_db)
    removed = repo.remove_reminders(THREAD, ["r1", "r2", "r3"], undo=UNDO, first_write=marker)
    assert sent == ["TransactWriteItems", "TransactWriteItems"]  # [marker, r1], [r2, r3]
    assert {v.status for v in removed.values()} == {"deleted"} and marker.was_sent
    assert marker.told == [None]  # more transactions follow: the claim alone
    assert repo.list_reminders(THREAD) == []


def test_the_undo_window_is_the_ttl_to_the_second(items_db: Any) -> None:
    """The tombstone keeps the window's end once, as the table's TTL (epoch seconds)."""
    repo = _repo(items_db)
    repo.remove_reminder(THREAD, "r1", undo=UNDO)
    raw = items_db.get_item(TableName=TABLE, Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}})
    assert int(raw["Item"]["ttl"]["N"]) == int(UNDO.until.timestamp()) and "undo_until" not in raw["Item"]
    assert repo.restore(THREAD, "wamid.1", now=UNDO.until).restored == []
    assert len(repo.restore(THREAD, "wamid.1", now=UNDO.until - timedelta(seconds=1)).restored) == 1


def test_a_tombstone_written_with_its_window_as_text_is_restored_by_its_ttl(items_db: Any) -> None:
    repo = _repo(items_db)
    repo.remove_reminder(THREAD, "r1", undo=UNDO)
    items_db.update_item(  # as tombstones were written before: the window's end also as text
        TableName=TABLE,
        Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}},
        UpdateExpression="SET undo_until = :until",
        ExpressionAttributeValues={":until": {"S": UNDO.until.isoformat()}},
    )
    (restored,) = repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored
    raw = items_db.get_item(TableName=TABLE, Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}})
    assert isinstance(restored, Reminder) and restored.title == "gym" and "undo_until" not in raw["Item"]


def _stored(items_db: Any, reminder_id: str) -> dict[str, Any]:
    key = {"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": f"REMINDER#{reminder_id}"}}
    return dict(items_db.get_item(TableName=TABLE, Key=key)["Item"])


def test_a_steps_tombstone_holds_its_operation_which_begins_with_the_undo_key(items_db: Any) -> None:
    """One value says both: the undo key (what `restore` is given) and the step (what a retry of
    the same step finds as its own)."""
    repo = _repo(items_db)
    repo.remove_reminder(THREAD, "r1", undo=UNDO)
    stored = _stored(items_db, "r1")
    assert stored["undo_key"] == {"S": "wamid.1:s1"} and "undo_op" not in stored
    assert repo.restore(THREAD, "wamid.1:s", now=TEST_NOW).restored == []  # not a key of its own
    assert len(repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored) == 1


def test_an_undo_leaves_the_tombstones_of_a_key_that_only_begins_like_its_own(items_db: Any) -> None:
    repo = _three(items_db)
    longer = Tombstone(key="wamid.10", until=UNDO.until, operation="wamid.10:s1")
    steps_of = Tombstone(key="wamid.1:x", until=UNDO.until, operation="wamid.1:x:s1")
    repo.remove_reminder(THREAD, "r1", undo=longer)
    repo.remove_reminder(THREAD, "r2", undo=steps_of)
    repo.remove_reminder(THREAD, "r3", undo=UNDO)

    (restored,) = repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored

    assert isinstance(restored, Reminder) and restored.reminder_id == "r3"
    assert [r.reminder_id for r in repo.list_reminders(THREAD)] == ["r3"]
    (back,) = repo.restore(THREAD, "wamid.1:x", now=TEST_NOW).restored
    assert isinstance(back, Reminder) and back.reminder_id == "r2"


def test_an_operation_that_is_not_a_step_of_the_key_is_kept_apart(items_db: Any) -> None:
    """A tombstone of an operation that does not begin with its undo key holds both, as they are."""
    repo = _repo(items_db)
    apart = UNDO.model_copy(update={"operation": "other"})
    assert repo.remove_reminder(THREAD, "r1", undo=apart).status == "deleted"
    assert repo.remove_reminder(THREAD, "r1", undo=apart).status == "deleted"  # its retry
    assert repo.remove_reminder(THREAD, "r1", undo=UNDO).status == "gone"  # another step's
    stored = _stored(items_db, "r1")
    assert stored["undo_key"] == {"S": "wamid.1"} and stored["undo_op"] == {"S": "other"}
    assert len(repo.restore(THREAD, "wamid.1", now=TEST_NOW).restored) == 1
