"""Reminder deletes: pinned ids, no read first; what changed since the approval is left alone."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from memo.capabilities.dispatch import CapabilityDispatcher
from memo.text.series import MOST_SKIPPED
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


def test_a_vanished_target_is_not_found(executor: CapabilityDispatcher) -> None:
    result = executor.execute("reminders", "delete", {"reminderIds": ["gone"]}, ctx())
    assert not result.success and result.error_code == "NOT_FOUND"
    assert result.error == "I couldn't find that reminder anymore."


def test_a_reminder_changed_after_the_approval_is_left_with_its_schedule(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    created = executor.execute("reminders", "create", {"title": "call mom", "when": LATER}, ctx())
    rid = str(created.external_ids["reminderId"])
    repo.changed_at[(THREAD, rid)] = NOW
    asked = ctx("s2", unchanged_since=NOW - timedelta(minutes=5))
    result = executor.execute("reminders", "delete", {"reminderIds": [rid]}, asked)
    assert not result.success and result.error_code == "CHANGED_SINCE_APPROVAL"
    assert repo.get_reminder(THREAD, rid) is not None and f"reminder-{rid}" in scheduler.schedules


def test_delete_all_counts_what_was_gone(executor: CapabilityDispatcher, repo: FakeItemsRepository) -> None:
    created = executor.execute("reminders", "create", {"title": "a", "when": LATER}, ctx())
    rid = str(created.external_ids["reminderId"])
    result = executor.execute("reminders", "delete_all", {"reminderIds": [rid, "gone"]}, ctx("s2"))
    assert result.success and result.data["count"] == 1 and result.data["gone"] == 1
    assert result.external_ids == {"reminderIds": [rid]} and not repo.reminders


def test_a_skip_of_some_days_skips_each_time_then_and_undo_keeps_the_series_as_it_was(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    created = executor.execute(
        "reminders", "create", {"title": "gym", "when": LATER, "recurrence": "FREQ=WEEKLY;BYDAY=TU,TH"}, ctx()
    )
    rid = str(created.external_ids["reminderId"])
    before = repo.get_reminder(THREAD, rid)
    assert before is not None and before.recurrence is not None
    # LATER is Tue 10 Mar: the week after it, its Tuesday and Thursday.
    args = {"reminderIds": [f"{rid}~occurrence"], "skipFrom": "2026-03-15", "skipUntil": "2026-03-22"}
    result = executor.execute("reminders", "delete", args, ctx("s2"))
    assert result.success and result.summary == (
        "skipped “gym” on Tue 17 Mar, 18:30 and Thu 19 Mar, 18:30; it still comes on the other days (next: Tue 10 Mar, 18:30)"
    )
    after = repo.get_reminder(THREAD, rid)
    assert after is not None and after.due_at == before.due_at  # its next time is not one of them
    # The week named, from its Sunday (Israel) to the next: each time in it is skipped.
    assert after.recurrence == before.recurrence and after.skips == "20260315T000000/20260322T000000"
    assert "undoUntil" in result.data
    # Days it does not come on: nothing is skipped, and it is said so.
    none = {"reminderIds": [f"{rid}~occurrence"], "skipFrom": "2026-03-16", "skipUntil": "2026-03-17"}
    missed = executor.execute("reminders", "delete", none, ctx("s3"))
    assert not missed.success and missed.error_code == "NOT_FOUND"
    assert repo.get_reminder(THREAD, rid) == after


def test_a_series_skips_at_most_its_bound_of_stretches_and_one_more_is_refused_unchanged(
    executor: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    created = executor.execute(
        "reminders", "create", {"title": "pills", "when": LATER, "recurrence": "FREQ=DAILY"}, ctx()
    )
    rid = str(created.external_ids["reminderId"])
    first = date(2026, 3, 12)
    for n in range(MOST_SKIPPED):  # every other day, each its own stretch: at the bound
        day = first + timedelta(days=2 * n)
        args = {
            "reminderIds": [f"{rid}~occurrence"],
            "skipFrom": day.isoformat(),
            "skipUntil": (day + timedelta(days=1)).isoformat(),
        }
        assert executor.execute("reminders", "delete", args, ctx(f"s{n}")).success
    kept = repo.get_reminder(THREAD, rid)
    day = first + timedelta(days=2 * MOST_SKIPPED)
    args = {
        "reminderIds": [f"{rid}~occurrence"],
        "skipFrom": day.isoformat(),
        "skipUntil": (day + timedelta(days=1)).isoformat(),
    }
    refused = executor.execute("reminders", "delete", args, ctx("past"))
    assert not refused.success and refused.error_code == "TOO_MANY_SKIPS"
    assert refused.error == (
        f"“pills” already skips {MOST_SKIPPED} stretches of days ahead, so I haven't skipped more. "
        "You can stop it and set it again."
    )
    assert repo.get_reminder(THREAD, rid) == kept


@pytest.mark.parametrize(
    "days", [{"skipFrom": "2026-03-15", "skipUntil": "2026-03-22"}, {}], ids=["some-days", "next-time"]
)
def test_a_skip_of_a_series_changed_after_the_approval_is_left_as_it_is(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, days: dict[str, str]
) -> None:
    created = executor.execute(
        "reminders", "create", {"title": "gym", "when": LATER, "recurrence": "FREQ=WEEKLY;BYDAY=TU,TH"}, ctx()
    )
    rid = str(created.external_ids["reminderId"])
    before = repo.get_reminder(THREAD, rid)
    repo.changed_at[(THREAD, rid)] = NOW  # moved after the question was asked
    asked = ctx("s2", unchanged_since=NOW - timedelta(minutes=5))
    result = executor.execute("reminders", "delete", {"reminderIds": [f"{rid}~occurrence"], **days}, asked)
    assert not result.success and result.error_code == "CHANGED_SINCE_APPROVAL"
    assert result.data["skip"] is True and [c["title"] for c in result.data["changed"]] == ["gym"]
    assert repo.get_reminder(THREAD, rid) == before
    # Unchanged since the question: skipped.
    result = executor.execute(
        "reminders", "delete", {"reminderIds": [f"{rid}~occurrence"], **days}, ctx("s3", unchanged_since=NOW)
    )
    assert result.success and repo.get_reminder(THREAD, rid) != before


def test_a_skip_of_a_series_last_times_ends_it_and_keeps_it_for_undo(
    executor: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    # Tue 10 and Thu 12 Mar, then no more: skipping both ends the series.
    rule = "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=2"
    created = executor.execute(
        "reminders", "create", {"title": "gym", "when": LATER, "recurrence": rule}, ctx()
    )
    rid = str(created.external_ids["reminderId"])
    args = {"reminderIds": [f"{rid}~occurrence"], "skipFrom": "2026-03-08", "skipUntil": "2026-03-15"}
    result = executor.execute("reminders", "delete", args, ctx("s2", unchanged_since=NOW))
    assert result.success and repo.get_reminder(THREAD, rid) is None
    assert f"reminder-{rid}" not in scheduler.schedules
    kept = [item for (thread, _key), items in repo.bin.items() if thread == THREAD for item, _until in items]
    assert [getattr(item, "reminder_id", None) for item in kept] == [rid]  # for "undo"
