"""Showing one list, all lists, and a list "for tomorrow" (a day's reminders)."""

from __future__ import annotations

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
