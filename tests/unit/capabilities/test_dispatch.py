from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memo.capabilities.base import ExecutionContext
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.errors import ItemTooLarge
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
LATER = "2026-03-10T18:30:00+02:00"


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


@pytest.fixture
def scheduler() -> FakeScheduler:
    return FakeScheduler()


@pytest.fixture
def executor(repo: FakeItemsRepository, scheduler: FakeScheduler) -> CapabilityDispatcher:
    return CapabilityDispatcher(repo, scheduler, lambda: NOW)


def ctx(step_id: str = "s1", language: Any = "en", trace: str = "wamid.1") -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD,
        trace_id=trace,
        step_id=step_id,
        timezone="Asia/Jerusalem",
        language=language,
        now=NOW,
    )


def test_notes_save_search_delete(executor: CapabilityDispatcher, repo: FakeItemsRepository) -> None:
    saved = executor.execute("notes", "save", {"text": "wifi password is hunter2"}, ctx("s1"))
    executor.execute("notes", "save", {"text": "גן: להביא כובע"}, ctx("s2"))
    found = executor.execute("notes", "search", {"query": "wifi pasword"}, ctx("s3"))
    assert [n["text"] for n in found.data["notes"]] == ["wifi password is hunter2"]
    everything = executor.execute("notes", "search", {"query": ""}, ctx("s4"))
    assert len(everything.data["notes"]) == 2
    deleted = executor.execute("notes", "delete", {"noteIds": [saved.external_ids["noteId"]]}, ctx("s5"))
    assert deleted.success and len(repo.notes) == 1
    assert executor.execute("notes", "delete_all", {}, ctx("s6")).data["count"] == 1


def test_lists_add_remove_show_clear(executor: CapabilityDispatcher) -> None:
    added = executor.execute("lists", "add", {"listName": "Shopping", "items": ["milk", "eggs"]}, ctx("s1"))
    assert added.data["items"] == ["milk", "eggs"]
    again = executor.execute("lists", "add", {"listName": "shopping ", "items": ["Milk"]}, ctx("s2"))
    assert again.data["alreadyThere"] == ["Milk"] and again.data["items"] == ["milk", "eggs"]
    ids = added.external_ids["listItemIds"]
    removed = executor.execute(
        "lists", "remove", {"listName": "shopping", "itemIds": [ids[0]], "notFound": ["wine"]}, ctx("s3")
    )
    assert removed.data["removed"] == ["milk"] and removed.data["notFound"] == ["wine"]
    assert executor.execute("lists", "show", {"listName": "SHOPPING"}, ctx("s4")).data["items"] == ["eggs"]
    cleared = executor.execute("lists", "clear", {"listName": "shopping"}, ctx("s5"))
    assert cleared.data["count"] == 1
    assert executor.execute("lists", "show", {"listName": "shopping"}, ctx("s6")).data["items"] == []


def test_bad_args_and_unknown_actions_fail_without_raising(executor: CapabilityDispatcher) -> None:
    bad = executor.execute("reminders", "update", {"reminderIds": ["x"]}, ctx())
    assert not bad.success and bad.error_code == "INVALID_ARGS"
    unknown = executor.execute("calendar", "create", {}, ctx(language="he"))
    assert not unknown.success and unknown.error_code == "UNSUPPORTED_ACTION"


class _NoRoom(FakeItemsRepository):
    def add_list_item(self, item: Any, *, undo: Any = None) -> bool:
        raise ItemTooLarge("list_item", 500_000, 400_000)


def test_an_item_over_dynamodbs_limit_is_a_clear_failure_and_nothing_is_stored(
    scheduler: FakeScheduler,
) -> None:
    repo = _NoRoom()
    result = CapabilityDispatcher(repo, scheduler, lambda: NOW).execute(
        "lists", "add", {"listName": "shopping", "items": ["milk"]}, ctx(language="he")
    )
    assert not result.success and result.error_code == "ITEM_TOO_LARGE"
    assert result.error == "זה ארוך מדי בשבילי לשמור, אז לא שמרתי את זה. אפשר לקצר?"
    assert repo.items == {}
