"""What the items adapters share (`memo.aws.items_access`) on moto's DynamoDB: a create happens once,
and a tombstoned item is never read back."""

from __future__ import annotations

from typing import Any

from memo import tables
from memo.aws.items_access import ItemsAccess
from memo.aws.items_keys import model_of
from memo.capabilities.items import Note

TABLE = tables.ITEMS.default_name


class _Access(ItemsAccess):
    """The shared reads and writes, as each kind's adapter calls them."""

    def put(self, sk: str) -> bool:
        return self._put_new(
            "USER#t",
            sk,
            "note",
            {"note_id": sk, "thread_id": "t", "text": "x", "created_at": "2026-01-01T00:00:00+00:00"},
        )

    def notes(self) -> list[Note]:
        return [model_of(Note, raw) for raw in self._query("USER#t", "NOTE#")]


def test_a_create_happens_once(items_db: Any) -> None:
    access = _Access(items_db, TABLE)
    assert access.put("NOTE#1")
    assert not access.put("NOTE#1")
    assert access._get("USER#t", "NOTE#1", Note) is not None


def test_a_tombstoned_item_is_never_read_back(items_db: Any) -> None:
    access = _Access(items_db, TABLE)
    access.put("NOTE#1")
    access.put("NOTE#2")
    items_db.update_item(
        TableName=TABLE,
        Key={"pk": {"S": "USER#t"}, "sk": {"S": "NOTE#2"}},
        UpdateExpression="SET undo_key = :k",
        ExpressionAttributeValues={":k": {"S": "wamid.1"}},
    )
    assert [n.note_id for n in access.notes()] == ["NOTE#1"]
    assert access._get("USER#t", "NOTE#2", Note) is None
