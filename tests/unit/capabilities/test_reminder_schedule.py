"""The new time a change gives a reminder, the one-time copy of an occurrence, and a series' skip."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from memo.capabilities.items import Reminder, Tombstone
from memo.capabilities.reminder_args import UpdateReminderArgs
from memo.capabilities.reminder_schedule import ReminderSchedule, new_time
from memo.text.series import series
from tests.unit.capabilities.fakes import FakeItemsRepository, FakeScheduler
from tests.unit.capabilities.support import NOW, THREAD, TZ, ctx

ZONE = ZoneInfo(TZ)
#: 18:30 in Jerusalem, the day after NOW.
DUE = datetime(2026, 3, 11, 18, 30, tzinfo=ZONE)


def _reminder(**more: object) -> Reminder:
    fields: dict[str, object] = {
        "reminder_id": "r-1",
        "thread_id": THREAD,
        "title": "gym",
        "due_at": DUE,
        "timezone": TZ,
        "schedule_name": "reminder-r-1",
        "created_at": NOW,
    }
    return Reminder.model_validate({**fields, **more})


def _args(**changes: object) -> UpdateReminderArgs:
    return UpdateReminderArgs.model_validate({"reminderIds": ["r-1"], **changes})


def test_a_time_alone_keeps_the_day_and_a_day_alone_keeps_the_time() -> None:
    assert new_time(_reminder(), _args(time="09:15"), NOW) == datetime(2026, 3, 11, 9, 15, tzinfo=ZONE)
    assert new_time(_reminder(), _args(day="2026-03-13"), NOW) == datetime(2026, 3, 13, 18, 30, tzinfo=ZONE)
    assert new_time(_reminder(), _args(shiftMinutes=-30), NOW) == DUE - timedelta(minutes=30)
    assert new_time(_reminder(), _args(title="run"), NOW) is None


def test_a_morning_hour_already_past_that_day_is_the_evening() -> None:
    today = _reminder(due_at=datetime(2026, 3, 10, 18, 30, tzinfo=ZONE))  # NOW is 11:00 there
    assert new_time(today, _args(time="09:00", eitherHalf=True), NOW) == datetime(
        2026, 3, 10, 21, 0, tzinfo=ZONE
    )


@given(
    due=st.tuples(st.integers(0, 23), st.sampled_from([0, 15, 30, 45])),
    said=st.tuples(st.integers(1, 11), st.sampled_from([0, 15, 30, 45])),
)
def test_an_hour_without_am_pm_is_in_the_half_nearer_the_reminder(
    due: tuple[int, int], said: tuple[int, int]
) -> None:
    # The reminder two days ahead (nothing of that day has passed): of the hour said and 12 hours
    # later, the one nearer its time; a tie keeps the hour as said ("make that 8:30" of 17:00: 20:30).
    reminder = _reminder(due_at=datetime(2026, 3, 12, *due, tzinfo=ZONE))
    got = new_time(reminder, _args(time=f"{said[0]:02d}:{said[1]:02d}", eitherHalf=True), NOW)
    morning = datetime(2026, 3, 12, *said, tzinfo=ZONE)
    evening = morning + timedelta(hours=12)
    nearer = evening if abs(evening - reminder.due_at) < abs(morning - reminder.due_at) else morning
    assert got == nearer
    assert new_time(reminder, _args(time=f"{said[0]:02d}:{said[1]:02d}"), NOW) == morning  # "08:30": as said


def test_skipping_the_next_time_of_a_series_moves_it_to_the_one_after() -> None:
    repo, scheduler = FakeItemsRepository(), FakeScheduler()
    rule = series("FREQ=DAILY", DUE, TZ)
    weekly = _reminder(recurrence=rule)
    repo.put_reminder(weekly)
    undo = Tombstone(key="wamid.1", until=NOW + timedelta(minutes=10))
    after = ReminderSchedule(repo, scheduler, lambda: NOW).skip(weekly, NOW, undo=undo)
    assert after is not None and after.due_at == DUE + timedelta(days=1)


def test_skipping_the_last_time_of_a_series_keeps_it_for_undo() -> None:
    repo, scheduler = FakeItemsRepository(), FakeScheduler()
    last = _reminder(recurrence=series("FREQ=DAILY;COUNT=1", DUE, TZ))
    repo.put_reminder(last)
    undo = Tombstone(key="wamid.1", until=NOW + timedelta(minutes=10))
    ReminderSchedule(repo, scheduler, lambda: NOW).skip(last, NOW, undo=undo)
    assert repo.get_reminder(THREAD, last.reminder_id) is None
    assert [item for item, _until in repo.bin[(THREAD, "wamid.1")]] == [last]  # a tombstone, not a delete


def test_a_one_time_copy_takes_the_occurrence_with_its_own_schedule() -> None:
    repo, scheduler = FakeItemsRepository(), FakeScheduler()
    source = _reminder(recurrence=series("FREQ=DAILY", DUE, TZ))
    copy = ReminderSchedule(repo, scheduler, lambda: NOW).one_time_copy(
        source, ctx(), when=DUE + timedelta(hours=1), title="gym later", now=NOW
    )
    assert copy.reminder_id != source.reminder_id and copy.recurrence is None
    assert repo.get_reminder(THREAD, copy.reminder_id) == copy
    assert copy.schedule_name in scheduler.schedules
