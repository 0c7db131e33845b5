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


def test_an_item_changed_keeps_its_place_and_undo_gives_its_words_back_once(items_db: Any) -> None:
    from memo.aws.items_table import DynamoItemsRepository
    from memo.capabilities.items import Revision

    repo = DynamoItemsRepository(items_db, TABLE)
    _lists(items_db)
    (milk, eggs) = repo.list_items(THREAD, "groceries")
    undo = Tombstone(key="wamid.1", until=TEST_NOW + timedelta(minutes=10), operation="wamid.1:s1")
    changed = repo.update_list_item(
        THREAD,
        "groceries",
        milk.item_id,
        text="oat milk",
        expected="milk",
        changed_at=TEST_NOW,
        revision=Revision(undo=undo, was=milk),
    )
    assert changed is not None and changed.text == "oat milk"
    assert [i.text for i in repo.list_items(THREAD, "groceries")] == ["oat milk", "eggs"]  # its place
    # A re-run of the same step finds the new words there: the same change, not a conflict.
    again = repo.update_list_item(
        THREAD, "groceries", milk.item_id, text="oat milk", expected="milk", changed_at=TEST_NOW
    )
    assert again is not None and again.text == "oat milk"
    # Words that are neither the old nor the new ones: changed meanwhile, left as they are.
    assert (
        repo.update_list_item(
            THREAD, "groceries", eggs.item_id, text="12 eggs", expected="6 eggs", changed_at=TEST_NOW
        )
        is None
    )
    assert (
        repo.update_list_item(THREAD, "groceries", "gone", text="x", expected="y", changed_at=TEST_NOW)
        is None
    )
    found = repo.restore(THREAD, "wamid.1", now=TEST_NOW + timedelta(minutes=1))
    assert [getattr(i, "text", None) for i in found.reverted] == ["milk"]
    assert [i.text for i in repo.list_items(THREAD, "groceries")] == ["milk", "eggs"]
    assert repo.restore(THREAD, "wamid.1", now=TEST_NOW + timedelta(minutes=1)).reverted == []
