"""The undo of an update: what a reverted item needs after the items table put it back, and how the
result names it.

An update of a note's text or of a reminder's title, time or series keeps what it replaced under the
turn's undo key (`memo.capabilities.items.Revision`); the undo step's `restore` puts it back
(`Restoration.reverted`) unless the item was changed again since (`Restoration.changed`, left as it
is). A reverted reminder gets its schedule back through the same scheduler port the update used:

- `scheduled` and still ahead: its schedule is moved back to its time (and series and zone);
- a series whose next time passed meanwhile: it goes on from its next time after now;
- a one-time reminder whose time passed meanwhile, or one back to `sent` / `cancelled`: its schedule
  is removed, so the moved time does not fire (the reply says when the time passed). A one-time
  reminder an update made in a series' place (a moved or snoozed occurrence) is `cancelled` so.
"""

from __future__ import annotations

from datetime import datetime

from memo.capabilities.base import ExecutionContext, ReminderScheduler
from memo.capabilities.items import Item, ListItem, Note, Reminder
from memo.capabilities.notes import LISTED_CHARS, note_subject, shown
from memo.capabilities.reminder_results import brief
from memo.capabilities.scheduler import schedule_name_for
from memo.capabilities.store import ItemsRepository
from memo.text.series import next_occurrence

#: `ExecutionResult.data` keys of an undo: the items put back as they were before an update
#: ([{kind: "note", subject?, text} | {kind: "list_item", text, list} | {kind: "reminder", title,
#: when, repeats?, cancelled?}]: a
#: reminder the update made, a moved or snoozed occurrence, is `cancelled`), and the labels of
#: those left as they are because they were changed again since.
REVERTED = "reverted"
CHANGED_AGAIN = "changedAgain"
#: The list items the request added that the undo took off again ([{text, list}]), and the notes
#: it saved that the undo deleted again (their labels).
TAKEN_OFF = "takenOff"
DELETED_AGAIN = "deletedAgain"
#: Every item the undo would have put back was changed again since: nothing was reverted.
CHANGED_AGAIN_CODE = "CHANGED_AGAIN"


def label(item: Item) -> str:
    """How a reply names an item: a reminder's title, a note's subject or text, a list item's text."""
    if isinstance(item, Reminder):
        return item.title
    if isinstance(item, Note):
        return note_subject(item.text) or str(shown(item.text, LISTED_CHARS)["text"])
    return item.text


def reverted_data(items: list[Item], ctx: ExecutionContext) -> list[dict[str, str]]:
    """The reverted items as the result carries them (see `REVERTED`)."""
    data: list[dict[str, str]] = []
    for item in items:
        if isinstance(item, Reminder):
            # A one-time reminder made by the update (a moved or snoozed occurrence) is cancelled.
            cancelled = {"cancelled": "yes"} if item.status == "cancelled" else {}
            data.append({"kind": "reminder", **brief(item, ctx.language, ctx.timezone), **cancelled})
        elif isinstance(item, Note):
            text = str(shown(item.text, LISTED_CHARS)["text"])
            subject = note_subject(item.text)
            data.append({"kind": "note", "text": text, **({"subject": subject} if subject else {})})
        else:
            data.append({"kind": "list_item", "text": item.text, "list": item.list_name})
    return data


def reschedule_reverted(
    items: list[Item],
    ctx: ExecutionContext,
    now: datetime,
    *,
    scheduler: ReminderScheduler,
    repository: ItemsRepository,
) -> list[str]:
    """Give each reverted reminder its schedule back (see the module doc); the titles of those whose
    time passed meanwhile."""
    passed: list[str] = []
    for item in items:
        if isinstance(item, (Note, ListItem)):
            continue
        name = item.schedule_name or schedule_name_for(item.reminder_id)
        due = item.due_at
        if item.status == "scheduled" and due <= now and item.recurrence is not None:
            due = next_occurrence(item.recurrence, item.timezone, now, item.skips) or due
            if due > now:
                repository.update_reminder(ctx.thread_id, item.reminder_id, due_at=due)
        if item.status != "scheduled" or due <= now:
            scheduler.cancel(name)
            if item.status == "scheduled":
                passed.append(item.title)
            continue
        scheduler.schedule(
            reminder_id=item.reminder_id,
            thread_id=ctx.thread_id,
            at=due,
            timezone=item.timezone,
            recurrence=item.recurrence,
            not_before=now,
        )
    return passed
