"""Which list a step means when none was named: the one list that has items, else the person says."""

from __future__ import annotations

import pytest

from memo.capabilities.items import list_key
from memo.domain import PlanStep
from memo.resolution.candidates import Missing
from memo.resolution.list_names import (
    list_for_position,
    list_to_add_to,
    list_to_clear,
    lists_with_items,
    moved_where_it_is,
    named_list_to_clear,
)
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import add_list_item, state_for


def test_the_one_list_with_items_is_the_list_meant() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "milk")
    add_list_item(repo, "i-2", "Shopping", "eggs")
    state = state_for()
    assert list(lists_with_items(state, repo).values()) == ["shopping"]
    assert list_to_add_to(state, repo, {"items": ["bread"]}) == "shopping"
    assert list_to_clear(state, repo) == "shopping"
    assert list_for_position(state, repo) == "shopping"


def test_several_lists_are_named_and_none_is_guessed() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "milk")
    add_list_item(repo, "i-2", "hardware", "nails")
    state = state_for()
    for answer in (
        list_to_add_to(state, repo, {"items": ["bread"]}),
        list_to_clear(state, repo),
        list_for_position(state, repo),
    ):
        assert isinstance(answer, Missing) and "hardware, shopping" in answer.message


def test_no_list_at_all_is_said() -> None:
    state = state_for(language="he")
    assert list_to_clear(state, FakeItemsRepository()) == Missing("הרשימות שלך כבר ריקות.")
    assert list_for_position(state, FakeItemsRepository()) == Missing("הרשימות שלך ריקות.")
    asked = list_to_add_to(state, FakeItemsRepository(), {"items": ["חלב"]})
    assert isinstance(asked, Missing) and "חלב" in asked.message


@pytest.mark.parametrize(
    "said",
    [
        "grocery",
        "Grocery",
        "whole grocery",
        "entire grocery",
        "the whole grocery",
        "my full grocery",
        "groceries",
        "קניות",
        "כל הקניות",
    ],
)
def test_a_named_clear_finds_the_list_its_name_means(said: str) -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "grocery", "milk")
    add_list_item(repo, "i-2", "hardware", "nails")
    assert named_list_to_clear(state_for(), repo, said) in ("grocery", said)
    assert list_key(str(named_list_to_clear(state_for(), repo, said))) == list_key("grocery")


def test_a_named_clear_of_a_list_that_holds_nothing_is_never_a_success() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "grocery", "milk")
    add_list_item(repo, "i-2", "hardware", "nails")
    for said in ("whole garden", "all", "party"):
        asked = named_list_to_clear(state_for(), repo, said)
        assert isinstance(asked, Missing)
        assert (
            asked.message
            == f"You have no “{said}” list. Your lists: grocery, hardware. Which one should I clear?"
        )
    empty = named_list_to_clear(state_for(language="he"), FakeItemsRepository(), "קניות")
    assert empty == Missing("אין כלום ברשימת „קניות”, אז אין מה לנקות.")


def _move(src: str, dst: str, added: str = "milk") -> list[PlanStep]:
    off = PlanStep(
        id="s1",
        capability="lists",
        action="remove",
        constraints={"listName": src},
        changes={"items": ["milk"]},
    )
    on = PlanStep(
        id="s2", capability="lists", action="add", constraints={"listName": dst}, changes={"items": [added]}
    )
    return [off, on]


def _off(steps: list[PlanStep], **args: object) -> str | None:
    return moved_where_it_is(
        state_for(*steps), steps[0], {"listName": "shopping", "itemIds": ["i-1"], **args}
    )


@pytest.mark.parametrize("dst", ["groceries", "Supermarket", "הסופר", "רשימת הקניות", "shopping", "store"])
def test_a_move_to_the_list_the_thing_is_on_is_no_move(dst: str) -> None:
    said = _off(_move("default", dst))
    assert said is not None and "shopping" in said


@pytest.mark.parametrize("dst", ["hardware", "pharmacy", "todo", "shoppingx"])
def test_a_move_to_another_list_is_a_move(dst: str) -> None:
    assert _off(_move("default", dst)) is None


def test_another_thing_put_on_in_its_place_is_an_exchange_not_a_move() -> None:
    # "instead add oat milk": milk comes off the shopping list, and oat milk goes on it.
    assert _off(_move("default", "shopping", added="oat milk")) is None
    assert _off(_move("default", "groceries", added="Milk")) is not None  # the same thing, as typed


def test_only_a_remove_with_an_add_in_its_plan_is_a_move() -> None:
    steps = _move("default", "groceries")
    assert _off(steps[:1]) is None
    state = state_for(*steps)
    assert moved_where_it_is(state, steps[1], {"listName": "shopping"}) is None
    notes = steps[0].model_copy(update={"capability": "notes"})
    assert moved_where_it_is(state, notes, {"listName": "shopping"}) is None
