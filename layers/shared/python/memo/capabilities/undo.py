"""Undo of a delete or clear done by Memo: the "Undo" button of its confirmation.

A destructive step (reminders delete / delete_all, notes delete / delete_all, lists remove / clear)
tombstones the items under the turn's traceId for `UNDO_WINDOW` (see `memo.aws.items_table`); its
result carries `undoUntil`, and the reply offers "Undo" (`memo.reply.undo`). The tap is a turn of its
own that starts one executor step `items/undo` with `UndoArgs(undoKey=<that traceId>)`:

- the repository restores each tombstoned item at most once (a conditional write), so a second tap, a
  duplicate webhook or a racing undo restores nothing and is answered "already undone";
- a restored reminder whose time is still ahead gets its schedule again (the delete removed it, so a
  reminder in the bin can never fire); one whose time passed meanwhile is restored without one and the
  reply says so;
- an item an equivalent of which exists again (the same text on the same list, a reminder of the
  same title at the same time, a note of the same text: `memo.capabilities.items.is_back`) is not
  restored a second time: it stays deleted and the reply says it is there already (`alreadyThere`);
- after the window nothing is restored (the items are purged by the table's TTL): NOTHING_TO_UNDO.

The same step undoes the turn's updates (a note's text; a reminder's title, time or series): each
item is put back as it was before the update, once, and a reminder's schedule follows
(`memo.capabilities.undo_reverts`); an item changed again since the update is left as it is and
named (`changedAgain`; CHANGED_AGAIN when nothing else was undone).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pydantic import Field

from memo.capabilities.base import ExecutionContext, ExecutionResult, ReminderScheduler
from memo.capabilities.common import Args, failure, say
from memo.capabilities.items import Item, ListItem, Note, Reminder, Restoration
from memo.capabilities.store import ItemsRepository
from memo.capabilities.undo_reverts import (
    CHANGED_AGAIN,
    CHANGED_AGAIN_CODE,
    DELETED_AGAIN,
    REVERTED,
    TAKEN_OFF,
    label,
    reschedule_reverted,
    reverted_data,
)
from memo.text.language import Language
from memo.text.wording import quote

CAPABILITY = "items"
ACTION = "undo"
NOTHING_TO_UNDO = "NOTHING_TO_UNDO"


class UndoArgs(Args):
    undo_key: str = Field(min_length=1)  # the traceId of the turn whose deletes and updates are undone


def _label(item: Item) -> str:
    """How the reply names a restored item: a reminder's title, a note's or list item's text."""
    if isinstance(item, Reminder):
        return item.title
    return item.text


def _in_order(item: Item) -> tuple[datetime, str]:
    """How restored items are listed: a reminder by its time, a note or list item by when it was
    made; then by name."""
    return (item.due_at if isinstance(item, Reminder) else item.created_at, _label(item).casefold())


class UndoOperations:
    def __init__(
        self, repository: ItemsRepository, scheduler: ReminderScheduler, clock: Callable[[], datetime]
    ) -> None:
        self._repo = repository
        self._scheduler = scheduler
        self._clock = clock

    def undo(self, args: UndoArgs, ctx: ExecutionContext) -> ExecutionResult:
        lang = ctx.language
        now = self._clock()
        found = self._repo.restore(ctx.thread_id, args.undo_key, now=now)
        # The store gives them back in no set order: said by time, then name, the same every time.
        restored, present = sorted(found.restored, key=_in_order), sorted(found.present, key=_in_order)
        reverted = sorted(found.reverted, key=_in_order)
        removed = sorted(found.removed, key=_in_order)
        if not restored and not present and not reverted and not removed:
            return _nothing_undone(found, lang)
        passed = self._schedule_again(restored, ctx, now)
        passed += reschedule_reverted(reverted, ctx, now, scheduler=self._scheduler, repository=self._repo)
        return ExecutionResult(
            success=True,
            capability=_capability_of(restored + reverted or present),
            action=ACTION,
            data={
                "restored": [_label(i) for i in restored],
                "count": len(restored),
                "timePassed": passed,
                # Deleted, but there again (re-created since): not brought back a second time.
                "alreadyThere": [_label(i) for i in present],
                REVERTED: reverted_data(reverted, ctx),
                CHANGED_AGAIN: [label(i) for i in found.changed],
                # What the request added, taken off again.
                TAKEN_OFF: [
                    {"text": i.text, "list": i.list_name} for i in removed if isinstance(i, ListItem)
                ],
                DELETED_AGAIN: [label(i) for i in removed if isinstance(i, Note)],
            },
            external_ids=_ids(restored + reverted + removed),
            summary=_summary(restored, present, found, lang),
        )

    def _schedule_again(self, restored: list[Item], ctx: ExecutionContext, now: datetime) -> list[str]:
        """A restored reminder still ahead gets its schedule again; the titles of those whose time
        passed while they were deleted."""
        passed: list[str] = []
        for item in restored:
            if not isinstance(item, Reminder) or item.status != "scheduled":
                continue  # a sent reminder comes back as it was: nothing to schedule
            if item.due_at <= now:
                passed.append(item.title)
                continue
            name = self._scheduler.schedule(
                reminder_id=item.reminder_id, thread_id=ctx.thread_id, at=item.due_at, timezone=item.timezone
            )
            self._repo.update_reminder(ctx.thread_id, item.reminder_id, schedule_name=name)
        return passed


def _nothing_undone(found: Restoration, lang: Language) -> ExecutionResult:
    """Nothing came back: everything was changed again since its update, or nothing was left."""
    if found.changed:
        names = ", ".join(quote(label(i), lang) for i in found.changed)
        return failure(
            CAPABILITY,
            ACTION,
            CHANGED_AGAIN_CODE,
            say(
                lang,
                f"I didn't undo that: {names} was changed again since, so I left it as it is.",
                f"לא ביטלתי: {names} השתנה שוב מאז, אז השארתי את זה כמו שזה.",
            ),
        )
    return failure(
        CAPABILITY,
        ACTION,
        NOTHING_TO_UNDO,
        say(
            lang,
            "There's nothing left to undo: it was already undone, or the 10 minutes passed.",
            "אין מה לבטל: זה כבר בוטל, או ש־10 הדקות עברו.",
        ),
    )


def _summary(restored: list[Item], present: list[Item], found: Restoration, lang: Language) -> str:
    """What was brought back (in the order listed), else what was left as it is."""
    names = ", ".join(
        [quote(_label(i), lang) for i in restored] + [quote(label(i), lang) for i in found.reverted]
    )
    if names:
        return say(lang, f"restored {names}", f"שחזרתי את {names}")
    if found.removed:
        off = ", ".join(quote(_label(i), lang) for i in found.removed)
        return say(lang, f"took {off} away again", f"הורדתי שוב את {off}")
    again = ", ".join(quote(_label(i), lang) for i in present)
    return say(lang, f"left {again} as it is: it's there again", f"השארתי את {again}: הוא כבר קיים שוב")


def _ids(restored: list[Item]) -> dict[str, str | list[str]]:
    external: dict[str, str | list[str]] = {}
    reminder_ids = [i.reminder_id for i in restored if isinstance(i, Reminder)]
    note_ids = [i.note_id for i in restored if isinstance(i, Note)]
    list_item_ids = [i.item_id for i in restored if isinstance(i, ListItem)]
    if reminder_ids:
        external["reminderIds"] = reminder_ids
    if note_ids:
        external["noteIds"] = note_ids
    if list_item_ids:
        external["listItemIds"] = list_item_ids
    return external


def _capability_of(items: list[Item]) -> str:
    kinds = {type(i) for i in items}
    if len(kinds) != 1:
        return "general"
    return {Reminder: "reminders", Note: "notes", ListItem: "lists"}[kinds.pop()]
