"""One list under many names: the shopping list is the same list in English and Hebrew and
under its synonyms, the reply shows the user's own words, and "what lists do I have?" lists them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count

from memo.capabilities.base import ExecutionContext
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.reply.format import format_success
from memo.text.language import Language
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def ctx(step: str, language: Language = "en") -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD,
        trace_id=f"wamid.{step}",
        step_id="s1",
        timezone="Asia/Jerusalem",
        language=language,
        now=NOW,
    )


def test_every_name_of_the_shopping_list_adds_to_one_list() -> None:
    repo = FakeItemsRepository()
    lists = CapabilityDispatcher(repo, FakeScheduler(), lambda: NOW)
    assert lists.execute("lists", "add", {"listName": "shopping", "items": ["milk"]}, ctx("a")).success
    hebrew = lists.execute("lists", "add", {"listName": "קניות", "items": ["חומוס"]}, ctx("b", "he"))
    assert hebrew.data["items"] == ["milk", "חומוס"]
    assert (
        format_success(hebrew, "he", "Asia/Jerusalem") == "הוספתי חומוס לרשימת הקניות."
    )  # the user's words, not "shopping"
    again = lists.execute("lists", "add", {"listName": "סופר", "items": ["milk"]}, ctx("c", "he"))
    assert again.data["alreadyThere"] == ["milk"]
    shown = lists.execute("lists", "show", {"listName": "groceries"}, ctx("d"))
    assert shown.data["items"] == ["milk", "חומוס"]
    assert format_success(shown, "en", "Asia/Jerusalem") == "Your groceries list:\n• milk\n• חומוס"


def test_what_lists_do_i_have() -> None:
    repo = FakeItemsRepository()
    minutes = count()  # each request a minute after the one before (items of one request are in order)
    lists = CapabilityDispatcher(repo, FakeScheduler(), lambda: NOW + timedelta(minutes=next(minutes)))
    empty = lists.execute("lists", "show_all", {}, ctx("a"))
    assert empty.success and empty.data["lists"] == []
    assert (
        format_success(empty, "en", "Asia/Jerusalem")
        == "You have no lists yet. Try: add milk to my shopping list"
    )
    lists.execute("lists", "add", {"listName": "shopping", "items": ["milk", "eggs"]}, ctx("b"))
    lists.execute("lists", "add", {"listName": "todo", "items": ["call the plumber"]}, ctx("c"))
    lists.execute("lists", "add", {"listName": "קניות", "items": ["חומוס"]}, ctx("d", "he"))
    result = lists.execute("lists", "show_all", {}, ctx("e"))
    assert result.data["lists"] == [{"name": "קניות", "count": 3}, {"name": "todo", "count": 1}]
    assert format_success(result, "en", "Asia/Jerusalem") == "Your lists:\n• קניות (3 items)\n• todo (1 item)"
    assert (
        format_success(result, "he", "Asia/Jerusalem")
        == "הרשימות שלך:\n• קניות (3 פריטים)\n• todo (פריט אחד)"
    )


def test_show_all_takes_no_arguments() -> None:
    lists = CapabilityDispatcher(FakeItemsRepository(), FakeScheduler(), lambda: NOW)
    refused = lists.execute("lists", "show_all", {"listName": "x"}, ctx("a"))
    assert not refused.success and refused.error_code == "INVALID_ARGS"
