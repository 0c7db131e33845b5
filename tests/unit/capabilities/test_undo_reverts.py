"""The undo of an update (`memo.capabilities.undo_reverts`, run by `items/undo`): each item put back
once, a reminder's schedule moved back with it (removed when its time passed or it was sent), an
item changed again since left as it is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memo.capabilities.base import ExecutionContext
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.capabilities.items import Note
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
AT_5 = "2026-03-10T17:00:00+02:00"


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


def ctx(trace: str, language: Any = "en") -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD, trace_id=trace, step_id="s1", timezone="Asia/Jerusalem", language=language, now=NOW
    )


def _undo(executor: CapabilityDispatcher, key: str, language: Any = "en") -> Any:
    return executor.execute("items", "undo", {"undoKey": key}, ctx(f"{key}-undo", language))


def test_a_moved_reminder_and_its_schedule_go_back_once(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": AT_5}, ctx("wamid.c"))
    mom = str(created.external_ids["reminderId"])
    moved = executor.execute("reminders", "update", {"reminderIds": [mom], "time": "19:00"}, ctx("wamid.m"))
    assert moved.success and scheduler.schedules[f"reminder-{mom}"][2].hour == 19
    undone = _undo(executor, "wamid.m")
    assert undone.success and undone.capability == "reminders"
    assert undone.data["reverted"] == [
        {"kind": "reminder", "id": mom, "title": "call mom", "when": "2026-03-10T17:00:00+02:00"}
    ]
    assert scheduler.schedules[f"reminder-{mom}"][2] == datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
    again = _undo(executor, "wamid.m")
    assert not again.success and again.error_code == "NOTHING_TO_UNDO"


def test_a_reminder_whose_time_passed_meanwhile_comes_back_without_a_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler, clock: Clock
) -> None:
    created = executor.execute(
        "reminders", "create", {"title": "tea", "when": "2026-03-10T11:05:00+02:00"}, ctx("wamid.c")
    )
    tea = str(created.external_ids["reminderId"])
    executor.execute("reminders", "update", {"reminderIds": [tea], "time": "19:00"}, ctx("wamid.m"))
    clock.now = NOW + timedelta(minutes=9)  # 11:09 in Jerusalem: 11:05 passed
    undone = _undo(executor, "wamid.m")
    assert undone.data["timePassed"] == ["tea"]
    assert scheduler.schedules == {}  # the 19:00 schedule is gone too: nothing fires


def test_a_note_changed_again_is_left_as_it_is_and_said(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, clock: Clock
) -> None:
    repo.put_note(Note(note_id="n1", thread_id=THREAD, text="gate code is 1234", created_at=NOW))
    executor.execute("notes", "update", {"noteIds": ["n1"], "text": "5678"}, ctx("wamid.u"))
    assert repo.notes[(THREAD, "n1")].text == "gate code is 5678"
    clock.now = NOW + timedelta(minutes=1)
    repo.update_note(
        THREAD, "n1", text="gate code is 9999", expected="gate code is 5678", changed_at=clock.now
    )
    undone = _undo(executor, "wamid.u", "he")
    assert not undone.success and undone.error_code == "CHANGED_AGAIN"
    assert undone.error == "לא ביטלתי: „gate code” השתנה שוב מאז, אז השארתי את זה כמו שזה."
    assert repo.notes[(THREAD, "n1")].text == "gate code is 9999"


def test_a_note_update_re_run_keeps_what_the_first_attempt_replaced(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    repo.put_note(Note(note_id="n1", thread_id=THREAD, text="gate code is 1234", created_at=NOW))
    args = {"noteIds": ["n1"], "text": "5678"}
    executor.execute("notes", "update", args, ctx("wamid.u"))
    rerun = executor.execute("notes", "update", args, ctx("wamid.u"))  # the same step again
    assert rerun.success and rerun.data["text"] == "gate code is 5678"
    undone = _undo(executor, "wamid.u")
    assert undone.data["reverted"] == [{"kind": "note", "text": "gate code is 1234", "subject": "gate code"}]
