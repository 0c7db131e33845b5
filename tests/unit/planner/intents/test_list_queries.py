"""Showing one list, all lists, and a list "for tomorrow" (a day's reminders)."""

from __future__ import annotations

import pytest

from memo.capabilities.lists import UNNAMED_LIST
from memo.planner.intents import list_queries
from tests.unit.planner.conftest import pin


def test_show_a_named_list_and_an_unnamed_one() -> None:
    named = list_queries.show("what's on my shopping list?", pin("x"))
    assert named is not None and named.constraints == {"listName": "shopping"}
    unnamed = list_queries.show("מה יש ברשימה", pin("x"))
    assert unnamed is not None and unnamed.constraints == {"listName": UNNAMED_LIST}


def test_what_to_buy_is_the_shopping_list() -> None:
    found = list_queries.show("what do I need to buy?", pin("x"))
    assert found is not None and found.constraints == {"listName": "shopping"}


def test_a_list_for_a_day_is_that_days_reminders() -> None:
    found = list_queries.show("what's on my list for tomorrow?", pin("x"))
    assert found is not None and found.capability == "reminders"
    assert found.constraints == {"day": "2024-05-02"}


def test_all_lists() -> None:
    found = list_queries.show_all("what lists do I have?", pin("x"))
    assert found is not None and found.action == "show_all"
    assert list_queries.show_all("my shopping list", pin("x")) is None


def test_a_list_named_after_the_word_list_in_hebrew() -> None:
    for message, name in (
        ("תראה לי את הרשימה של הסופר", "סופר"),
        ("מה יש ברשימה לסופר", "סופר"),
        ("מה יש ברשימה של הבית מרקחת", "בית מרקחת"),
        ("תראה לי את רשימת המשימות שלי", "משימות"),
    ):
        found = list_queries.show(message, pin(message))
        assert found is not None and found.constraints == {"listName": name}, message


def test_a_day_after_the_word_list_is_still_that_days_reminders() -> None:
    found = list_queries.show("מה יש ברשימה למחר", pin("x"))
    assert found is not None and (found.capability, found.constraints) == ("reminders", {"day": "2024-05-02"})


def test_the_whole_list_is_the_list_not_a_list_named_whole() -> None:
    for message, name in (
        ("show me the whole list", UNNAMED_LIST),
        ("show me the entire list", UNNAMED_LIST),
        ("show me the whole shopping list", "shopping"),
    ):
        found = list_queries.show(message, pin(message))
        assert found is not None and found.constraints == {"listName": name}, message


def test_what_lists_in_hebrew() -> None:
    found = list_queries.show_all("מה הרשימות שלי", pin("x"))
    assert found is not None and found.action == "show_all"


def test_showing_a_list_in_more_words() -> None:
    for message, name in (
        ("תשלח לי את רשימת הקניות", "קניות"),
        ("מה יש לי ברשימת המשימות?", "משימות"),
        ("מה נשאר ברשימת הקניות?", "קניות"),
        ("מה רשום ברשימת הקניות?", "קניות"),
        ("תראה לי מה יש ברשימת המשימות", "משימות"),
        ("איזה סרטים יש ברשימה?", "סרטים"),
        ("מה צריך לקנות היום בסופר?", "סופר"),
        ("show me what's on my grocery list", "grocery"),
        ("what's left on my shopping list?", "shopping"),
    ):
        found = list_queries.show(message, pin(message))
        assert found is not None and found.constraints == {"listName": name}, message


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("מה נשאר ברשימה?", "default"),
        ("מה עוד יש ברשימה", "default"),
        ("מה אני צריך לקנות?", "קניות"),
        ("מה אנחנו צריכים לקנות", "קניות"),
    ],
)
def test_hebrew_what_is_left_and_what_to_buy_show_the_list(said: str, name: str) -> None:
    found = list_queries.show(said, pin(said))
    assert found is not None and found.action == "show" and found.constraints == {"listName": name}


@pytest.mark.parametrize("verb", ["show", "show me", "open", "see", "view", "read", "Show"])
@pytest.mark.parametrize("name", ["groceries", "shopping", "todo", "packing", "movies"])
def test_a_list_everybody_keeps_named_alone_after_a_verb_that_shows(verb: str, name: str) -> None:
    found = list_queries.show(f"{verb} {name}", pin("x"))
    assert found is not None and found.action == "show"
    assert found.constraints == {"listName": name}


@pytest.mark.parametrize(
    "message", ["show camping", "open the door", "see you", "read my mind", "show me how"]
)
def test_other_words_after_a_verb_that_shows_are_not_a_list(message: str) -> None:
    assert list_queries.show(message, pin("x")) is None
