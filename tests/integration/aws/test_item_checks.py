"""The answer's checks of what its question showed (`memo.aws.item_checks`), on moto's DynamoDB against
items the capability store wrote: each holds while the item is as shown, and fails once it is gone,
tombstoned for undo, renamed, sent or past; and each is short, since one rides per shown item on the
answer's write."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from botocore.exceptions import ClientError

from memo import tables
from memo.aws.item_checks import DynamoItemChecks
from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import ListItem, Note, Reminder, Tombstone
from memo.conversation.pending import ShownItems
from tests.integration.reminders.conftest import START, THREAD, LocalAws

DUE = START + timedelta(hours=8)


def _repo(aws: LocalAws) -> DynamoItemsRepository:
    return DynamoItemsRepository(aws.dynamodb, tables.ITEMS.default_name)


def _holds(aws: LocalAws, shown: ShownItems) -> bool:
    checks = DynamoItemChecks(tables.ITEMS.default_name).checks(shown)
    try:
        aws.dynamodb.transact_write_items(TransactItems=checks)
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "TransactionCanceledException":
            raise
        return False
    return True


def _reminders(aws: LocalAws, *titles: str) -> ShownItems:
    repo = _repo(aws)
    for n, title in enumerate(titles):
        repo.put_reminder(
            Reminder(reminder_id=f"r{n}", thread_id=THREAD, title=title, due_at=DUE, created_at=START)
        )
    return ShownItems(
        thread_id=THREAD,
        capability="reminders",
        items=tuple((f"r{n}", title) for n, title in enumerate(titles)),
        now=START,
    )


def test_reminders_as_shown_pass(local_aws: LocalAws) -> None:
    assert _holds(local_aws, _reminders(local_aws, "call mom", "להתקשר לאבא"))


def test_a_reminder_deleted_outright_fails_the_check(local_aws: LocalAws) -> None:
    shown = _reminders(local_aws, "call mom", "buy milk")
    assert _repo(local_aws).delete_reminder(THREAD, "r1") is not None  # no undo: the item is gone
    assert not _holds(local_aws, shown)


def test_a_reminder_tombstoned_for_undo_fails_the_check(local_aws: LocalAws) -> None:
    shown = _reminders(local_aws, "call mom")
    undo = Tombstone(key="wamid.other", until=START + timedelta(hours=1))
    assert _repo(local_aws).delete_reminder(THREAD, "r0", undo=undo) is not None
    assert not _holds(local_aws, shown)


def test_a_renamed_sent_or_past_reminder_fails_the_check(local_aws: LocalAws) -> None:
    shown = _reminders(local_aws, "call mom")
    assert _repo(local_aws).update_reminder(THREAD, "r0", title="call mom and dad") is not None
    assert not _holds(local_aws, shown)
    _repo(local_aws).update_reminder(THREAD, "r0", title="call mom")
    assert _holds(local_aws, shown)
    assert not _holds(local_aws, ShownItems(THREAD, "reminders", shown.items, now=DUE))  # due now
    assert _repo(local_aws).mark_reminder_sent(THREAD, "r0", sent_at=START)
    assert not _holds(local_aws, shown)


def test_notes_and_list_items_fail_once_deleted(local_aws: LocalAws) -> None:
    repo = _repo(local_aws)
    repo.put_note(Note(note_id="n1", thread_id=THREAD, text="wifi code 1234", created_at=START))
    repo.add_list_item(
        ListItem(item_id="i1", thread_id=THREAD, list_name="Shopping", text="חלב", created_at=START)
    )
    note = ShownItems(THREAD, "notes", (("n1", "wifi code 1234"),), now=START)
    milk = ShownItems(THREAD, "lists", (("i1", "חלב"),), now=START, list_name="Shopping")
    assert _holds(local_aws, note) and _holds(local_aws, milk)
    assert not _holds(local_aws, ShownItems(THREAD, "notes", (("n1", "wifi code 9999"),), now=START))
    assert not _holds(
        local_aws, ShownItems(THREAD, "lists", (("i1", "לחם"),), now=START, list_name="Shopping")
    )
    repo.delete_note(THREAD, "n1")
    repo.remove_list_item(THREAD, "Shopping", "i1")
    assert not _holds(local_aws, note)
    assert not _holds(local_aws, milk)


def test_list_items_are_checked_within_their_list() -> None:
    with pytest.raises(ValueError, match="within their list"):
        DynamoItemChecks("t").checks(ShownItems(THREAD, "lists", (("i1", "milk"),), now=START))


def _wire(entry: dict[str, Any]) -> int:
    return len(json.dumps(entry, separators=(",", ":")))


def test_each_check_is_short_on_the_wire(local_aws: LocalAws) -> None:
    """One check per shown item rides on the answer's write (it was 450 bytes for a reminder)."""
    (reminder,) = DynamoItemChecks("memo-items").checks(
        ShownItems(THREAD, "reminders", (("57597eb8f747a58014138688f1", "call mom"),), now=START)
    )
    assert _wire(reminder) <= 390, reminder
    (note,) = DynamoItemChecks("memo-items").checks(
        ShownItems(THREAD, "notes", (("57597eb8f747a58014138688f1", "wifi code"),), now=START)
    )
    assert _wire(note) <= 295, note
