"""Adding to a list: named or not, "we're out of", "and eggs too", and an answer's items."""

from __future__ import annotations

from memo.planner.intents import lists
from memo.planner.match import GUESS
from tests.unit.planner.conftest import latest, pin


def test_add_to_a_named_list() -> None:
    found = lists.add("add milk and eggs to my shopping list", pin("x"))
    assert found is not None
    assert found.constraints == {"listName": "shopping"} and found.changes == {"items": ["milk", "eggs"]}


def test_add_with_no_list_named_is_a_guess_at_the_shopping_list() -> None:
    found = lists.add_bare("add milk", pin("add milk"))
    assert found is not None and found.confidence == GUESS
    assert found.constraints == {"listName": "shopping"}
    assert lists.add_bare("add dentist on friday at 3", pin("x")) is None  # a time: no thing to buy


def test_ran_out() -> None:
    found = lists.ran_out("we're out of olive oil", pin("x"))
    assert found is not None and found.changes == {"items": ["olive oil"]}
    assert lists.ran_out("I'm out of ideas", pin("x")) is None


def test_more_of_the_same_after_items_were_added() -> None:
    added = latest("lists", "milk").model_copy(
        update={"action": "add", "external_ids": {"listKey": "shopping"}}
    )
    found = lists.more("and eggs too", pin("and eggs too", actions=(added,)))
    assert found is not None and found.changes == {"items": ["eggs"]}


def test_the_items_an_answer_names() -> None:
    assert lists.answered_items("milk and eggs") == ["milk", "eggs"]
    assert lists.answered_items("put bread on the list") == ["bread"]
    assert lists.answered_items("it") == []
