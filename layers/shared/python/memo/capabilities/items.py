"""The user's items: reminders, notes and list items.

These models are shared by the capabilities (which write them) and the reminders Lambda (which
delivers them); `memo.aws.items_table` stores them in the items table and owns its keys.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from memo.text.matching import list_synonym

ReminderStatus = Literal["scheduled", "sent", "cancelled"]


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


class Note(_Item):
    note_id: str
    thread_id: str
    text: str = Field(min_length=1)
    created_at: AwareDatetime


class Tombstone(_Item):
    """A delete that can be undone: the item stays, marked with the undo `key` (the turn's traceId),
    hidden from every read, until `until`; then the items table's TTL purges it."""

    key: str = Field(min_length=1)
    until: AwareDatetime


class ListItem(_Item):
    item_id: str
    thread_id: str
    list_name: str  # as the user first wrote it
    text: str = Field(min_length=1)
    created_at: AwareDatetime
