"""Executor args from resolved targets: the entity ids with the semantic args, and the set pinned
by "delete all" / "clear the list"."""

from __future__ import annotations

import pytest

from memo.resolution.entity import resolve_entities
from memo.resolution.executor_args import executor_args_for, pinned_set
from memo.resolution.router import resolve_all
from tests.unit.capabilities.fakes import FakeItemsRepository
from tests.unit.resolution.helpers import NOW, add_list_item, add_note, add_reminder, state_for, step


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


def test_clear_pins_the_items_of_the_list(repo: FakeItemsRepository) -> None:
    add_list_item(repo, "i-milk", "shopping", "milk")
    add_list_item(repo, "i-eggs", "Shopping", "eggs")
    add_list_item(repo, "i-nails", "hardware", "nails")
    state = state_for(step("s1", "lists", "clear", constraints={"listName": "shopping"}))
    out = resolve_entities(resolve_all(state), repo, NOW)
    args = out.state.executor_args["s1"]
    assert args["listName"] == "shopping" and sorted(args["itemIds"]) == ["i-eggs", "i-milk"]


def test_delete_all_pins_the_upcoming_reminders_and_every_note(repo: FakeItemsRepository) -> None:
    add_reminder(repo, "r-1", "a")
    add_note(repo, "n-1", "b")
    state = state_for()
    assert pinned_set(step("s1", "reminders", "delete_all"), state, repo, NOW, {}) == {"reminderIds": ["r-1"]}
    assert pinned_set(step("s1", "notes", "delete_all"), state, repo, NOW, {}) == {"noteIds": ["n-1"]}
    assert pinned_set(step("s1", "lists", "clear"), state, repo, NOW, {}) == {}  # no list named


def test_ids_are_written_once_each_under_the_key_of_the_action() -> None:
    args = executor_args_for(step("s1", "notes", "delete"), {}, ["n-1", "n-2", "n-1"])
    assert args == {"noteIds": ["n-1", "n-2"]}
    removal = executor_args_for(
        step("s1", "lists", "remove"),
        {"listName": "shopping", "resolvedIds": ["i-1"], "notFound": ["wine"]},
        ["i-2", "i-1"],
    )
    assert removal == {"listName": "shopping", "itemIds": ["i-1", "i-2"], "notFound": ["wine"]}


def test_an_action_without_a_target_takes_no_ids() -> None:
    with pytest.raises(ValueError, match="takes no entity ids"):
        executor_args_for(step("s1", "reminders", "create"), {}, ["r-1"])
