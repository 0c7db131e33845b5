"""Lists on the items table (`memo.aws.items_lists`) on moto's DynamoDB."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.items_lists import DynamoLists
from memo.capabilities.items import ListItem, Tombstone
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"


def _lists(items_db: Any) -> DynamoLists:
    lists = DynamoLists(items_db, TABLE)
    for i, (name, text) in enumerate([("Groceries", "milk"), ("groceries", "eggs"), ("Packing", "socks")]):
        at = TEST_NOW + timedelta(seconds=i)
        lists.add_list_item(
            ListItem(item_id=f"i{i}", thread_id=THREAD, list_name=name, text=text, created_at=at)
        )
    return lists


def test_a_list_is_its_items_in_the_order_they_were_added(items_db: Any) -> None:
    lists = _lists(items_db)
    assert [i.text for i in lists.list_items(THREAD, "GROCERIES")] == ["milk", "eggs"]
    assert [i.text for i in lists.all_list_items(THREAD)] == ["milk", "eggs", "socks"]


def test_clearing_a_list_leaves_the_others(items_db: Any) -> None:
    lists = _lists(items_db)
    assert [i.text for i in lists.clear_list(THREAD, "groceries")] == ["milk", "eggs"]
    assert lists.list_items(THREAD, "groceries") == []
    assert [i.text for i in lists.all_list_items(THREAD)] == ["socks"]


def test_pinned_items_are_tombstoned_with_no_read(items_db: Any) -> None:
    lists = _lists(items_db)
    undo = Tombstone(key="wamid.1", until=TEST_NOW + timedelta(minutes=10))
    cleared = lists.clear_list(THREAD, "groceries", item_ids=["i1", "i1", "gone"], undo=undo)
    assert [i.text for i in cleared] == ["eggs"]
    assert [i.text for i in lists.list_items(THREAD, "groceries")] == ["milk"]
    removed = lists.remove_list_item(THREAD, "groceries", "i0")
    assert removed is not None and lists.list_items(THREAD, "groceries") == []
