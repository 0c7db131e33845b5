"""Taking things off a list, and clearing a whole list."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.capabilities.lists import UNNAMED_LIST
from memo.domain import LatestAction
from memo.planner.intents import list_removals
from tests.unit.planner.conftest import NOW, latest, pin


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


def test_hebrew_removals_with_the_list_named_first_last_or_by_its_name_alone() -> None:
    for message, name, items in (
        ("תמחק קפה מהקניות", "קניות", ["קפה"]),
        ("תוריד מרשימת המשימות לתקן את הברז", "משימות", ["לתקן את הברז"]),
        ("תמחק מרשימת הקניות את המלח", "קניות", ["מלח"]),
    ):
        found = list_removals.remove(message, pin(message))
        assert found is not None, message
        assert found.constraints == {"listName": name} and found.changes == {"items": items}
    bought = list_removals.remove("קניתי כבר את הביצים", pin("x"))
    assert bought is not None and bought.changes == {"items": ["ביצים"]}


def test_hebrew_clearing_in_every_way_it_is_said() -> None:
    for message, name in (
        ("תרוקן את הרשימה של הסופר", "סופר"),
        ("תנקה את הרשימה של הקניות", "קניות"),
        ("תמחק את כל מה שברשימת הקניות", "קניות"),
        ("תמחק הכל מרשימת הקניות", "קניות"),
        ("תמחק את כל הפריטים מרשימת הקניות", "קניות"),
    ):
        found = list_removals.clear(message, pin(message))
        assert found is not None and found.action == "clear", message
        assert found.constraints["listName"] == name and found.needs_approval
    # one thing off the list is no clearing
    assert list_removals.clear("תמחק חלב מרשימת הקניות", pin("x")) is None


def _added(summary: str, key: str = "shopping") -> LatestAction:
    return LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="lists",
        action="add",
        summary=summary,
        external_ids={"listKey": key},
    )


_ADDED = ["milk", "eggs", "bread", "toilet paper"]


@given(
    taken=st.lists(st.sampled_from(_ADDED), min_size=1, max_size=3, unique=True),
    lead=st.sampled_from(["", "actually ", "oh wait, ", "sorry, "]),
    word=st.sampled_from(["not", "without", "scratch", "no", "forget"]),
    article=st.booleans(),
)
def test_not_after_all_takes_off_only_what_was_just_added(
    taken: list[str], lead: str, word: str, article: bool
) -> None:
    # "actually not the bread" right after adding it was "not understood".
    said = " and ".join(f"the {t}" if article else t for t in taken)
    text = f"{lead}{word} {said}"
    found = list_removals.not_after_all(
        text, pin(text, actions=(_added(f"Added {', '.join(_ADDED)} to your shopping list"),))
    )
    assert found is not None and (found.capability, found.action) == ("lists", "remove")
    assert found.constraints == {"listName": "shopping"} and found.changes == {"items": taken}


@pytest.mark.parametrize(
    ("text", "actions"),
    [
        ("not the cheese", (_added("Added milk, eggs to your shopping list"),)),  # not added just now
        ("not now", (_added("Added milk, eggs to your shopping list"),)),
        ("no", (_added("Added milk to your shopping list"),)),
        ("not the milk", (latest(),)),  # the latest thing done was a reminder
        ("not the milk", ()),
    ],
)
def test_not_after_all_needs_the_things_just_added(text: str, actions: tuple[LatestAction, ...]) -> None:
    assert list_removals.not_after_all(text, pin(text, actions=actions)) is None


def test_hebrew_not_after_all() -> None:
    added = _added("הוספתי עגבניות, לחם לרשימת הקניות")
    for text, items in (
        ("בעצם בלי הלחם", ["לחם"]),
        ("לא לחם", ["לחם"]),
        ("בלי העגבניות והלחם", ["עגבניות", "לחם"]),
    ):
        found = list_removals.not_after_all(text, pin(text, actions=(added,)))
        assert found is not None and found.changes == {"items": items}, text
    assert list_removals.not_after_all("בלי גבינה", pin("בלי גבינה", actions=(added,))) is None


@pytest.mark.parametrize(
    ("message", "list_name"),
    [
        ("delete from the shopping list", "shopping"),
        ("remove something from my shopping list", "shopping"),
        ("take an item off the todo list", "todo"),
        ("remove from my groceries", "groceries"),
        ("remove from the list", UNNAMED_LIST),
        ("תמחק מרשימת הקניות", "קניות"),
        ("תוריד מרשימת הקניות", "קניות"),
        ("תוריד לי משהו מרשימת המשימות", "משימות"),
        ("תמחק מהרשימה", UNNAMED_LIST),
    ],
)
def test_a_list_with_nothing_named_to_take_off_asks_what(message: str, list_name: str) -> None:
    # "delete from the shopping list" was a reminder named "from the shopping list"; "תמחק מרשימת
    # הקניות" took "קניות" off an unnamed list.
    found = list_removals.from_a_list_only(message, pin(message))
    assert found is not None and found.missing == ("list_items_required",)
    assert found.constraints == {"listName": list_name} and found.changes == {"items": []}


@pytest.mark.parametrize(
    "message",
    [
        "remove milk from the shopping list",
        "תוריד מרשימת הקניות חלב",
        "תמחק מרשימת הקניות את החלב",
        "delete the list",
    ],
)
def test_things_named_are_not_asked(message: str) -> None:
    assert list_removals.from_a_list_only(message, pin(message)) is None


@pytest.mark.parametrize(
    ("said", "items"),
    [("mark milk as bought", ["milk"]), ("mark the eggs and bread bought", ["eggs", "bread"])],
)
def test_marked_as_bought_comes_off(said: str, items: list[str]) -> None:
    # "mark milk as bought" was not understood.
    found = list_removals.remove(said, pin(said))
    assert found is not None and found.action == "remove" and found.changes == {"items": items}


def test_marked_done_is_no_list_removal() -> None:
    assert list_removals.remove("mark call mom as done", pin("mark call mom as done")) is None


@pytest.mark.parametrize(
    ("said", "items"),
    [
        ("remove a tomato from my shopping list", ["one tomato"]),
        ("take a tomato off the list", ["one tomato"]),
        ("remove an egg and a tomato", ["one egg", "one tomato"]),
        ("remove a dozen eggs", ["dozen eggs"]),  # twelve (`memo.text.list_counts`)
        ("remove a few apples from my shopping list", ["few apples"]),  # no count: the line
        ("remove 2 tomatoes from my shopping list", ["2 tomatoes"]),
        ("remove the tomatoes", ["tomatoes"]),
    ],
)
def test_a_thing_taken_off_says_its_count(said: str, items: list[str]) -> None:
    # "a tomato" off "3 tomatoes" is one of them (the resolver leaves 2), not the line.
    found = list_removals.remove(said, pin("x"))
    assert found is not None and found.changes == {"items": items}


@pytest.mark.parametrize(
    ("said", "items"),
    [
        ("done with fix the faucet", ["fix the faucet"]),
        ("finished change the bulb", ["change the bulb"]),
        ("i finished the report", ["report"]),
        ("I'm done with the tax forms", ["tax forms"]),
        ("completed renew passport", ["renew passport"]),
        ("ok, done with fix the faucet", ["fix the faucet"]),
        ("סיימתי לתקן את הברז", ["לתקן את הברז"]),
        ("כבר סיימתי את הדוח", ["דוח"]),
        ("לתקן את הברז בוצע", ["לתקן את הברז"]),
    ],
)
def test_a_task_said_done_comes_off_the_list_that_has_it(said: str, items: list[str]) -> None:
    found = list_removals.remove(said, pin("x"))
    assert found is not None and found.action == "remove" and found.pattern == "lists:done"
    assert found.constraints == {"listName": UNNAMED_LIST} and found.changes == {"items": items}


@pytest.mark.parametrize(
    "said",
    [
        "i'm done",
        "done",
        "done for today",
        "finished work",
        "finished with it",
        "we finished the milk",  # a thing people buy: it ran out, it is not done
        "finished the eggs and bread",
        "done with the reminder",
        "סיימתי",
        "סיימתי לעבוד",
        "mark call mom as done",
    ],
)
def test_done_with_nothing_on_a_list_or_a_thing_that_ran_out_is_no_removal(said: str) -> None:
    assert list_removals.remove(said, pin("x")) is None


def test_done_with_what_was_just_set_is_no_list_removal() -> None:
    assert list_removals.remove("done with call mom", pin("x", actions=(latest(),))) is None
