from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memo.capabilities.base import ExecutionContext
from memo.capabilities.dispatch import CapabilityDispatcher
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


def test_create_reminder_writes_the_item_and_its_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    result = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    assert result.success
    reminder_id = result.external_ids["reminderId"]
    assert isinstance(reminder_id, str)
    stored = repo.get_reminder(THREAD, reminder_id)
    assert stored is not None and stored.title == "call mom" and stored.status == "scheduled"
    assert stored.schedule_name == f"reminder-{reminder_id}"
    assert scheduler.schedules[stored.schedule_name][2] == datetime.fromisoformat(LATER)
    assert scheduler.schedules[stored.schedule_name][3] == "Asia/Jerusalem"
    assert result.summary == "reminder “call mom” for Tue 10 Mar, 18:30"
    assert result.when == datetime.fromisoformat(LATER)


def test_a_retried_create_makes_no_second_reminder(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    first = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    second = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    assert first.external_ids == second.external_ids
    assert len(repo.reminders) == 1 and len(scheduler.schedules) == 1


def test_create_in_the_past_is_refused_in_hebrew(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    result = executor.execute(
        "reminders",
        "create",
        {"title": "x", "when": (NOW - timedelta(minutes=1)).isoformat()},
        ctx(language="he"),
    )
    assert not result.success and result.error_code == "TIME_IN_PAST" and result.error == "הזמן הזה כבר עבר."
    assert not repo.reminders


def test_move_rename_and_delete_follow_the_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    rid = created.external_ids["reminderId"]
    assert isinstance(rid, str)
    name = f"reminder-{rid}"
    moved = executor.execute(
        "reminders", "update", {"reminderIds": [rid], "when": "2026-03-11T08:00:00+02:00"}, ctx("s2")
    )
    assert (
        moved.success
        and moved.data["reminders"][0]["previousWhen"] == datetime.fromisoformat(LATER).isoformat()
    )
    assert scheduler.schedules[name][2] == datetime.fromisoformat("2026-03-11T08:00:00+02:00")

    calls = len(scheduler.calls)
    renamed = executor.execute("reminders", "update", {"reminderIds": [rid], "title": "call dad"}, ctx("s3"))
    stored = repo.get_reminder(THREAD, rid)
    assert renamed.success and stored is not None and stored.title == "call dad"
    assert len(scheduler.calls) == calls  # a rename leaves the schedule alone

    deleted = executor.execute("reminders", "delete", {"reminderIds": [rid]}, ctx("s4"))
    assert deleted.success and deleted.data["deleted"][0]["title"] == "call dad"
    assert name not in scheduler.schedules and not repo.reminders


def test_a_vanished_target_is_not_found(executor: CapabilityDispatcher) -> None:
    result = executor.execute("reminders", "delete", {"reminderIds": ["gone"]}, ctx())
    assert not result.success and result.error_code == "NOT_FOUND"
    assert result.error == "I couldn't find that reminder anymore."


def test_list_and_delete_all_reminders(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    executor.execute("reminders", "create", {"title": "a", "when": LATER}, ctx("s1"))
    executor.execute("reminders", "create", {"title": "b", "when": "2026-03-12T09:00:00+02:00"}, ctx("s2"))
    listed = executor.execute("reminders", "list", {}, ctx("s3"))
    assert [r["title"] for r in listed.data["reminders"]] == ["a", "b"]
    on_day = executor.execute("reminders", "list", {"day": "2026-03-12"}, ctx("s4"))
    assert [r["title"] for r in on_day.data["reminders"]] == ["b"]
    week = executor.execute("reminders", "list", {"day": "2026-03-10", "until": "2026-03-11"}, ctx("s4"))
    assert [r["title"] for r in week.data["reminders"]] == ["a"] and week.data["until"] == "2026-03-11"
    backwards = executor.execute("reminders", "list", {"day": "2026-03-12", "until": "2026-03-10"}, ctx("s4"))
    assert not backwards.success and backwards.error_code == "INVALID_ARGS"
    cleared = executor.execute("reminders", "delete_all", {}, ctx("s5"))
    assert cleared.data["count"] == 2 and not repo.reminders and not scheduler.schedules


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
