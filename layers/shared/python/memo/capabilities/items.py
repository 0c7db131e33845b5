"""The user's items as stored in the items table (`memo.tables.ITEMS`), and their keys.

pk = USER#<thread id>; sk = REMINDER#<id> | NOTE#<id> | LIST#<list key>#ITEM#<id>.
These models are the storage shape shared by the capabilities (which write them) and the reminders
Lambda (which delivers them); the DynamoDB adapter converts with `memo.aws.dynamo`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

ReminderStatus = Literal["scheduled", "sent", "cancelled"]


def user_pk(thread_id: str) -> str:
    return f"USER#{thread_id}"


def reminder_sk(reminder_id: str) -> str:
    return f"REMINDER#{reminder_id}"


def note_sk(note_id: str) -> str:
    return f"NOTE#{note_id}"


def list_key(name: str) -> str:
    """Lists are addressed by a normalised name: "Shopping " and "shopping" are one list."""
    return " ".join(name.casefold().split())


def list_item_sk(list_name: str, item_id: str) -> str:
    return f"LIST#{list_key(list_name)}#ITEM#{item_id}"


def list_prefix(list_name: str) -> str:
    return f"LIST#{list_key(list_name)}#ITEM#"


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
