"""Changing one thing on a list (`ListOperations.update`): its words in its place, what it said kept
for undo, a re-run that reports the same change, and what is left alone, in English and Hebrew."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from memo.capabilities.dispatch import CapabilityDispatcher
from memo.capabilities.lists import MAX_ITEM_CHARS, UpdateListItemArgs
from memo.reply.format import format_success
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler
from tests.unit.capabilities.support import NOW, THREAD, TZ, ctx


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


@pytest.fixture
def lists(repo: FakeItemsRepository) -> CapabilityDispatcher:
    dispatcher = CapabilityDispatcher(repo, FakeScheduler(), lambda: NOW)
    added = dispatcher.execute("lists", "add", {"listName": "shopping", "items": ["eggs", "bread"]}, ctx("a"))
    assert added.success
    return dispatcher


def _ids(repo: FakeItemsRepository) -> list[str]:
    return [i.item_id for i in repo.list_items(THREAD, "shopping")]


def test_an_item_gets_its_new_words_in_its_place(
    lists: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    eggs = _ids(repo)[0]
    args = {"listName": "shopping", "itemIds": [eggs], "text": "  12   eggs "}
    reads = repo.reads
    result = lists.execute("lists", "update", args, ctx("b", trace="wamid.2"))
    assert result.success and result.data["from"] == "eggs" and result.data["to"] == "12 eggs"
    assert repo.reads == reads + 1  # the list is read once; what it holds after is that read, changed
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["12 eggs", "bread"]
    assert "undoUntil" in result.data
    assert format_success(result, "en", TZ) == "Changed “eggs” to “12 eggs” on your shopping list."
    assert format_success(result, "he", TZ) == "שיניתי את „eggs” ל„12 eggs” ברשימת הקניות."
    # A re-run of the step finds the words there already: the same change is reported.
    again = lists.execute("lists", "update", args, ctx("b", trace="wamid.2"))
    assert again.success and again.data["to"] == "12 eggs" and again.data["from"] == "12 eggs"
    # Undo gives it its words back.
    undone = lists.execute("items", "undo", {"undoKey": "wamid.2"}, ctx("c", trace="wamid.3"))
    assert undone.success
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["eggs", "bread"]


def test_an_item_gone_or_changed_meanwhile_is_left_as_it_is(
    lists: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    gone = lists.execute(
        "lists", "update", {"listName": "shopping", "itemIds": ["gone"], "text": "x"}, ctx("b")
    )
    assert not gone.success and gone.error_code == "NOT_FOUND"
    assert gone.error == "That item is no longer on the shopping list."
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["eggs", "bread"]


@pytest.mark.parametrize(
    "args",
    [
        {"listName": "shopping", "itemIds": [], "text": "x"},
        {"listName": "shopping", "itemIds": ["a", "b"], "text": "x"},
        {"listName": "shopping", "itemIds": ["a"], "text": ""},
        {"listName": "shopping", "itemIds": ["a"], "text": "x" * (MAX_ITEM_CHARS + 1)},
    ],
    ids=["no-item", "two-items", "no-words", "too-long"],
)
def test_one_item_and_bounded_words(args: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        UpdateListItemArgs.model_validate(args)
    at_the_limit = {**args, "itemIds": ["a"], "text": "x" * MAX_ITEM_CHARS}
    assert UpdateListItemArgs.model_validate(at_the_limit).text == "x" * MAX_ITEM_CHARS


def test_the_same_thing_in_another_amount_changes_its_line(
    lists: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    # "add 6 eggs" with "eggs" on the list put a second line "6 eggs" on it.
    result = lists.execute(
        "lists", "add", {"listName": "shopping", "items": ["6 eggs", "milk"]}, ctx("b", trace="wamid.2")
    )
    assert result.success and result.data["added"] == ["milk"]
    assert result.data["amounts"] == [{"from": "eggs", "to": "6 eggs"}]
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["6 eggs", "bread", "milk"]
    assert format_success(result, "en", TZ) == (
        "Added milk to your shopping list. Changed “eggs” to “6 eggs” on your shopping list."
    )
    # "eggs" with "6 eggs" on it: there already, and a dozen is the amount said last.
    again = lists.execute(
        "lists", "add", {"listName": "shopping", "items": ["eggs"]}, ctx("c", trace="wamid.3")
    )
    assert again.data["alreadyThere"] == ["6 eggs"] and again.data["amounts"] == []
    dozen = lists.execute(
        "lists", "add", {"listName": "shopping", "items": ["a dozen eggs"]}, ctx("d", trace="wamid.4")
    )
    assert dozen.data["amounts"] == [{"from": "6 eggs", "to": "a dozen eggs"}]
    assert format_success(dozen, "he", TZ) == "שיניתי את „6 eggs” ל„a dozen eggs” ברשימת הקניות."
    # Undo of that add gives the line its words back.
    lists.execute("items", "undo", {"undoKey": "wamid.4"}, ctx("e", trace="wamid.5"))
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["6 eggs", "bread", "milk"]


def test_a_rerun_of_an_add_that_changed_an_amount_adds_no_line(
    lists: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    args = {"listName": "shopping", "items": ["2 bread"]}
    first = lists.execute("lists", "add", args, ctx("b", trace="wamid.2"))
    again = lists.execute("lists", "add", args, ctx("b", trace="wamid.2"))
    assert first.data["amounts"] == [{"from": "bread", "to": "2 bread"}]
    assert again.success and again.data["added"] == []
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["eggs", "2 bread"]


def test_some_of_a_line_taken_off_leaves_the_rest_once_and_undo_gives_it_back(
    repo: FakeItemsRepository,
) -> None:
    lists = CapabilityDispatcher(repo, FakeScheduler(), lambda: NOW)
    lists.execute("lists", "add", {"listName": "shopping", "items": ["3 tomatoes", "bread"]}, ctx("a"))
    tomatoes, bread = _ids(repo)
    args = {
        "listName": "shopping",
        "itemIds": [tomatoes, bread],
        "lower": {tomatoes: {"was": "3 tomatoes", "left": "2 tomatoes"}},
    }
    result = lists.execute("lists", "remove", args, ctx("b", trace="wamid.2"))
    assert result.success
    assert result.data["removed"] == ["bread"]
    assert result.data["lowered"] == [{"from": "3 tomatoes", "to": "2 tomatoes"}]
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["2 tomatoes"]
    assert format_success(result, "en", TZ) == (
        "Removed bread from your shopping list. Changed “3 tomatoes” to “2 tomatoes” on your shopping list."
    )
    # A re-run after a crash finds the new words there: never 1 tomato.
    again = lists.execute("lists", "remove", args, ctx("b", trace="wamid.2"))
    assert again.data["lowered"] == [{"from": "3 tomatoes", "to": "2 tomatoes"}]
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["2 tomatoes"]
    undone = lists.execute("items", "undo", {"undoKey": "wamid.2"}, ctx("c", trace="wamid.3"))
    assert undone.success
    assert sorted(i.text for i in repo.list_items(THREAD, "shopping")) == ["3 tomatoes", "bread"]


def test_a_line_changed_since_the_request_was_read_is_left_as_it_is(repo: FakeItemsRepository) -> None:
    lists = CapabilityDispatcher(repo, FakeScheduler(), lambda: NOW)
    lists.execute("lists", "add", {"listName": "shopping", "items": ["3 tomatoes"]}, ctx("a"))
    (tomatoes,) = _ids(repo)
    lists.execute(
        "lists", "update", {"listName": "shopping", "itemIds": [tomatoes], "text": "6 tomatoes"}, ctx("b")
    )
    args = {
        "listName": "shopping",
        "itemIds": [tomatoes],
        "lower": {tomatoes: {"was": "3 tomatoes", "left": "2 tomatoes"}},
    }
    result = lists.execute("lists", "remove", args, ctx("c", trace="wamid.3"))
    assert not result.success
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["6 tomatoes"]


def test_a_line_left_as_it_is_is_said_with_how_to_take_it_off(repo: FakeItemsRepository) -> None:
    lists = CapabilityDispatcher(repo, FakeScheduler(), lambda: NOW)
    lists.execute("lists", "add", {"listName": "shopping", "items": ["2 liters of milk", "bread"]}, ctx("a"))
    _, bread = _ids(repo)
    args = {"listName": "shopping", "itemIds": [bread], "unclear": ["2 liters of milk"]}
    result = lists.execute("lists", "remove", args, ctx("b", trace="wamid.2"))
    assert format_success(result, "he", TZ) == (
        "הורדתי bread מרשימת הקניות. השארתי את „2 liters of milk” כמו שהוא: לא בטוח כמה להוריד ממנו. "
        "כדי להוריד הכול, אפשר לכתוב „תוריד milk”."
    )
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["2 liters of milk"]
