"""The items table's keys and how its items hold the models of `memo.capabilities.items`.

pk = USER#<thread>, sk = REMINDER#<id>, NOTE#<id>, LIST#<list key>#ITEM#<id>; items are the models
dumped as JSON values (snake_case attribute names) next to `pk`/`sk` and a `kind` attribute;
datetimes are stored as ISO 8601 in UTC so that string order is time order. Attributes the models do
not hold (the keys, `kind`, the person's last change, the undo marks and an update's undo slot) are left out when an item
is read back as its model.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from memo.aws.dynamo import from_item
from memo.capabilities.items import ListItem, Note, Reminder, list_key

REMINDER_PREFIX = "REMINDER#"
NOTE_PREFIX = "NOTE#"
LISTS_PREFIX = "LIST#"
UNDO_KEY = "undo_key"
UNDO_ATTRIBUTES = (UNDO_KEY, "undo_until", "undo_status", "undo_op", "ttl")
#: When the person last changed a reminder's title, time or series, or a note's text (ISO 8601, UTC).
CHANGED_AT = "changed_at"
#: An update's undo slot: a map of the undo marks (`key`, `op`, `until` in epoch seconds), the
#: `changed_at` the update stamped (`at`) and the values it replaced (`was`): `memo.aws.items_revisions`.
PREVIOUS = "undo_prev"
KEY_ATTRIBUTES = ("pk", "sk", "kind", CHANGED_AT, PREVIOUS, *UNDO_ATTRIBUTES)

M = TypeVar("M", bound=BaseModel)

#: The models an undo can bring back, by the item's `kind`.
RESTORABLE: dict[str, type[Reminder] | type[Note] | type[ListItem]] = {
    "reminder": Reminder,
    "note": Note,
    "list_item": ListItem,
}


def user_pk(thread_id: str) -> str:
    return f"USER#{thread_id}"


def reminder_sk(reminder_id: str) -> str:
    return f"REMINDER#{reminder_id}"


def note_sk(note_id: str) -> str:
    return f"NOTE#{note_id}"


def list_item_sk(list_name: str, item_id: str) -> str:
    return f"LIST#{list_key(list_name)}#ITEM#{item_id}"


def list_prefix(list_name: str) -> str:
    return f"LIST#{list_key(list_name)}#ITEM#"


def iso(value: datetime) -> str:
    """A timezone-aware datetime as the table stores it: ISO 8601 in UTC."""
    if value.tzinfo is None:
        raise ValueError("datetimes stored in the items table must be timezone-aware")
    return value.astimezone(UTC).isoformat()


def dump(model: BaseModel) -> dict[str, Any]:
    """A model's values as an item holds them (datetimes in UTC, no None values)."""
    values = model.model_dump(mode="json")
    for key, value in list(values.items()):
        original = getattr(model, key, None)
        if isinstance(original, datetime):
            values[key] = iso(original)
        elif value is None:
            values.pop(key)
    return values


def model_of(model: type[M], raw: dict[str, Any]) -> M:
    """A stored item (DynamoDB's attribute values) as its model."""
    return from_values(model, from_item(raw))


def from_values(model: type[M], values: dict[str, Any]) -> M:
    """An item's plain values as its model."""
    return model.model_validate({k: v for k, v in values.items() if k not in KEY_ATTRIBUTES})
