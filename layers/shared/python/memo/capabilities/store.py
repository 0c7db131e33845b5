"""The user's items port: what capabilities, entity resolution and the reminders Lambda need.

Creates return False when the item exists already (a retried step re-creates nothing); updates and
deletes of a vanished item return None; `mark_reminder_sent` returns False when the reminder is no
longer `scheduled`. A delete given a `Tombstone` hides the item instead (every read skips it) until
`restore` brings it back (unless an equivalent item exists again: an undo restores only what is
still missing) or its undo window ends and the table's TTL purges it.
`remove_reminder` is the delete of an approved, pinned reminder in one conditional write (no read
before it): the `Deletion` says whether it was deleted, already gone, or changed since
`unchanged_since` (then left alone); `remove_reminders` does the same for several reminders in one
transaction (its `deleted` carry no item; with a `FirstWrite`, that write goes in it too); an update of a reminder's title, time, series or zone marks it changed.
An update given a `Revision` keeps what it replaced on the item, so `restore` of the turn's undo key
puts it back (`Restoration.reverted`) unless the item was changed again since (`changed`).
The DynamoDB adapter is `memo.aws.items_table.DynamoItemsRepository`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from memo.capabilities.base import FirstWrite
from memo.capabilities.items import Deletion, ListItem, Note, Reminder, Restoration, Revision, Tombstone


class ItemsRepository(Protocol):
    """What capabilities and entity resolution need from the user's items."""

    def put_reminder(self, reminder: Reminder, *, undo: Tombstone | None = None) -> bool:
        """Create the reminder (False: it exists already). With `undo`, its turn's undo cancels it
        (a one-time reminder taking a series' occurrence): kept as a `Revision` whose `was` is the
        reminder cancelled."""
        ...

    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None: ...
    def list_reminders(self, thread_id: str) -> list[Reminder]: ...
    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]: ...
    def update_reminder(
        self,
        thread_id: str,
        reminder_id: str,
        *,
        title: str | None = None,
        due_at: datetime | None = None,
        schedule_name: str | None = None,
        recurrence: str | None = None,
        changed_at: datetime | None = None,
        revision: Revision[Reminder] | None = None,
        timezone: str | None = None,
        skips: str | None = None,
        unchanged_since: datetime | None = None,
    ) -> Reminder | None: ...
    def delete_reminder(
        self, thread_id: str, reminder_id: str, *, undo: Tombstone | None = None
    ) -> Reminder | None: ...
    def remove_reminder(
        self,
        thread_id: str,
        reminder_id: str,
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
    ) -> Deletion[Reminder]: ...
    def remove_reminders(
        self,
        thread_id: str,
        reminder_ids: Sequence[str],
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
        first_write: FirstWrite | None = None,
    ) -> dict[str, Deletion[Reminder]]: ...
    def mark_reminder_sent(self, thread_id: str, reminder_id: str, *, sent_at: datetime) -> bool: ...
    def put_note(self, note: Note, *, undo: Tombstone | None = None) -> bool:
        """Save the note (False: it exists already). With `undo`, its turn's undo deletes it again
        (`Restoration.removed`), unless it was changed since."""
        ...

    def list_notes(self, thread_id: str) -> list[Note]: ...
    def update_note(
        self,
        thread_id: str,
        note_id: str,
        *,
        text: str,
        expected: str,
        changed_at: datetime,
        revision: Revision[Note] | None = None,
    ) -> Note | None: ...
    def delete_note(self, thread_id: str, note_id: str, *, undo: Tombstone | None = None) -> Note | None: ...
    def add_list_item(self, item: ListItem, *, undo: Tombstone | None = None) -> bool:
        """Add the item (False: it exists already). With `undo`, its turn's undo takes it off again
        (`Restoration.removed`), unless it was changed since."""
        ...

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]: ...
    def all_list_items(self, thread_id: str) -> list[ListItem]: ...
    def update_list_item(
        self,
        thread_id: str,
        list_name: str,
        item_id: str,
        *,
        text: str,
        expected: str,
        changed_at: datetime,
        revision: Revision[ListItem] | None = None,
    ) -> ListItem | None: ...
    def remove_list_item(
        self, thread_id: str, list_name: str, item_id: str, *, undo: Tombstone | None = None
    ) -> ListItem | None: ...
    def clear_list(
        self,
        thread_id: str,
        list_name: str,
        *,
        item_ids: list[str] | None = None,
        undo: Tombstone | None = None,
    ) -> list[ListItem]: ...
    def restore(self, thread_id: str, undo_key: str, *, now: datetime) -> Restoration:
        """Bring back what was tombstoned under `undo_key` while its window is open, each item once,
        except an item an equivalent of which exists again (`memo.capabilities.items.is_back`):
        that one is left deleted and named in `Restoration.present`."""
        ...
