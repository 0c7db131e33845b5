"""The items table (`memo.tables.ITEMS`): the user's reminders, notes and list items.

`DynamoItemsRepository` is the `ItemsRepository` port of the capabilities and entity resolution, put
together from one adapter per kind of item, each its own module:

- `memo.aws.items_reminders.DynamoReminders`, `memo.aws.items_notes.DynamoNotes`,
  `memo.aws.items_lists.DynamoLists`: the reads and writes of each kind;
- `memo.aws.items_tombstones`: deletes, the tombstones an undo restores, and `restore`;
- `memo.aws.items_keys`: the keys and the item format, `memo.aws.items_access` the reads they share.

Conditional writes come back as plain results: a create that finds the item already there returns
False (a retried step re-creates nothing), an update/delete of a vanished item returns None, and
`mark_reminder_sent` returns False when the reminder is no longer `scheduled`. Throttling and
service faults come out as `TransientFault` / `ServiceFault`: the caller's retry policy owns them.
The reminders Lambda's claim / complete / release of one delivery is
`memo.aws.reminder_deliveries.DynamoReminderItems`.
"""

from __future__ import annotations

from memo.aws.items_lists import DynamoLists
from memo.aws.items_notes import DynamoNotes
from memo.aws.items_reminders import DynamoReminders


class DynamoItemsRepository(DynamoReminders, DynamoNotes, DynamoLists):
    """`ItemsRepository` on the items table."""
