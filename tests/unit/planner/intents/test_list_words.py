"""The words of list commands: list names and the items said."""

from __future__ import annotations

import pytest

from memo.planner.intents import list_words


def test_items_are_split_at_commas_and_and() -> None:
    assert list_words.items_of("milk, eggs and bread") == ["milk", "eggs", "bread"]
    assert list_words.items_of("חלב ולחם") == ["חלב", "לחם"]
    assert list_words.items_of("ויטמינים") == ["ויטמינים"]  # a ו that is part of the word


def test_list_names_and_unnamed_lists() -> None:
    assert list_words.list_name("Shopping list") == "shopping"
    assert list_words.list_name("הקניות") == "קניות"
    assert list_words.unnamed("the") and list_words.unnamed(None) and not list_words.unnamed("todo")
    assert list_words.list_for("what's on the list for the supermarket") == "what's on the supermarket list"


def test_articles_and_run_together_items() -> None:
    assert list_words.no_article("the milk") == "milk"
    assert list_words.no_article("החלב") == "חלב"
    assert list_words.split_run_together(["milk eggs"]) == ["milk", "eggs"]


def test_whole_and_entire_name_no_list() -> None:
    assert list_words.unnamed("whole") and list_words.unnamed("entire")
    assert list_words.list_name("whole shopping list") == "shopping"
    assert not list_words.unnamed("wholefoods")


def test_a_name_with_a_capital_the_keeps_it() -> None:
    assert list_words.items_of("The Matrix and The Godfather") == ["The Matrix", "The Godfather"]
    assert list_words.items_of("the milk") == ["milk"]
    assert list_words.items_of("the Matrix") == ["Matrix"]  # lower-case "the": an article


def test_back_and_again_belong_to_the_sentence_not_the_item() -> None:
    for said in ("eggs back", "back the eggs", "eggs again", "חלב בחזרה", "חלב שוב", "eggs and milk back"):
        assert list_words.items_of(said)[0] in ("eggs", "חלב"), said
    # An item whose name starts with "back" keeps it.
    assert list_words.items_of("back scratcher") == ["back scratcher"]
    assert list_words.items_of("the back scratcher") == ["back scratcher"]


@pytest.mark.parametrize(
    "thing",
    [
        "mac and cheese",
        "macaroni and cheese",
        "fish and chips",
        "half & half",
        "half and half",
        "m&m's",
        "cookies and cream",
        "PB&J",
        "sweet and sour sauce",
        "salt and vinegar chips",
        "ham and cheese",
    ],
)
@pytest.mark.parametrize(
    ("before", "after"), [("", ""), ("eggs, ", ""), ("", " and bread"), ("milk, ", ", tea")]
)
def test_a_thing_whose_name_holds_an_and_is_never_split(thing: str, before: str, after: str) -> None:
    others = [w for w in (before + after).replace(" and ", ",").split(",") if w.strip()]
    items = list_words.items_of(f"{before}{thing}{after}")
    assert thing in items and sorted(items) == sorted([thing, *(w.strip() for w in others)])


def test_two_things_joined_by_and_are_still_two() -> None:
    assert list_words.items_of("salt and pepper") == ["salt", "pepper"]
    assert list_words.items_of("cheese and crackers") == ["cheese", "crackers"]
    assert list_words.items_of("mac, cheese and fish") == ["mac", "cheese", "fish"]


@pytest.mark.parametrize(
    ("items", "places"),
    [
        (["items 2", "3"], ["item 2", "item 3"]),
        (["2", "3"], ["item 2", "item 3"]),
        (["#1", "#12"], ["item 1", "item 12"]),
        (["numbers 4", "5", "6"], ["item 4", "item 5", "item 6"]),
        (["פריטים 1", "3"], ["item 1", "item 3"]),
        (["milk", "2"], ["milk", "2"]),  # a number among things is a thing
        (["2 eggs"], ["2 eggs"]),
        (["100", "3"], ["100", "3"]),
    ],
)
def test_items_said_by_their_numbers_are_places(items: list[str], places: list[str]) -> None:
    assert list_words.by_number(items) == places


@pytest.mark.parametrize(
    "more", ["more", "2 more", "one more", "two more", "some more", "a few more", "another", "a couple more"]
)
@pytest.mark.parametrize("thing", ["milk", "eggs", "olive oil", "paper towels"])
def test_more_of_a_thing_is_the_thing(more: str, thing: str) -> None:
    # "add more milk" put a line "more milk" on the list (and "2 more eggs" would change "12 eggs" to 2).
    assert list_words.items_of(f"{more} {thing}") == [thing]
    assert list_words.items_of(f"bread and {more} {thing}") == ["bread", thing]


@pytest.mark.parametrize(
    ("said", "thing"),
    [("עוד חלב", "חלב"), ("עוד 2 ביצים", "ביצים"), ("עוד שתי ביצים", "ביצים"), ("עוד שמן זית", "שמן זית")],
)
def test_hebrew_more_of_a_thing(said: str, thing: str) -> None:
    assert list_words.items_of(said) == [thing]


@pytest.mark.parametrize("kept", ["extra virgin olive oil", "extra firm tofu", "morels", "moreno cherries"])
def test_things_whose_name_starts_that_way_stay_whole(kept: str) -> None:
    assert list_words.items_of(kept) == [kept]


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("a tomato", "one tomato"),
        ("an egg", "one egg"),
        ("A loaf of bread", "one loaf of bread"),
        ("a few apples", "a few apples"),
        ("a dozen eggs", "a dozen eggs"),
        ("a couple of eggs", "a couple of eggs"),
        ("apples", "apples"),
        ("avocado", "avocado"),
    ],
)
def test_a_thing_said_with_a_is_one_of_it(said: str, expected: str) -> None:
    assert list_words.a_as_one(said) == expected
