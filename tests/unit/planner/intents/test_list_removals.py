"""Taking things off a list, and clearing a whole list."""

from __future__ import annotations

from memo.capabilities.lists import UNNAMED_LIST
from memo.planner.intents import list_removals
from tests.unit.planner.conftest import latest, pin


def test_remove_from_a_named_list() -> None:
    found = list_removals.remove("remove milk from my shopping list", pin("x"))
    assert found is not None and found.action == "remove"
    assert found.constraints == {"listName": "shopping"} and found.changes == {"items": ["milk"]}


def test_take_off_with_no_list_named() -> None:
    found = list_removals.remove("cross off the eggs", pin("x"))
    assert found is not None and found.constraints == {"listName": UNNAMED_LIST}
    assert found.changes == {"items": ["eggs"]}
    assert list_removals.remove("remove call mom", pin("x", actions=(latest(),))) is None  # the reminder


def test_clear_a_list_needs_approval_and_keeps_what_is_excepted() -> None:
    found = list_removals.clear("clear my shopping list except the bread", pin("x"))
    assert found is not None and found.needs_approval and found.risk == "high"
    assert found.constraints["listName"] == "shopping"
    assert list_removals.clear("delete coffee from my shopping list", pin("x")) is None


def test_a_hebrew_item_is_removed_without_its_article_and_a_place_keeps_it() -> None:
    found = list_removals.remove("תמחק את הקטשופ מרשימת הקניות", pin("x"))
    assert found is not None and found.changes == {"items": ["קטשופ"]}
    last = list_removals.remove("תוריד את האחרון מרשימת הקניות", pin("x"))
    assert last is not None and last.changes == {"items": ["האחרון"]}
