"""Repeating reminders, snooze and done in the capability (fake repository and scheduler)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from memo.capabilities.base import ExecutionContext
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.capabilities.items import Reminder
from memo.capabilities.reminder_args import OCCURRENCE, SERIES, scoped_id, split_scoped
from memo.capabilities.reminder_results import on_days
from memo.capabilities.scheduler import recurring_expression
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)
THREAD = "972501234567"
NOW = datetime(2026, 3, 9, 10, 0, tzinfo=ZONE)  # Monday


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
def ops(repo: FakeItemsRepository, scheduler: FakeScheduler, clock: Clock) -> CapabilityDispatcher:
    return CapabilityDispatcher(repo, scheduler, clock)


def ctx(step: str = "s1", trace: str = "wamid.1", language: str = "en") -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD,
        trace_id=trace,
        step_id=step,
        timezone=TZ,
        language=language,
        now=NOW,
    )


def create_daily(ops: CapabilityDispatcher) -> str:
    first = datetime(2026, 3, 10, 8, 0, tzinfo=ZONE).isoformat()
    result = ops.execute(
        "reminders",
        "create",
        {"title": "vitamins", "when": first, "recurrence": "FREQ=DAILY"},
        ctx("s1", "wamid.daily"),
    )
    assert result.success, result.error
    rid = result.external_ids["reminderId"]
    assert isinstance(rid, str)
    return rid


def test_create_stores_the_series_and_one_recurring_schedule(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    rid = create_daily(ops)
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.recurrence == "DTSTART:20260310T080000\nRRULE:FREQ=DAILY"
    assert stored.due_at == datetime(2026, 3, 10, 8, 0, tzinfo=ZONE)
    assert scheduler.series[f"reminder-{rid}"] == stored.recurrence
    assert len(scheduler.schedules) == 1
    assert recurring_expression(stored.recurrence, TZ).expression == "cron(0 8 * * ? *)"


def test_create_summary_says_how_it_repeats(ops: CapabilityDispatcher) -> None:
    first = datetime(2026, 3, 9, 9, 0, tzinfo=ZONE).isoformat()  # a Monday 09:00, already passed
    result = ops.execute(
        "reminders",
        "create",
        {
            "title": "team sync",
            "when": (NOW + timedelta(days=7)).isoformat(),
            "recurrence": "FREQ=WEEKLY;BYDAY=MO",
        },
        ctx("s2", language="he"),
    )
    assert result.success and result.data["repeats"] == "כל יום שני ב-10:00"
    bad = ops.execute(
        "reminders", "create", {"title": "x", "when": first, "recurrence": "FREQ=DAILY; rm -rf"}, ctx("s3")
    )
    assert not bad.success and bad.error_code == "INVALID_ARGS"


def test_delete_this_one_skips_the_next_time_only(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    rid = create_daily(ops)
    result = ops.execute("reminders", "delete", {"reminderIds": [scoped_id(rid, OCCURRENCE)]}, ctx("s2"))
    assert result.success
    assert result.summary == "skipped “vitamins” on Tue 10 Mar, 08:00; the next one is Wed 11 Mar, 08:00"
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.due_at == datetime(2026, 3, 11, 8, 0, tzinfo=ZONE)
    assert f"reminder-{rid}" in scheduler.schedules  # the one recurring schedule stays


def test_delete_the_whole_series(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    rid = create_daily(ops)
    result = ops.execute("reminders", "delete", {"reminderIds": [scoped_id(rid, SERIES)]}, ctx("s2"))
    assert result.success and result.data["deleted"][0]["id"] == rid
    assert repo.get_reminder(THREAD, rid) is None and scheduler.schedules == {}


def test_move_the_series_to_a_new_time_of_day(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    rid = create_daily(ops)
    result = ops.execute("reminders", "update", {"reminderIds": [rid], "time": "07:15"}, ctx("s2"))
    assert result.success
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.recurrence == "DTSTART:20260310T071500\nRRULE:FREQ=DAILY"
    assert scheduler.series[f"reminder-{rid}"] == stored.recurrence


def test_move_this_one_makes_a_one_time_reminder_and_the_series_skips(
    ops: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    rid = create_daily(ops)
    result = ops.execute(
        "reminders", "update", {"reminderIds": [scoped_id(rid, OCCURRENCE)], "time": "12:00"}, ctx("s2")
    )
    assert result.success
    [single] = result.data["reminders"]
    assert single["when"] == datetime(2026, 3, 10, 12, 0, tzinfo=ZONE).isoformat() and "repeats" not in single
    series = repo.get_reminder(THREAD, rid)
    assert series is not None and series.due_at == datetime(2026, 3, 11, 8, 0, tzinfo=ZONE)


def test_a_time_alone_keeps_a_one_time_reminders_day(
    ops: CapabilityDispatcher, repo: FakeItemsRepository
) -> None:
    thursday = datetime(2026, 3, 12, 9, 0, tzinfo=ZONE).isoformat()
    created = ops.execute("reminders", "create", {"title": "book flights", "when": thursday}, ctx())
    rid = str(created.external_ids["reminderId"])
    ops.execute("reminders", "update", {"reminderIds": [rid], "time": "18:00"}, ctx("s2"))
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.due_at == datetime(2026, 3, 12, 18, 0, tzinfo=ZONE)
    ops.execute("reminders", "update", {"reminderIds": [rid], "day": "2026-03-13"}, ctx("s3"))
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.due_at == datetime(2026, 3, 13, 18, 0, tzinfo=ZONE)


def test_snooze_moves_a_one_time_reminder_and_copies_a_repeating_one(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler, clock: Clock
) -> None:
    once = ops.execute(
        "reminders", "create", {"title": "call mom", "when": (NOW + timedelta(hours=1)).isoformat()}, ctx()
    )
    rid = str(once.external_ids["reminderId"])
    clock.now = NOW + timedelta(hours=1)
    snoozed = ops.execute("reminders", "snooze", {"reminderId": rid, "minutes": 10}, ctx("snooze", "wamid.2"))
    assert snoozed.success and snoozed.external_ids["reminderId"] == rid
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.due_at == NOW + timedelta(hours=1, minutes=10)
    assert stored.status == "scheduled" and f"reminder-{rid}" not in scheduler.series

    daily = create_daily(ops)
    copy = ops.execute("reminders", "snooze", {"reminderId": daily, "minutes": 60}, ctx("snooze", "wamid.3"))
    assert copy.success and copy.external_ids["reminderId"] != daily
    assert f"reminder-{daily}" in scheduler.series  # the series is untouched
    again = ops.execute("reminders", "snooze", {"reminderId": daily, "minutes": 60}, ctx("snooze", "wamid.3"))
    assert again.external_ids == copy.external_ids  # the same tap retried: the same one-time copy


def test_done_finishes_a_snoozed_one_time_reminder_and_only_the_occurrence_of_a_series(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, scheduler: FakeScheduler
) -> None:
    once = ops.execute(
        "reminders", "create", {"title": "call mom", "when": (NOW + timedelta(hours=1)).isoformat()}, ctx()
    )
    rid = str(once.external_ids["reminderId"])
    done = ops.execute("reminders", "done", {"reminderId": rid}, ctx("done", "wamid.2"))
    assert done.success and done.summary == "marked “call mom” done"
    stored = repo.get_reminder(THREAD, rid)
    assert stored is not None and stored.status == "sent" and f"reminder-{rid}" not in scheduler.schedules

    daily = create_daily(ops)
    finished = ops.execute("reminders", "done", {"reminderId": daily}, ctx("done", "wamid.3"))
    assert finished.summary == "marked “vitamins” done for this time; the next one is Tue 10 Mar, 08:00"
    assert f"reminder-{daily}" in scheduler.series
    gone = ops.execute("reminders", "done", {"reminderId": "nope"}, ctx("done", "wamid.4"))
    assert not gone.success and gone.error_code == "NOT_FOUND"


@pytest.mark.parametrize("minutes", [0, -5, 24 * 60 + 1])
def test_snooze_minutes_are_bounded(ops: CapabilityDispatcher, minutes: int) -> None:
    bad = ops.execute("reminders", "snooze", {"reminderId": "r1", "minutes": minutes}, ctx())
    assert not bad.success and bad.error_code == "INVALID_ARGS"


def test_scoped_ids() -> None:
    assert split_scoped(scoped_id("abc", OCCURRENCE)) == ("abc", "occurrence")
    assert split_scoped("abc") == ("abc", None)
    assert split_scoped("abc~other") == ("abc~other", None)


def test_done_on_a_series_in_hebrew_says_for_this_time(ops: CapabilityDispatcher) -> None:
    # Was "כבוצע להפעם": not Hebrew.
    daily = create_daily(ops)
    finished = ops.execute("reminders", "done", {"reminderId": daily}, ctx("done", "wamid.he", "he"))
    assert finished.summary.startswith("סימנתי את „vitamins” כבוצע לפעם הזאת; הבאה ביום ")
    assert "להפעם" not in finished.summary


def _times(series: Reminder, first: date, last: date) -> list[datetime]:
    return on_days([series], first, last, TZ).get(series.reminder_id, [])


@pytest.mark.parametrize("rule", ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=TU,TH,SA", "FREQ=WEEKLY;BYDAY=WE"])
@pytest.mark.parametrize("offset", range(14))
@pytest.mark.parametrize("hour", [6, 9, 21])
def test_this_one_moved_to_a_day_is_that_days_time_else_the_next(
    ops: CapabilityDispatcher, repo: FakeItemsRepository, rule: str, offset: int, hour: int
) -> None:
    first = datetime(2026, 3, 10, 8, 0, tzinfo=ZONE)  # Tuesday
    created = ops.execute(
        "reminders", "create", {"title": "vitamins", "when": first.isoformat(), "recurrence": rule}, ctx()
    )
    rid = str(created.external_ids["reminderId"])
    series = repo.get_reminder(THREAD, rid)
    assert series is not None
    day = (first + timedelta(days=offset)).date()
    to = datetime.combine(day, time(hour), tzinfo=ZONE)
    before = _times(series, first.date(), first.date() + timedelta(days=20))
    result = ops.execute(
        "reminders",
        "update",
        {"reminderIds": [scoped_id(rid, OCCURRENCE)], "when": to.isoformat()},
        ctx("s2"),
    )
    assert result.success, result.error
    after_series = repo.get_reminder(THREAD, rid)
    assert after_series is not None
    after = _times(after_series, first.date(), first.date() + timedelta(days=20))
    on_that_day = [t for t in before if t.date() == day]
    # Only the time on the day said, when the series comes then, else its next time, is gone.
    gone = on_that_day[0] if on_that_day else before[0]
    assert after == [t for t in before if t != gone]
    [single] = result.data["reminders"]
    assert single["when"] == to.isoformat() and "repeats" not in single
