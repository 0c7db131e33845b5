"""The user's items: reminders, notes and list items.

These models are shared by the capabilities (which write them) and the reminders Lambda (which
delivers them); `memo.aws.items_table` stores them in the items table and owns its keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from memo.text.matching import list_synonym, normalize

ReminderStatus = Literal["scheduled", "sent", "cancelled"]
ItemT = TypeVar("ItemT")


def list_key(name: str) -> str:
    """Lists are addressed by a normalised name: "Shopping " and "shopping" are one list, and so are
    the synonyms of one list in either language ("groceries", "רשימת הקניות", "סופר": `list_synonym`)."""
    return list_synonym(name) or " ".join(name.casefold().split())


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True)


class Reminder(_Item):
    reminder_id: str
    thread_id: str
    title: str = Field(min_length=1)
    due_at: AwareDatetime  # stored in UTC; shown in `timezone`
    timezone: str = "UTC"
    status: ReminderStatus = "scheduled"
    schedule_name: str | None = None
    created_at: AwareDatetime
    sent_at: AwareDatetime | None = None
    phone_number_id: str | None = None  # the business number the user wrote to
    #: a repeating reminder's series (RFC 5545 "DTSTART:<local>\nRRULE:..." in `timezone`,
    #: `memo.text.recurrence`); `due_at` is then its next occurrence. None: a one-time reminder.
    recurrence: str | None = None
    #: the stretches of days a series skips ("skip the gym next week"): "<start>/<end>,..." in its
    #: local time, the end excluded (`memo.text.series.with_skipped`). Kept beside the series, not
    #: in it, so a release that does not know them still reads the series.
    skips: str | None = None
    #: a snoozed occurrence of a series: the series' id ("Done" on the series finishes it too)
    snooze_of: str | None = None


class Note(_Item):
    note_id: str
    thread_id: str
    text: str = Field(min_length=1)
    created_at: AwareDatetime


class Tombstone(_Item):
    """A delete that can be undone: the item stays, marked with the undo `key` (the turn's traceId),
    hidden from every read, until `until`; then the items table's TTL purges it. `operation` (the
    step's traceId:stepId) lets a retry of the same step find its own tombstone and count the item
    as deleted, while any other delete finds it gone."""

    key: str = Field(min_length=1)
    until: AwareDatetime
    operation: str | None = None


DeletionStatus = Literal["deleted", "gone", "changed"]


@dataclass(frozen=True)
class Deletion(Generic[ItemT]):
    """What one conditional delete found, from the write alone (no read before it):

    - `deleted`: done now (or by an earlier attempt of the same step); `item` as it was before;
    - `gone`: nothing to delete (never there, deleted or already tombstoned by someone else);
    - `changed`: the item was edited after the approval that pinned it was asked, so it was left
      alone; `item` as it is now (for the reply to name it).
    """

    status: DeletionStatus
    item: ItemT | None = None


class ListItem(_Item):
    item_id: str
    thread_id: str
    list_name: str  # as the user first wrote it
    text: str = Field(min_length=1)
    created_at: AwareDatetime


Item = Reminder | Note | ListItem


@dataclass(frozen=True)
class Revision(Generic[ItemT]):
    """An update that can be undone: `was` (the item before it) is kept on the item under the undo
    marks of `undo` (the turn's traceId, the window's end, the step's traceId:stepId), so the
    turn's undo can put it back while nobody changed the item since."""

    undo: Tombstone
    was: ItemT


@dataclass(frozen=True)
class Restoration:
    """What an undo found under its key (`ItemsRepository.restore`): the items it brought back, and
    those it left deleted because an equivalent one is there again (`is_back`); the items it put
    back as they were before an update (`reverted`, as they are now again), and those it left as
    they are because they were changed again after that update (`changed`, as they are now); and the
    list items its request added that it took off again (`removed`)."""

    restored: list[Item]
    present: list[Item]
    reverted: list[Item] = field(default_factory=list)
    changed: list[Item] = field(default_factory=list)
    removed: list[Item] = field(default_factory=list)


def is_back(item: Item, live: Sequence[Item]) -> bool:
    """Whether an equivalent of the deleted `item` exists again among `live` (the user's items
    that are not deleted): the same text on the same list, a reminder of the same title at the same
    time (not a cancelled one), a note of the same text; words compared as a list compares them
    (case, punctuation and spacing aside). An undo restores only what is still missing."""
    if isinstance(item, ListItem):
        key, text = list_key(item.list_name), normalize(item.text)
        return any(
            isinstance(o, ListItem) and list_key(o.list_name) == key and normalize(o.text) == text
            for o in live
        )
    if isinstance(item, Reminder):
        title = normalize(item.title)
        return any(
            isinstance(o, Reminder)
            and o.status != "cancelled"
            and o.due_at == item.due_at
            and normalize(o.title) == title
            for o in live
        )
    text = normalize(item.text)
    return any(isinstance(o, Note) and normalize(o.text) == text for o in live)
