"""Updates kept for undo on the items table (`memo.aws.items_revisions`) on moto's DynamoDB: an update
keeps what it replaced in its own write (no request added), the turn's undo puts it back once, only
within its window, and never over a change made since; a read never shows the kept version."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from dateutil.rrule import rrule, rrulestr

from memo import tables
from memo.aws.items_revisions import added_slot, previous_slot
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import ListItem, Note, Reminder, Revision, Tombstone
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"
UNDO = Tombstone(key="wamid.1", until=TEST_NOW + timedelta(minutes=10), operation="wamid.1:s1")
LATER = TEST_NOW + timedelta(minutes=1)
SERIES = "DTSTART:20261201T080000\nRRULE:FREQ=DAILY"


class Counting:
    """The DynamoDB client, counting the requests it is asked for."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.calls.append(name)
        return getattr(self._client, name)


def _note(repo: DynamoItemsRepository) -> Note:
    note = Note(note_id="n1", thread_id=THREAD, text="gate code is 1234", created_at=TEST_NOW)
    repo.put_note(note)
    return note


def _reminder(repo: DynamoItemsRepository) -> Reminder:
    reminder = Reminder(
        reminder_id="r1",
        thread_id=THREAD,
        title="gym",
        due_at=TEST_NOW + timedelta(days=1),
        created_at=TEST_NOW,
    )
    repo.put_reminder(reminder)
    return reminder


def test_a_note_update_keeps_its_text_in_the_same_write_and_undo_puts_it_back_once(items_db: Any) -> None:
    counting = Counting(items_db)
    repo = DynamoItemsRepository(counting, TABLE)  # type: ignore[arg-type]
    note = _note(repo)
    counting.calls.clear()
    updated = repo.update_note(
        THREAD,
        "n1",
        text="gate code is 5678",
        expected=note.text,
        changed_at=TEST_NOW,
        revision=Revision(undo=UNDO, was=note),
    )
    assert counting.calls == ["update_item"]  # one write, as before
    assert updated is not None and updated.text == "gate code is 5678"
    assert repo.list_notes(THREAD)[0].text == "gate code is 5678"  # the kept text is never read back

    found = repo.restore(THREAD, "wamid.1", now=LATER)
    assert [n.text for n in found.reverted] == ["gate code is 1234"]  # type: ignore[union-attr]
    assert repo.list_notes(THREAD)[0].text == "gate code is 1234"
    again = repo.restore(THREAD, "wamid.1", now=LATER)  # a second undo, or a re-run
    assert again.reverted == [] and again.changed == []


def test_a_reminder_update_comes_back_with_its_title_time_status_and_series(items_db: Any) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    before = _reminder(repo)
    repo.mark_reminder_sent(THREAD, "r1", sent_at=TEST_NOW)
    sent = repo.get_reminder(THREAD, "r1")
    assert sent is not None and sent.status == "sent"
    repo.update_reminder(
        THREAD,
        "r1",
        title="swim",
        due_at=before.due_at + timedelta(hours=2),
        recurrence=SERIES,
        schedule_name="reminder-r1",
        changed_at=TEST_NOW,
        revision=Revision(undo=UNDO, was=sent),
    )
    (back,) = repo.restore(THREAD, "wamid.1", now=LATER).reverted
    assert back == repo.get_reminder(THREAD, "r1")
    assert isinstance(back, Reminder)
    assert (back.title, back.due_at, back.status, back.recurrence, back.sent_at) == (
        "gym",
        before.due_at,
        "sent",
        None,
        TEST_NOW,
    )


def test_the_days_a_series_skips_are_kept_beside_it_undone_and_unknown_to_the_released_reader(
    items_db: Any,
) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    series = Reminder(
        reminder_id="r1",
        thread_id=THREAD,
        title="gym",
        due_at=TEST_NOW + timedelta(days=1),
        created_at=TEST_NOW,
        recurrence=SERIES,
    )
    repo.put_reminder(series)
    skips = "20261207T000000/20261214T000000"
    repo.update_reminder(
        THREAD, "r1", skips=skips, changed_at=TEST_NOW, revision=Revision(undo=UNDO, was=series)
    )
    stored = items_db.get_item(
        TableName=TABLE, Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}}
    )
    item = stored["Item"]
    assert item["skips"] == {"S": skips} and item["recurrence"] == {"S": SERIES}  # the series as it was
    skipping = repo.get_reminder(THREAD, "r1")
    assert skipping is not None and skipping.skips == skips

    # The released reader knows no `skips`: its Reminder ignores an attribute it does not know
    # (pydantic's default, kept here) and its parser takes the series as stored, a plain rule.
    assert Reminder.model_config.get("extra", "ignore") == "ignore"
    assert isinstance(rrulestr(item["recurrence"]["S"]), rrule)

    (back,) = repo.restore(THREAD, "wamid.1", now=LATER).reverted
    assert isinstance(back, Reminder) and back.skips is None and back.recurrence == SERIES
    assert (
        "skips"
        not in items_db.get_item(
            TableName=TABLE, Key={"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}}
        )["Item"]
    )
    # "" takes them away in place.
    repo.update_reminder(THREAD, "r1", skips=skips)
    repo.update_reminder(THREAD, "r1", skips="")
    cleared = repo.get_reminder(THREAD, "r1")
    assert cleared is not None and cleared.skips is None


def test_no_revert_after_the_window(items_db: Any) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    note = _note(repo)
    repo.update_note(
        THREAD,
        "n1",
        text="x",
        expected=note.text,
        changed_at=TEST_NOW,
        revision=Revision(undo=UNDO, was=note),
    )
    assert repo.restore(THREAD, "wamid.1", now=UNDO.until).reverted == []
    assert repo.list_notes(THREAD)[0].text == "x"


@pytest.mark.parametrize("key", ["wamid.2", "wamid.1"])
def test_an_item_changed_again_since_is_left_as_it_is(items_db: Any, key: str) -> None:
    """Changed again by a later update (its own undo key) or by a change that kept nothing."""
    repo = DynamoItemsRepository(items_db, TABLE)
    before = _reminder(repo)
    repo.update_reminder(
        THREAD, "r1", title="swim", changed_at=TEST_NOW, revision=Revision(undo=UNDO, was=before)
    )
    swim = repo.get_reminder(THREAD, "r1")
    assert swim is not None
    later = Revision(undo=UNDO.model_copy(update={"key": key}), was=swim) if key != "wamid.1" else None
    repo.update_reminder(THREAD, "r1", title="run", changed_at=LATER, revision=later)
    found = repo.restore(THREAD, "wamid.1", now=LATER)
    assert found.reverted == []
    assert [r.title for r in found.changed] == ([] if later else ["run"])  # type: ignore[union-attr]
    current = repo.get_reminder(THREAD, "r1")
    assert current is not None and current.title == "run"


def test_a_change_racing_the_undo_wins(items_db: Any) -> None:
    """The revert's condition holds the change made between the undo's query and its write."""
    repo = DynamoItemsRepository(items_db, TABLE)
    note = _note(repo)
    repo.update_note(
        THREAD,
        "n1",
        text="x",
        expected=note.text,
        changed_at=TEST_NOW,
        revision=Revision(undo=UNDO, was=note),
    )
    (values,) = [v for v in _values(items_db)]
    repo.update_note(THREAD, "n1", text="y", expected="x", changed_at=LATER)
    reversion = repo._revert(values, "wamid.1", LATER)
    assert reversion is not None and reversion.status == "changed"
    assert repo.list_notes(THREAD)[0].text == "y"


def test_the_slot_names_the_undo_and_the_change(items_db: Any) -> None:
    note = Note(note_id="n1", thread_id=THREAD, text="a", created_at=TEST_NOW)
    slot = previous_slot(Revision(undo=UNDO, was=note), TEST_NOW)
    assert slot == {
        "key": "wamid.1",
        "op": "wamid.1:s1",
        "until": int(UNDO.until.timestamp()),
        "at": TEST_NOW.isoformat(),
        "was": {"text": "a"},
    }


def _values(items_db: Any) -> list[dict[str, Any]]:
    from memo.aws.dynamo import from_item

    raw = items_db.query(
        TableName=TABLE,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{THREAD}"}},
    )["Items"]
    return [from_item(r) for r in raw]


def _added(repo: DynamoItemsRepository, text: str = "milk", item_id: str = "i1") -> ListItem:
    item = ListItem(item_id=item_id, thread_id=THREAD, list_name="shopping", text=text, created_at=TEST_NOW)
    assert repo.add_list_item(item, undo=UNDO)
    return item


def test_a_list_item_added_with_its_undo_is_taken_off_once_by_it(items_db: Any) -> None:
    counting = Counting(items_db)
    repo = DynamoItemsRepository(counting, TABLE)  # type: ignore[arg-type]
    _added(repo)
    assert counting.calls == ["put_item"]  # the add's one write keeps its undo
    again = ListItem(item_id="i1", thread_id=THREAD, list_name="shopping", text="milk", created_at=TEST_NOW)
    assert not repo.add_list_item(again, undo=UNDO)  # a retried add: it is there already
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["milk"]
    found = repo.restore(THREAD, "wamid.1", now=LATER)
    assert [i.text for i in found.removed] == ["milk"]  # type: ignore[union-attr]
    assert repo.list_items(THREAD, "shopping") == []
    again = repo.restore(THREAD, "wamid.1", now=LATER)  # a second undo, or a re-run
    assert again.removed == [] and again.changed == []


@pytest.mark.parametrize("key", ["wamid.2", "wamid.0"])
def test_another_requests_undo_leaves_an_added_item(items_db: Any, key: str) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    _added(repo)
    assert repo.restore(THREAD, key, now=LATER).removed == []
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["milk"]


def test_an_added_item_is_left_after_the_window_and_when_changed_since(items_db: Any) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    _added(repo, "milk", "i1")
    _added(repo, "eggs", "i2")
    assert repo.restore(THREAD, "wamid.1", now=UNDO.until).removed == []
    repo.update_list_item(THREAD, "shopping", "i2", text="12 eggs", expected="eggs", changed_at=LATER)
    found = repo.restore(THREAD, "wamid.1", now=LATER)
    assert [i.text for i in found.removed] == ["milk"]  # type: ignore[union-attr]
    assert [i.text for i in found.changed] == ["12 eggs"]  # type: ignore[union-attr]
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["12 eggs"]


def test_a_change_racing_the_take_off_wins(items_db: Any) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    _added(repo)
    (values,) = _values(items_db)
    repo.update_list_item(THREAD, "shopping", "i1", text="oat milk", expected="milk", changed_at=LATER)
    reversion = repo._revert(values, "wamid.1", LATER)
    assert reversion is not None and reversion.status == "changed"
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["oat milk"]


def test_the_slot_of_an_add_says_it_was_not_there(items_db: Any) -> None:
    assert added_slot(UNDO, TEST_NOW) == {
        "key": "wamid.1",
        "op": "wamid.1:s1",
        "until": int(UNDO.until.timestamp()),
        "at": TEST_NOW.isoformat(),
        "was": {"gone": True},
    }


def test_a_note_saved_with_its_undo_is_deleted_once_by_it(items_db: Any) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    note = Note(note_id="n9", thread_id=THREAD, text="wifi is moon7", created_at=TEST_NOW)
    assert repo.put_note(note, undo=UNDO)
    assert not repo.put_note(note, undo=UNDO)  # a retried save: it is there already
    assert [n.text for n in repo.list_notes(THREAD)] == ["wifi is moon7"]
    found = repo.restore(THREAD, "wamid.1", now=LATER)
    assert [n.text for n in found.removed] == ["wifi is moon7"]  # type: ignore[union-attr]
    assert repo.list_notes(THREAD) == []
    assert repo.restore(THREAD, "wamid.1", now=LATER).removed == []


def test_a_reminder_created_with_its_undo_keeps_only_its_status_and_is_cancelled_once(items_db: Any) -> None:
    repo = DynamoItemsRepository(items_db, TABLE)
    series = Reminder(
        reminder_id="r7",
        thread_id=THREAD,
        title="take vitamins",
        due_at=TEST_NOW + timedelta(days=1),
        created_at=TEST_NOW,
        recurrence=SERIES,
        schedule_name="reminder-r7",
    )
    assert repo.put_reminder(series, undo=UNDO)
    (values,) = _values(items_db)
    assert values["undo_prev"]["was"] == {"status": "cancelled"}  # not a copy of the reminder
    found = repo.restore(THREAD, "wamid.1", now=LATER)
    (cancelled,) = found.reverted
    assert isinstance(cancelled, Reminder) and cancelled.status == "cancelled"
    assert (cancelled.title, cancelled.due_at) == ("take vitamins", series.due_at)
    assert repo.restore(THREAD, "wamid.1", now=LATER).reverted == []
