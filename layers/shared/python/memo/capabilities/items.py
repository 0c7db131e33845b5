"""The user's items: reminders, notes and list items.

These models are shared by the capabilities (which write them) and the reminders Lambda (which
delivers them); `memo.aws.items_table` stores them in the items table and owns its keys.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

ReminderStatus = Literal["scheduled", "sent", "cancelled"]


def list_key(name: str) -> str:
    """Lists are addressed by a normalised name: "Shopping " and "shopping" are one list."""
    return " ".join(name.casefold().split())


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


class Note(_Item):
    note_id: str
    thread_id: str
    text: str = Field(min_length=1)
    created_at: AwareDatetime


class ListItem(_Item):
    item_id: str
    thread_id: str
    list_name: str  # as the user first wrote it
    text: str = Field(min_length=1)
    created_at: AwareDatetime
