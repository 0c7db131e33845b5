"""Reminder changes: a new time, a new title, a shift, a time of day alone."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from memo.capabilities.dispatch import CapabilityDispatcher
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler
from tests.unit.capabilities.support import LATER, NOW, THREAD, ctx


@pytest.fixture
def repo() -> FakeItemsRepository:
    return FakeItemsRepository()


@pytest.fixture
def scheduler() -> FakeScheduler:
    return FakeScheduler()


@pytest.fixture
def executor(repo: FakeItemsRepository, scheduler: FakeScheduler) -> CapabilityDispatcher:
    return CapabilityDispatcher(repo, scheduler, lambda: NOW)


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


def test_a_time_alone_keeps_the_day_and_a_shift_moves_from_its_own_time(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    rid = str(created.external_ids["reminderId"])
    executor.execute("reminders", "update", {"reminderIds": [rid], "time": "20:00"}, ctx("s2"))
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.due_at == datetime.fromisoformat("2026-03-10T20:00:00+02:00")
    executor.execute("reminders", "update", {"reminderIds": [rid], "shiftMinutes": 60}, ctx("s3"))
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.due_at == datetime.fromisoformat("2026-03-10T21:00:00+02:00")


def test_a_new_time_already_past_changes_nothing(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    rid = str(created.external_ids["reminderId"])
    past = (NOW - timedelta(hours=1)).isoformat()
    result = executor.execute("reminders", "update", {"reminderIds": [rid], "when": past}, ctx("s2"))
    stored = repo.get_reminder(THREAD, rid)
    assert not result.success and result.error_code == "TIME_IN_PAST"
    assert stored is not None and stored.due_at == datetime.fromisoformat(LATER)


def test_a_new_repetition_alone_keeps_its_time_of_day(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    """ "move the plants to mondays": no time said, the series keeps 18:30 (its own, in Jerusalem)."""
    created = executor.execute(
        "reminders", "create", {"title": "plants", "when": LATER, "recurrence": "FREQ=WEEKLY;BYDAY=TU"}, ctx()
    )
    rid = str(created.external_ids["reminderId"])
    moved = executor.execute(
        "reminders", "update", {"reminderIds": [rid], "recurrence": "FREQ=WEEKLY;BYDAY=MO"}, ctx("s2")
    )
    assert moved.success, moved.error
    after = repo.get_reminder(THREAD, rid)
    assert after is not None and after.recurrence is not None and "BYDAY=MO" in after.recurrence
    local = after.due_at.astimezone(ZoneInfo("Asia/Jerusalem"))
    assert (local.weekday(), local.hour, local.minute) == (0, 18, 30) and after.due_at > NOW


@pytest.mark.parametrize("own_hour", [0, 6, 9, 12, 15, 18, 20, 23])
def test_a_series_moved_to_a_morning_hour_said_alone_takes_the_half_nearer_its_time(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, own_hour: int
) -> None:
    # Every Monday at 20:00, moved "to 9" for the whole series, went to 09:00 (one time of it: 21:00).
    zone = ZoneInfo("Asia/Jerusalem")
    first = (NOW + timedelta(days=2)).astimezone(zone).replace(hour=own_hour, minute=30)
    for bare in range(7, 12):
        created = executor.execute(
            "reminders",
            "create",
            {"title": f"trash {bare}", "when": first.isoformat(), "recurrence": "FREQ=WEEKLY"},
            ctx(f"c{bare}"),
        )
        rid = str(created.external_ids["reminderId"])
        args = {"reminderIds": [rid], "time": f"{bare:02d}:00", "eitherHalf": True}
        moved = executor.execute("reminders", "update", args, ctx(f"m{bare}"))
        assert moved.success, moved.error
        after = repo.get_reminder(THREAD, rid)
        assert after is not None
        said, own = bare * 60, own_hour * 60 + 30
        expected = bare + 12 if abs(said + 720 - own) < abs(said - own) else bare
        assert after.due_at.astimezone(zone).hour == expected, (own_hour, bare)
