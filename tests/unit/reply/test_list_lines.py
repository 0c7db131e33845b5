"""The line of a lists step: items added or removed, a list shown or cleared, every list at once."""

from __future__ import annotations

from memo.reply.list_lines import list_line
from tests.unit.reply.factories import ok


def test_list_contents_and_empty_list() -> None:
    show = ok("s1", "lists", "show", data={"listName": "shopping", "items": [{"text": "milk"}, "bread"]})
    assert list_line(show.result, "en") == "Your shopping list:\n• milk\n• bread"
    assert list_line(show.result, "he") == "רשימת הקניות:\n• milk\n• bread"
    empty = ok("s1", "lists", "show", data={"list_name": "todo", "items": []}).result
    assert list_line(empty, "en") == "Your todo list is empty."


def test_capability_shapes_list_add_and_remove() -> None:
    add = ok(
        "s1",
        "lists",
        "add",
        data={"listName": "shopping", "added": ["milk"], "alreadyThere": ["eggs"], "items": ["eggs", "milk"]},
    ).result
    assert list_line(add, "en") == "Added milk to your shopping list. Already there: eggs."
    assert list_line(add, "he") == "הוספתי milk לרשימת הקניות. כבר ברשימה: eggs."
    remove = ok(
        "s1",
        "lists",
        "remove",
        data={"listName": "shopping", "removed": ["milk"], "notFound": [], "items": []},
    ).result
    assert list_line(remove, "en") == "Removed milk from your shopping list."
    cleared = ok("s1", "lists", "clear", data={"listName": "todo", "count": 2}).result
    assert list_line(cleared, "en") == "Cleared your todo list (2 items)."
    # The approved items by name (an answer may have kept some on the list); many are counted.
    pinned = ok(
        "s1", "lists", "clear", data={"listName": "todo", "count": 1, "removedItems": ["milk"]}
    ).result
    assert list_line(pinned, "en") == "Removed milk from your todo list."
    many = [f"item {n}" for n in range(6)]
    lots = ok("s1", "lists", "clear", data={"listName": "todo", "count": 6, "removedItems": many}).result
    assert list_line(lots, "en") == "Removed 6 items from your todo list."


def test_every_list_with_its_count() -> None:
    lists = [{"name": "shopping", "count": 2}, {"name": "todo", "count": 1}]
    result = ok("s1", "lists", "show_all", data={"lists": lists}).result
    assert list_line(result, "en") == "Your lists:\n• shopping (2 items)\n• todo (1 item)"
