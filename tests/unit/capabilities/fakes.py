"""In-memory fakes of the items repository and the reminder scheduler (same contracts as the
DynamoDB / EventBridge adapters, which the integration tests run on moto)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memo.capabilities.items import ListItem, Note, Reminder, list_key


class FakeItemsRepository:
    def __init__(self) -> None:
        self.reminders: dict[tuple[str, str], Reminder] = {}
        self.notes: dict[tuple[str, str], Note] = {}
        self.items: dict[tuple[str, str, str], ListItem] = {}
        self.reads = 0

    def put_reminder(self, reminder: Reminder) -> bool:
        key = (reminder.thread_id, reminder.reminder_id)
        if key in self.reminders:
            return False
        self.reminders[key] = reminder
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
    ) -> Reminder | None:
        current = self.reminders.get((thread_id, reminder_id))
        if current is None:
            return None
        update: dict[str, object] = {}
        if title is not None:
            update["title"] = title
        if due_at is not None:
            update.update(due_at=due_at, status="scheduled", sent_at=None)
        if schedule_name is not None:
            update["schedule_name"] = schedule_name
        new = current.model_copy(update=update)
        self.reminders[(thread_id, reminder_id)] = new
        return new

    def delete_reminder(self, thread_id: str, reminder_id: str) -> Reminder | None:
        return self.reminders.pop((thread_id, reminder_id), None)

    def mark_reminder_sent(self, thread_id: str, reminder_id: str, *, sent_at: datetime) -> bool:
        current = self.reminders.get((thread_id, reminder_id))
        if current is None or current.status != "scheduled":
            return False
        self.reminders[(thread_id, reminder_id)] = current.model_copy(
            update={"status": "sent", "sent_at": sent_at}
        )
        return True

    def put_note(self, note: Note) -> bool:
        key = (note.thread_id, note.note_id)
        if key in self.notes:
            return False
        self.notes[key] = note
        return True

    def list_notes(self, thread_id: str) -> list[Note]:
        self.reads += 1
        notes = [n for (t, _), n in self.notes.items() if t == thread_id]
        return sorted(notes, key=lambda n: n.created_at, reverse=True)

    def delete_note(self, thread_id: str, note_id: str) -> Note | None:
        return self.notes.pop((thread_id, note_id), None)

    def add_list_item(self, item: ListItem) -> bool:
        key = (item.thread_id, list_key(item.list_name), item.item_id)
        if key in self.items:
            return False
        self.items[key] = item
        return True

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        self.reads += 1
        wanted = list_key(list_name)
        found = [i for (t, k, _), i in self.items.items() if t == thread_id and k == wanted]
        return sorted(found, key=lambda i: i.created_at)

    def remove_list_item(self, thread_id: str, list_name: str, item_id: str) -> ListItem | None:
        return self.items.pop((thread_id, list_key(list_name), item_id), None)

    def clear_list(self, thread_id: str, list_name: str) -> list[ListItem]:
        items = self.list_items(thread_id, list_name)
        for item in items:
            self.remove_list_item(thread_id, list_name, item.item_id)
        return items


@dataclass
class FakeScheduler:
    """Records schedules by name: (reminder id, thread id, at, timezone)."""

    schedules: dict[str, tuple[str, str, datetime, str]] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)

    def schedule(self, *, reminder_id: str, thread_id: str, at: datetime, timezone: str) -> str:
        name = f"reminder-{reminder_id}"
        self.calls.append(("schedule", name))
        self.schedules[name] = (reminder_id, thread_id, at, timezone)
        return name

    def cancel(self, schedule_name: str) -> None:
        self.calls.append(("cancel", schedule_name))
        self.schedules.pop(schedule_name, None)
