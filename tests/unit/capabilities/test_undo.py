"""Undo of a delete or clear: tombstoned by the destructive step, restored once by
`items/undo` within 10 minutes, rescheduled when the reminder's time is still ahead."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import permutations
from typing import Any

import pytest

from memo.capabilities.base import ExecutionContext
from memo.capabilities.common import UNDO_UNTIL
from memo.capabilities.dispatch import CapabilityDispatcher
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
# Times of the reminders, from the injected clock's NOW (never the process clock's date).
LATER = (NOW + timedelta(hours=7, minutes=30)).isoformat()
SOONER = (NOW + timedelta(hours=1)).isoformat()


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


@pytest.fixture
def scheduler() -> FakeScheduler:
    return FakeScheduler()


@pytest.fixture
def executor(repo: FakeItemsRepository, scheduler: FakeScheduler, clock: Clock) -> CapabilityDispatcher:
    return CapabilityDispatcher(repo, scheduler, clock)


def ctx(trace: str, step_id: str = "s1", language: Any = "en") -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD,
        trace_id=trace,
        step_id=step_id,
        timezone="Asia/Jerusalem",
        language=language,
        now=NOW,
    )


def _create(executor: CapabilityDispatcher, title: str, when: str = LATER) -> str:
    result = executor.execute("reminders", "create", {"title": title, "when": when}, ctx(f"wamid.c-{title}"))
    reminder_id = result.external_ids["reminderId"]
    assert isinstance(reminder_id, str)
    return reminder_id


def test_a_deleted_reminder_comes_back_once_with_its_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler, clock: Clock
) -> None:
    mom = _create(executor, "call mom")
    deleted = executor.execute("reminders", "delete", {"reminderIds": [mom]}, ctx("wamid.del"))
    assert deleted.success and deleted.data[UNDO_UNTIL] == (NOW + timedelta(minutes=10)).isoformat()
    assert repo.get_reminder(THREAD, mom) is None and scheduler.schedules == {}
    clock.now = NOW + timedelta(minutes=9, seconds=59)
    undone = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap"))
    assert undone.success and undone.capability == "reminders" and undone.action == "undo"
    assert undone.data["restored"] == ["call mom"] and undone.external_ids == {"reminderIds": [mom]}
    assert repo.get_reminder(THREAD, mom) is not None
    assert next(iter(scheduler.schedules.values()))[0] == mom  # scheduled again
    again = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap2"))
    assert not again.success and again.error_code == "NOTHING_TO_UNDO"


def test_after_ten_minutes_nothing_comes_back(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, clock: Clock
) -> None:
    mom = _create(executor, "call mom")
    executor.execute("reminders", "delete_all", {"reminderIds": [mom]}, ctx("wamid.del"))
    clock.now = NOW + timedelta(minutes=10)
    late = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap", language="he"))
    assert late.error_code == "NOTHING_TO_UNDO" and late.error is not None and "10" in late.error
    assert repo.get_reminder(THREAD, mom) is None


def test_a_reminder_whose_time_passed_in_the_bin_comes_back_without_a_schedule(
    executor: CapabilityDispatcher, scheduler: FakeScheduler, clock: Clock
) -> None:
    soon = _create(executor, "boil eggs", when=(NOW + timedelta(minutes=5)).isoformat())
    executor.execute("reminders", "delete", {"reminderIds": [soon]}, ctx("wamid.del"))
    clock.now = NOW + timedelta(minutes=6)
    undone = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap"))
    assert undone.success and undone.data["timePassed"] == ["boil eggs"]
    assert scheduler.schedules == {}


def test_undo_brings_back_notes_and_a_cleared_list_but_nothing_of_another_turn(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    executor.execute("lists", "add", {"listName": "shopping", "items": ["milk", "eggs"]}, ctx("wamid.add"))
    note = executor.execute("notes", "save", {"text": "gate code"}, ctx("wamid.note")).external_ids["noteId"]
    cleared = executor.execute("lists", "clear", {"listName": "shopping"}, ctx("wamid.clear"))
    assert cleared.data["count"] == 2 and UNDO_UNTIL in cleared.data
    executor.execute("notes", "delete", {"noteIds": [note]}, ctx("wamid.other"))
    undone = executor.execute("items", "undo", {"undoKey": "wamid.clear"}, ctx("wamid.tap"))
    assert sorted(undone.data["restored"]) == ["eggs", "milk"] and undone.capability == "lists"
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["milk", "eggs"]
    assert repo.list_notes(THREAD) == []  # the other turn's delete stays


def test_clear_with_pinned_ids_leaves_items_added_after_the_approval(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    added = executor.execute("lists", "add", {"listName": "shopping", "items": ["milk"]}, ctx("wamid.a1"))
    pinned = added.external_ids["listItemIds"]
    executor.execute("lists", "add", {"listName": "shopping", "items": ["bread"]}, ctx("wamid.a2"))
    cleared = executor.execute("lists", "clear", {"listName": "shopping", "itemIds": pinned}, ctx("wamid.c"))
    assert cleared.data["count"] == 1
    assert [i.text for i in repo.list_items(THREAD, "shopping")] == ["bread"]


def test_a_delete_that_deleted_nothing_offers_no_undo(executor: CapabilityDispatcher) -> None:
    result = executor.execute("notes", "delete_all", {"noteIds": []}, ctx("wamid.del"))
    assert result.success and UNDO_UNTIL not in result.data


def test_an_item_added_again_since_the_delete_is_not_restored_a_second_time(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    executor.execute("lists", "add", {"listName": "shopping", "items": ["milk", "eggs"]}, ctx("wamid.add"))
    executor.execute("lists", "clear", {"listName": "shopping"}, ctx("wamid.clear"))
    executor.execute("lists", "add", {"listName": "Shopping", "items": ["Milk!"]}, ctx("wamid.again"))
    undone = executor.execute("items", "undo", {"undoKey": "wamid.clear"}, ctx("wamid.tap"))
    assert undone.success and undone.data["restored"] == ["eggs"] and undone.data["alreadyThere"] == ["milk"]
    assert sorted(i.text for i in repo.list_items(THREAD, "shopping")) == ["Milk!", "eggs"]


def test_a_reminder_set_again_at_the_same_time_is_left_and_scheduled_once(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    mom = _create(executor, "call mom")
    executor.execute("reminders", "delete", {"reminderIds": [mom]}, ctx("wamid.del"))
    executor.execute("reminders", "create", {"title": "Call Mom", "when": LATER}, ctx("wamid.again"))
    undone = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap"))
    assert undone.success and undone.data["restored"] == [] and undone.data["alreadyThere"] == ["call mom"]
    assert undone.external_ids == {} and undone.capability == "reminders"
    assert [r.title for r in repo.list_reminders(THREAD)] == ["Call Mom"] and len(scheduler.schedules) == 1
    # Once the one there again is deleted too, the first one is missing again: the undo brings it back.
    executor.execute("reminders", "delete_all", {}, ctx("wamid.del2"))
    assert executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap2")).data[
        "restored"
    ] == ["call mom"]


def test_a_note_saved_again_is_left_and_another_one_comes_back(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    gate = executor.execute("notes", "save", {"text": "gate code 1234"}, ctx("wamid.n1")).external_ids[
        "noteId"
    ]
    wifi = executor.execute("notes", "save", {"text": "wifi hunter2"}, ctx("wamid.n2")).external_ids["noteId"]
    executor.execute("notes", "delete", {"noteIds": [gate, wifi]}, ctx("wamid.del"))
    executor.execute("notes", "save", {"text": "Gate code: 1234"}, ctx("wamid.n3"))
    undone = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap", language="he"))
    assert undone.data["restored"] == ["wifi hunter2"] and undone.data["alreadyThere"] == ["gate code 1234"]
    assert len(repo.list_notes(THREAD)) == 2


@pytest.mark.parametrize("store_order", list(permutations(range(3))))
def test_restored_reminders_are_named_by_time_then_title_whatever_order_the_store_gives(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, store_order: tuple[int, ...]
) -> None:
    # Was the store's order, which differs from run to run: "restored “b”, “a”" one time, "“a”, “b”" the next.
    ids = [
        _create(executor, "water plants", when=LATER),
        _create(executor, "call mom", when=LATER),
        _create(executor, "buy bread", when=SOONER),
    ]
    executor.execute("reminders", "delete", {"reminderIds": ids}, ctx("wamid.del"))
    key = (THREAD, "wamid.del")
    repo.bin[key] = [repo.bin[key][i] for i in store_order]
    undone = executor.execute("items", "undo", {"undoKey": "wamid.del"}, ctx("wamid.tap"))
    assert undone.data["restored"] == ["buy bread", "call mom", "water plants"]
    assert undone.summary == "restored “buy bread”, “call mom”, “water plants”"


def test_what_a_request_added_or_saved_comes_off_again_once(
    executor: CapabilityDispatcher, clock: Clock
) -> None:
    executor.execute("lists", "add", {"listName": "shopping", "items": ["apples"]}, ctx("t-before"))
    executor.execute("lists", "add", {"listName": "shopping", "items": ["eggs", "bread"]}, ctx("t-add"))
    executor.execute("notes", "save", {"text": "wifi is moon7"}, ctx("t-add", "s2"))
    clock.now = NOW + timedelta(minutes=5)
    result = executor.execute("items", "undo", {"undoKey": "t-add"}, ctx("t-undo"))
    assert result.success
    assert result.data["takenOff"] == [
        {"text": "eggs", "list": "shopping"},
        {"text": "bread", "list": "shopping"},
    ]
    assert result.data["deletedAgain"] == ["wifi"]  # a note is named by its subject
    shown = executor.execute("lists", "show", {"listName": "shopping"}, ctx("t-show"))
    assert shown.data["items"] == ["apples"]  # what was there before stays
    again = executor.execute("items", "undo", {"undoKey": "t-add"}, ctx("t-undo-2"))
    assert not again.success and again.error_code == "NOTHING_TO_UNDO"


def test_an_added_item_changed_since_or_after_the_window_stays(
    executor: CapabilityDispatcher, clock: Clock
) -> None:
    added = executor.execute("lists", "add", {"listName": "shopping", "items": ["eggs"]}, ctx("t-add"))
    (item_id,) = added.external_ids["listItemIds"]
    clock.now = NOW + timedelta(minutes=1)
    executor.execute(
        "lists", "update", {"listName": "shopping", "itemIds": [item_id], "text": "12 eggs"}, ctx("t-change")
    )
    result = executor.execute("items", "undo", {"undoKey": "t-add"}, ctx("t-undo"))
    assert not result.success and result.error_code == "CHANGED_AGAIN"
    executor.execute("lists", "add", {"listName": "shopping", "items": ["milk"]}, ctx("t-late"))
    clock.now = NOW + timedelta(minutes=11)
    late = executor.execute("items", "undo", {"undoKey": "t-late"}, ctx("t-undo-late"))
    assert not late.success and late.error_code == "NOTHING_TO_UNDO"
