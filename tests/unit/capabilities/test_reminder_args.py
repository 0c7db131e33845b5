"""The reminder actions' args, and the ids that name a part of a repeating reminder."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from memo.capabilities.reminder_args import (
    OCCURRENCE,
    SERIES,
    CreateReminderArgs,
    DeleteRemindersArgs,
    ListRemindersArgs,
    SnoozeReminderArgs,
    UpdateReminderArgs,
    scoped_id,
    split_scoped,
)
from tests.unit.capabilities.support import LATER


@pytest.mark.parametrize("scope", [OCCURRENCE, SERIES])
def test_a_scoped_id_reads_back_as_the_id_and_its_scope(scope: str) -> None:
    assert split_scoped(scoped_id("r-1", scope)) == ("r-1", scope)


def test_an_id_without_a_known_scope_is_the_id() -> None:
    assert split_scoped("r-1") == ("r-1", None)
    assert split_scoped("r-1~other") == ("r-1~other", None)


def test_a_repetition_is_a_rule_value() -> None:
    assert CreateReminderArgs.model_validate(
        {"title": "gym", "when": LATER, "recurrence": "FREQ=WEEKLY;BYDAY=MO"}
    )
    with pytest.raises(ValidationError):
        CreateReminderArgs.model_validate({"title": "gym", "when": LATER, "recurrence": "every monday"})


@pytest.mark.parametrize(
    "args",
    [
        {"reminderIds": ["r-1"]},  # nothing to change
        {"reminderIds": ["r-1"], "when": LATER, "time": "09:00"},  # a full time and a time of day
        {"reminderIds": ["r-1"], "shiftMinutes": 0},  # a shift of no time
        {"reminderIds": ["r-1"], "time": "15:00", "eitherHalf": True},  # an afternoon hour
        {"reminderIds": ["r-1"], "recurrence": "FREQ=DAILY", "time": "09:00"},  # a part of a first time
        {"reminderIds": ["r-1"], "recurrence": "FREQ=DAILY", "day": "2026-03-12"},
        {"reminderIds": ["r-1"], "hours": "10:00-18:00", "time": "09:00"},  # new hours are the change
        {"reminderIds": ["r-1"], "hours": "10:00-18:00", "recurrence": "FREQ=HOURLY"},
        {"reminderIds": ["r-1"], "hours": "10-18"},  # HH:MM-HH:MM
        {"reminderIds": ["r-1"], "hours": "25:00-18:00"},
    ],
)
def test_an_update_must_change_one_thing_one_way(args: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        UpdateReminderArgs.model_validate(args)


def test_a_repetition_alone_keeps_each_reminders_time_of_day() -> None:
    """ "move the plants to mondays": no first time said; the reminder's own time of day is kept."""
    args = UpdateReminderArgs.model_validate({"reminderIds": ["r-1"], "recurrence": "FREQ=WEEKLY;BYDAY=MO"})
    assert args.when is None and args.recurrence == "FREQ=WEEKLY;BYDAY=MO"


def test_a_range_of_days_needs_its_first_day_before_its_last() -> None:
    assert ListRemindersArgs.model_validate({"day": "2026-03-10", "until": "2026-03-12"}).until is not None
    with pytest.raises(ValidationError):
        ListRemindersArgs.model_validate({"until": "2026-03-12"})


def test_a_new_zone_is_the_whole_change() -> None:
    """A zone change moves the series alone: a known IANA zone, and nothing else with it."""
    assert UpdateReminderArgs.model_validate({"reminderIds": ["r"], "timezone": "Europe/London"})
    for extra in ({"time": "09:00"}, {"title": "x"}, {"when": LATER}, {"shiftMinutes": 10}):
        with pytest.raises(ValidationError):
            UpdateReminderArgs.model_validate({"reminderIds": ["r"], "timezone": "Europe/London", **extra})
    for zone in ("Mars/Olympus", "", "../etc/passwd"):
        with pytest.raises(ValidationError):
            UpdateReminderArgs.model_validate({"reminderIds": ["r"], "timezone": zone})


@pytest.mark.parametrize(
    ("days", "ok"),
    [
        ({"skipFrom": "2026-12-01", "skipUntil": "2026-12-02"}, True),
        ({"skipFrom": "2026-01-01", "skipUntil": "2027-01-02"}, True),  # 366 days: the limit
        ({"skipFrom": "2026-01-01", "skipUntil": "2027-01-03"}, False),  # past it
        ({"skipFrom": "2026-12-01", "skipUntil": "2026-12-01"}, False),  # no day
        ({"skipFrom": "2026-12-02", "skipUntil": "2026-12-01"}, False),
        ({"skipFrom": "2026-12-01"}, False),  # one end only
        ({"skipUntil": "2026-12-01"}, False),
        ({}, True),  # the next time only
    ],
)
def test_the_days_of_a_skip_have_both_ends_in_order_and_at_most_a_year(
    days: dict[str, str], ok: bool
) -> None:
    args = {"reminderIds": ["r-1~occurrence"], **days}
    if ok:
        assert DeleteRemindersArgs.model_validate(args).to_json() == args
    else:
        with pytest.raises(ValidationError):
            DeleteRemindersArgs.model_validate(args)


def test_a_snooze_is_by_minutes_or_to_a_time_one_of_them() -> None:
    at = "2026-05-01T17:00:00+00:00"
    assert SnoozeReminderArgs.model_validate({"reminderId": "r1", "minutes": 10}).minutes == 10
    assert SnoozeReminderArgs.model_validate({"reminderId": "r1", "at": at}).at is not None
    for neither_or_both in ({"reminderId": "r1"}, {"reminderId": "r1", "minutes": 10, "at": at}):
        with pytest.raises(ValidationError):
            SnoozeReminderArgs.model_validate(neither_or_both)
    with pytest.raises(ValidationError):
        SnoozeReminderArgs.model_validate({"reminderId": "r1", "at": "2026-05-01T17:00:00"})  # no zone


def test_new_hours_alone_are_a_change() -> None:
    args = UpdateReminderArgs.model_validate({"reminderIds": ["r-1"], "hours": "10:00-18:00"})
    assert args.hours == "10:00-18:00" and args.recurrence is None
