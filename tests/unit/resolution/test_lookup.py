"""One target's lookup: by place, on some list when none was named, by reference, or by its words."""

from __future__ import annotations

import pytest

from memo.resolution.candidates import Found, Missing
from memo.resolution.lookup import at_position, lookup, on_some_list
from memo.resolution.resolvers import TargetQuery
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_list_item, add_reminder, state_for, step


def test_the_item_at_a_place_of_the_one_list() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "milk")
    add_list_item(repo, "i-2", "shopping", "eggs")
    target = TargetQuery(kind="list_item", text="the second item")
    assert at_position(target, 1, state_for(), repo, NOW) == Found(["i-2"], extra={"listName": "shopping"})
    too_far = at_position(target, 5, state_for(), repo, NOW)
    assert too_far == Missing("Your shopping list has only 2 items.")


@pytest.mark.parametrize("places", [[0, 1], [2, 0, 1], [3, 0], [1, 3, 0, 2]])
def test_items_at_several_places_come_from_one_read_of_the_list(places: list[int]) -> None:
    repo = FakeItemsRepository()
    for n, text in enumerate(["milk", "eggs", "bread", "jam"]):
        add_list_item(repo, f"i-{n}", "shopping", text)
    repo.reads = 0
    target = TargetQuery(kind="list_item", list_name="shopping", texts=[f"item {p + 1}" for p in places])
    found = lookup(step("s1", "lists", "remove"), target, state_for(), repo, NOW, ())
    assert found == Found([f"i-{p}" for p in places], extra={"listName": "shopping"})
    assert repo.reads == 1


def test_a_place_past_the_end_among_several_finds_none_of_them() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "milk")
    add_list_item(repo, "i-2", "shopping", "eggs")
    target = TargetQuery(kind="list_item", list_name="shopping", texts=["item 1", "item 3"])
    found = lookup(step("s1", "lists", "remove"), target, state_for(), repo, NOW, ())
    assert found == Missing("Your shopping list has only 2 items.")


def test_items_named_without_their_list_are_found_on_the_list_that_has_them() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "milk")
    add_list_item(repo, "i-2", "hardware", "nails")
    target = TargetQuery(kind="list_item", texts=["nails"])
    found = on_some_list(step("s1", "lists", "remove"), target, state_for(), repo, NOW)
    assert isinstance(found, Found) and found.ids == ["i-2"] and found.extra["listName"] == "hardware"


def test_words_on_no_list_that_name_a_reminder_say_how_to_delete_it() -> None:
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "milk")
    add_reminder(repo, "r-1", "dentist")
    found = lookup(
        step("s1", "lists", "remove"),
        TargetQuery(kind="list_item", texts=["dentist"]),
        state_for(),
        repo,
        NOW,
        (),
    )
    assert isinstance(found, Missing) and "delete the reminder dentist" in found.message


def test_words_on_no_list_that_name_a_reminder_say_how_to_rename_it_for_a_change() -> None:
    # A list item's rename that meant a reminder said how to delete the reminder.
    repo = FakeItemsRepository()
    add_list_item(repo, "i-1", "shopping", "bread")
    add_reminder(repo, "r-1", "buy milk")
    found = lookup(
        step("s1", "lists", "update"),
        TargetQuery(kind="list_item", texts=["milk"]),
        state_for(),
        repo,
        NOW,
        (),
    )
    assert isinstance(found, Missing) and "rename the reminder buy milk to" in found.message
    assert "delete" not in found.message


def test_it_with_nothing_named_before_and_no_words_is_not_guessed() -> None:
    repo = FakeItemsRepository()
    add_reminder(repo, "r-1", "dentist")
    target = TargetQuery(kind="reminder", ref="latest_action")
    found = lookup(step("s1", "reminders", "delete"), target, state_for(), repo, NOW, ())
    assert found == Missing("I'm not sure what you're referring to.")
