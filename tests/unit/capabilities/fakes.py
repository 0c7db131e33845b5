"""In-memory fakes of the items repository and the reminder scheduler (same contracts as the
DynamoDB / EventBridge adapters, which the integration tests run on moto)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memo.capabilities.base import FirstWrite
from memo.capabilities.items import (
    Deletion,
    ListItem,
    Note,
    Reminder,
    Restoration,
    Revision,
    Tombstone,
    is_back,
    list_key,
)

Item = Reminder | Note | ListItem


class FakeItemsRepository:
    def __init__(self) -> None:
        self.reminders: dict[tuple[str, str], Reminder] = {}
        self.notes: dict[tuple[str, str], Note] = {}
        self.items: dict[tuple[str, str, str], ListItem] = {}
        self.reads = 0
        # Tombstoned items by (thread, undo key): the item and its window's end.
        self.bin: dict[tuple[str, str], list[tuple[Item, datetime]]] = {}
        # When the person last changed each reminder (title, time or series), and which step
        # tombstoned each deleted reminder (its retry counts it again).
        self.changed_at: dict[tuple[str, str], datetime] = {}
        self.deleted_by: dict[tuple[str, str], tuple[str, Reminder]] = {}
        # An update's previous version kept for undo, by (thread, item id): the revision and the
        # change it stamped (an item stamped since was changed again).
        self.kept: dict[
            tuple[str, str], tuple[Revision[Reminder] | Revision[Note] | Revision[ListItem], datetime]
        ] = {}
        self.item_changed_at: dict[tuple[str, str], datetime] = {}
        # A list item added or a note saved with an undo, by (thread, id): the undo and its stamp.
        self.added: dict[tuple[str, str], tuple[Tombstone, datetime]] = {}
        self.note_changed_at: dict[tuple[str, str], datetime] = {}

    def _bury(self, thread_id: str, item: Item | None, undo: Tombstone | None) -> None:
        if item is not None and undo is not None:
            self.bin.setdefault((thread_id, undo.key), []).append((item, undo.until))

    def _live(self, thread_id: str) -> list[Item]:
        return [
            *(r for (t, _), r in self.reminders.items() if t == thread_id),
            *(n for (t, _), n in self.notes.items() if t == thread_id),
            *(i for (t, _, _), i in self.items.items() if t == thread_id),
        ]

    def restore(self, thread_id: str, undo_key: str, *, now: datetime) -> Restoration:
        buried = [item for item, until in self.bin.get((thread_id, undo_key), []) if until > now]
        live = self._live(thread_id)
        present = [item for item in buried if is_back(item, live)]
        restored = [item for item in buried if item not in present]
        # What is there again stays in the bin (a later undo may still bring it back).
        self.bin[(thread_id, undo_key)] = [
            (i, u) for i, u in self.bin.get((thread_id, undo_key), []) if i in present
        ]
        for item in restored:
            if isinstance(item, Reminder):
                self.reminders[(thread_id, item.reminder_id)] = item
            elif isinstance(item, Note):
                self.notes[(thread_id, item.note_id)] = item
            else:
                self.items[(thread_id, list_key(item.list_name), item.item_id)] = item
        reverted, changed = self._revert(thread_id, undo_key, now)
        removed, changed_since = self._take_off(thread_id, undo_key, now)
        return Restoration(
            restored=restored,
            present=present,
            reverted=reverted,
            changed=changed + changed_since,
            removed=removed,
        )

    def _take_off(self, thread_id: str, undo_key: str, now: datetime) -> tuple[list[Item], list[Item]]:
        """The list items the undo's request added, taken off again; those changed since, left."""
        removed: list[Item] = []
        changed: list[Item] = []
        for (thread, item_id), (undo, stamped) in list(self.added.items()):
            if thread != thread_id or undo.key != undo_key or undo.until <= now:
                continue
            if (thread, item_id) in self.notes:
                if self.note_changed_at.get((thread, item_id)) != stamped:
                    changed.append(self.notes[(thread, item_id)])
                    continue
                del self.added[(thread, item_id)]
                removed.append(self.notes.pop((thread, item_id)))
                continue
            key = next((k for k in self.items if k[0] == thread and k[2] == item_id), None)
            if key is None:
                continue
            if self.item_changed_at.get((thread, item_id)) != stamped:
                changed.append(self.items[key])
                continue
            del self.added[(thread, item_id)]
            removed.append(self.items.pop(key))
        return removed, changed

    def _revert(self, thread_id: str, undo_key: str, now: datetime) -> tuple[list[Item], list[Item]]:
        reverted: list[Item] = []
        changed: list[Item] = []
        for (thread, item_id), (revision, stamped) in list(self.kept.items()):
            if thread != thread_id or revision.undo.key != undo_key or revision.undo.until <= now:
                continue
            was = revision.was
            if isinstance(was, Reminder):
                current: Item | None = self.reminders.get((thread, item_id))
                stamps = self.changed_at
            elif isinstance(was, ListItem):
                current = self.items.get((thread, list_key(was.list_name), item_id))
                stamps = self.item_changed_at
            else:
                current = self.notes.get((thread, item_id))
                stamps = self.note_changed_at
            if current is None:
                continue
            if stamps.get((thread, item_id)) != stamped:
                changed.append(current)
                continue
            del self.kept[(thread, item_id)]
            stamps[(thread, item_id)] = now
            if isinstance(was, Reminder):
                self.reminders[(thread, item_id)] = was
            elif isinstance(was, ListItem):
                self.items[(thread, list_key(was.list_name), item_id)] = was
            else:
                self.notes[(thread, item_id)] = was
            reverted.append(was)
        return reverted, changed

    def put_reminder(self, reminder: Reminder, *, undo: Tombstone | None = None) -> bool:
        key = (reminder.thread_id, reminder.reminder_id)
        if key in self.reminders:
            return False
        self.reminders[key] = reminder
        if undo is not None:  # the undo cancels it
            self.changed_at[key] = reminder.created_at
            cancelled = reminder.model_copy(update={"status": "cancelled"})
            self.kept[key] = (Revision(undo=undo, was=cancelled), reminder.created_at)
        return True

    def get_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None:
        return self.reminders.get((thread_id, reminder_id))

    def list_reminders(self, thread_id: str) -> list[Reminder]:
        self.reads += 1
        return sorted((r for (t, _), r in self.reminders.items() if t == thread_id), key=lambda r: r.due_at)

    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]:
        return [r for r in self.list_reminders(thread_id) if r.status == "scheduled" and r.due_at > now]

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
    ) -> Reminder | None:
        current = self.reminders.get((thread_id, reminder_id))
        if current is None:
            return None
        changed = self.changed_at.get((thread_id, reminder_id))
        if unchanged_since is not None and changed is not None and changed > unchanged_since:
            return None  # as the conditional UpdateItem: left as it is
        if changed_at is not None and any(
            v is not None for v in (title, due_at, recurrence, timezone, skips)
        ):
            self.changed_at[(thread_id, reminder_id)] = changed_at
            if revision is not None:
                self.kept[(thread_id, reminder_id)] = (revision, changed_at)
        update: dict[str, object] = {}
        if recurrence is not None:
            update["recurrence"] = recurrence
        if skips is not None:
            update["skips"] = skips or None
        if title is not None:
            update["title"] = title
        if due_at is not None:
            update.update(due_at=due_at, status="scheduled", sent_at=None)
        if schedule_name is not None:
            update["schedule_name"] = schedule_name
        if timezone is not None:
            update["timezone"] = timezone
        new = current.model_copy(update=update)
        self.reminders[(thread_id, reminder_id)] = new
        return new

    def delete_reminder(
        self, thread_id: str, reminder_id: str, *, undo: Tombstone | None = None
    ) -> Reminder | None:
        gone = self.reminders.pop((thread_id, reminder_id), None)
        self._bury(thread_id, gone, undo)
        return gone

    def remove_reminder(
        self, thread_id: str, reminder_id: str, *, undo: Tombstone, unchanged_since: datetime | None = None
    ) -> Deletion[Reminder]:
        key = (thread_id, reminder_id)
        current = self.reminders.get(key)
        if current is None:
            earlier = self.deleted_by.get(key)
            if earlier is not None and undo.operation is not None and earlier[0] == undo.operation:
                return Deletion(status="deleted", item=earlier[1])
            return Deletion(status="gone")
        changed = self.changed_at.get(key)
        if unchanged_since is not None and changed is not None and changed > unchanged_since:
            return Deletion(status="changed", item=current)
        self.delete_reminder(thread_id, reminder_id, undo=undo)
        if undo.operation is not None:
            self.deleted_by[key] = (undo.operation, current)
        return Deletion(status="deleted", item=current)

    def remove_reminders(
        self,
        thread_id: str,
        reminder_ids: Sequence[str],
        *,
        undo: Tombstone,
        unchanged_since: datetime | None = None,
        first_write: FirstWrite | None = None,
    ) -> dict[str, Deletion[Reminder]]:
        """As the DynamoDB transaction: a deleted reminder comes back without its item, and
        `first_write` goes in when any of them is still there."""
        if first_write is not None and any((thread_id, r) in self.reminders for r in reminder_ids):
            first_write.sent()
        found = {}
        for reminder_id in dict.fromkeys(reminder_ids):
            removal = self.remove_reminder(thread_id, reminder_id, undo=undo, unchanged_since=unchanged_since)
            found[reminder_id] = Deletion(status="deleted") if removal.status == "deleted" else removal
        return found

    def mark_reminder_sent(self, thread_id: str, reminder_id: str, *, sent_at: datetime) -> bool:
        current = self.reminders.get((thread_id, reminder_id))
        if current is None or current.status != "scheduled":
            return False
        self.reminders[(thread_id, reminder_id)] = current.model_copy(
            update={"status": "sent", "sent_at": sent_at}
        )
        return True

    def put_note(self, note: Note, *, undo: Tombstone | None = None) -> bool:
        key = (note.thread_id, note.note_id)
        if key in self.notes:
            return False
        self.notes[key] = note
        if undo is not None:  # its undo deletes it again, unless it is changed since
            self.added[key] = (undo, note.created_at)
            self.note_changed_at[key] = note.created_at
        return True

    def list_notes(self, thread_id: str) -> list[Note]:
        self.reads += 1
        notes = [n for (t, _), n in self.notes.items() if t == thread_id]
        return sorted(notes, key=lambda n: n.created_at, reverse=True)

    def update_note(
        self,
        thread_id: str,
        note_id: str,
        *,
        text: str,
        expected: str,
        changed_at: datetime,
        revision: Revision[Note] | None = None,
    ) -> Note | None:
        note = self.notes.get((thread_id, note_id))
        if note is None or note.text not in (expected, text):
            return None
        self.note_changed_at[(thread_id, note_id)] = changed_at
        if revision is not None:
            self.kept[(thread_id, note_id)] = (revision, changed_at)
        self.notes[(thread_id, note_id)] = note.model_copy(update={"text": text})
        return self.notes[(thread_id, note_id)]

    def delete_note(self, thread_id: str, note_id: str, *, undo: Tombstone | None = None) -> Note | None:
        gone = self.notes.pop((thread_id, note_id), None)
        self._bury(thread_id, gone, undo)
        return gone

    def add_list_item(self, item: ListItem, *, undo: Tombstone | None = None) -> bool:
        key = (item.thread_id, list_key(item.list_name), item.item_id)
        if key in self.items:
            return False
        self.items[key] = item
        if undo is not None:  # its undo takes it off again, unless it is changed since
            self.added[(item.thread_id, item.item_id)] = (undo, item.created_at)
            self.item_changed_at[(item.thread_id, item.item_id)] = item.created_at
        return True

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        self.reads += 1
        wanted = list_key(list_name)
        found = [i for (t, k, _), i in self.items.items() if t == thread_id and k == wanted]
        return sorted(found, key=lambda i: i.created_at)

    def all_list_items(self, thread_id: str) -> list[ListItem]:
        self.reads += 1
        found = [i for (t, _, _), i in self.items.items() if t == thread_id]
        return sorted(found, key=lambda i: i.created_at)

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
    ) -> ListItem | None:
        key = (thread_id, list_key(list_name), item_id)
        current = self.items.get(key)
        if current is None or current.text not in (expected, text):
            return None
        self.item_changed_at[(thread_id, item_id)] = changed_at
        if revision is not None:
            self.kept[(thread_id, item_id)] = (revision, changed_at)
        self.items[key] = current.model_copy(update={"text": text})
        return self.items[key]

    def remove_list_item(
        self, thread_id: str, list_name: str, item_id: str, *, undo: Tombstone | None = None
    ) -> ListItem | None:
        gone = self.items.pop((thread_id, list_key(list_name), item_id), None)
        self._bury(thread_id, gone, undo)
        return gone

    def clear_list(
        self,
        thread_id: str,
        list_name: str,
        *,
        item_ids: list[str] | None = None,
        undo: Tombstone | None = None,
    ) -> list[ListItem]:
        items = self.list_items(thread_id, list_name)
        if item_ids is not None:
            items = [i for i in items if i.item_id in set(item_ids)]
        for item in items:
            self.remove_list_item(thread_id, list_name, item.item_id, undo=undo)
        return items


@dataclass
class FakeScheduler:
    """Records schedules by name: (reminder id, thread id, at, timezone)."""

    schedules: dict[str, tuple[str, str, datetime, str]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)
    #: the series of each recurring schedule, by name (a one-time schedule has none)
    series: dict[str, str] = field(default_factory=dict)

    def schedule(
        self,
        *,
        reminder_id: str,
        thread_id: str,
        at: datetime,
        timezone: str,
        recurrence: str | None = None,
        not_before: datetime | None = None,
    ) -> str:
        name = f"reminder-{reminder_id}"
        self.calls.append(("schedule", name))
        self.schedules[name] = (reminder_id, thread_id, at, timezone)
        if recurrence is not None:
            self.series[name] = recurrence
        else:
            self.series.pop(name, None)
        return name

    def cancel(self, schedule_name: str) -> None:
        self.calls.append(("cancel", schedule_name))
        self.schedules.pop(schedule_name, None)
