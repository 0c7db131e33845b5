"""One recurring schedule per repeating reminder: its expression, window, and the local ticker's
reading of cron and rate expressions (what EventBridge Scheduler does, on the fake clock)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.capabilities.scheduler import recurring_expression
from memo.local.ticker import recurring_times, restorable
from memo.text.recurrence_units import Frequency, Window
from memo.text.series import next_occurrence, series

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)
START = datetime(2026, 3, 10, 8, 0, tzinfo=ZONE)  # Tuesday


def expression_of(rule: str, first: datetime = START) -> str:
    text = series(rule, first, TZ)
    assert text is not None
    return recurring_expression(text, TZ).expression


@pytest.mark.parametrize(
    ("rule", "expression"),
    [
        ("FREQ=DAILY", "cron(0 8 * * ? *)"),
        ("FREQ=DAILY;INTERVAL=3", "rate(3 days)"),
        ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "cron(0 8 ? * MON,TUE,WED,THU,FRI *)"),
        ("FREQ=WEEKLY", "cron(0 8 ? * TUE *)"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "rate(14 days)"),
        ("FREQ=MONTHLY;BYMONTHDAY=15", "cron(0 8 15 * ? *)"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "cron(0 8 L * ? *)"),  # the last day of every month
        ("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=10", "cron(0 8 10 3/3 ? *)"),
        ("FREQ=MONTHLY;BYDAY=1MO", "cron(0 8 ? * 2#1 *)"),  # the first Monday of every month
        ("FREQ=MONTHLY;BYDAY=-1FR", "cron(0 8 ? * 6L *)"),  # the last Friday
        ("FREQ=MONTHLY;INTERVAL=2;BYDAY=3SU", "cron(0 8 ? 1/2 1#3 *)"),  # from March: Jan too
        ("FREQ=YEARLY;INTERVAL=2", "cron(0 8 10 3 ? 2026/2)"),
        ("FREQ=YEARLY", "cron(0 8 10 3 ? *)"),
        ("FREQ=HOURLY", "rate(1 hour)"),
        ("FREQ=HOURLY;INTERVAL=2", "rate(2 hours)"),
        ("FREQ=MINUTELY;INTERVAL=30", "rate(30 minutes)"),
    ],
)
def test_expressions(rule: str, expression: str) -> None:
    assert expression_of(rule) == expression


def test_window_starts_at_the_first_time_and_ends_after_the_last() -> None:
    text = series("FREQ=DAILY;COUNT=3", START, TZ)
    assert text is not None
    window = recurring_expression(text, TZ)
    assert window.start == START.astimezone(UTC)
    assert window.end == datetime(2026, 3, 12, 8, 1, tzinfo=ZONE).astimezone(UTC)
    endless = series("FREQ=DAILY", START, TZ)
    assert endless is not None and recurring_expression(endless, TZ).end is None


def test_what_one_schedule_cannot_say_is_refused() -> None:
    text = series("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", START, TZ)
    assert text is not None
    with pytest.raises(ValueError, match="several days"):
        recurring_expression(text, TZ)


def test_cron_times_in_the_schedules_zone_and_window() -> None:
    times = recurring_times(
        "cron(0 8 ? * MON,THU *)",
        TZ,
        start=START.astimezone(UTC),
        end=None,
        after=START - timedelta(days=1),
        until=START + timedelta(days=7),
    )
    assert times == [datetime(2026, 3, 12, 8, 0, tzinfo=ZONE), datetime(2026, 3, 16, 8, 0, tzinfo=ZONE)]


def test_cron_keeps_wall_clock_time_across_daylight_saving() -> None:
    new_york = ZoneInfo("America/New_York")
    times = recurring_times(
        "cron(30 7 * * ? *)",
        "America/New_York",
        start=None,
        end=None,
        after=datetime(2026, 3, 7, 0, 0, tzinfo=new_york),  # DST starts on 8 March 2026
        until=datetime(2026, 3, 8, 12, 0, tzinfo=new_york),
    )
    assert [t.hour for t in times] == [7, 7] and times[0].utcoffset() != times[1].utcoffset()


def test_rate_times_count_from_the_start_and_stop_at_the_end() -> None:
    start = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
    times = recurring_times(
        "rate(2 hours)",
        TZ,
        start=start,
        end=start + timedelta(hours=5),
        after=start + timedelta(minutes=30),
        until=start + timedelta(days=1),
    )
    assert times == [start + timedelta(hours=2), start + timedelta(hours=4)]
    assert (
        recurring_times("at(2026-03-10T09:00:00)", TZ, start=None, end=None, after=start, until=start) == []
    )


def test_a_saved_recurring_schedule_can_be_created_again_later() -> None:
    start = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)
    now = start + timedelta(days=3, hours=1)
    cron = {"ScheduleExpression": "cron(0 8 * * ? *)", "StartDate": start, "Name": "reminder-r1"}
    assert restorable(cron, now) == {"ScheduleExpression": "cron(0 8 * * ? *)", "Name": "reminder-r1"}
    rate = {"ScheduleExpression": "rate(2 days)", "StartDate": start}
    assert restorable(rate, now)["StartDate"] == start + timedelta(days=4)  # the rate keeps its phase
    once = {"ScheduleExpression": "at(2026-03-10T08:00:00)", "StartDate": start}
    assert restorable(once, now) is once
    future = {"ScheduleExpression": "cron(0 8 * * ? *)", "StartDate": now + timedelta(days=1)}
    assert restorable(future, now) is future


def test_cron_l_is_the_last_day_of_each_month() -> None:
    times = recurring_times(
        "cron(0 9 L * ? *)",
        TZ,
        start=START.astimezone(UTC),
        end=None,
        after=START,
        until=START + timedelta(days=100),
    )
    assert [t.date().isoformat() for t in times] == ["2026-03-31", "2026-04-30", "2026-05-31"]


@given(
    week=st.sampled_from([1, 2, 3, 4, -1]),
    weekday=st.integers(0, 6),
    interval=st.sampled_from([1, 2, 3, 4, 6]),
    first=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2030, 12, 31)),
)
@settings(max_examples=60, deadline=None)
def test_a_weekday_of_the_months_weeks_fires_when_its_series_says(
    week: int, weekday: int, interval: int, first: datetime
) -> None:
    """The cron the Scheduler gets and the series Memo shows name the same times, for two years."""
    code = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")[weekday]
    rule = f"FREQ=MONTHLY;INTERVAL={interval};BYDAY={week}{code}"
    text = series(rule, first.replace(hour=9, minute=30, tzinfo=ZONE), TZ)
    assert text is not None
    fired, expected = _fired_and_due(text, days=730)
    assert fired == expected and len(expected) >= 730 // 31 // interval - 1


@given(
    rule=st.sampled_from(
        [f"FREQ=MONTHLY;INTERVAL={n};BYMONTHDAY={d}" for n in (1, 2, 3, 4, 6) for d in (1, 15, 28, 31, -1)]
        + [f"FREQ=YEARLY;INTERVAL={n}" for n in (1, 2, 3)]
    ),
    first=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2030, 12, 31)),
)
@settings(max_examples=80, deadline=None)
def test_every_n_months_or_years_fires_when_its_series_says(rule: str, first: datetime) -> None:
    """Across the year's end too: "every 2 months" from November goes on in January."""
    text = series(rule, first.replace(hour=9, minute=0, tzinfo=ZONE), TZ)
    assert text is not None
    fired, expected = _fired_and_due(text, days=365 * 7)
    assert fired == expected


def _fired_and_due(text: str, *, days: int) -> tuple[list[datetime], list[datetime]]:
    """What the series' schedule fires (its cron run by the local ticker) and what the series
    itself says is due, over `days` from its first time."""
    schedule = recurring_expression(text, TZ)
    start = schedule.start.astimezone(ZONE)
    until = start + timedelta(days=days)
    after = start - timedelta(minutes=1)
    fired = recurring_times(schedule.expression, TZ, start=schedule.start, end=None, after=after, until=until)
    expected: list[datetime] = []
    while (upcoming := next_occurrence(text, TZ, after)) is not None and upcoming <= until:
        expected.append(upcoming)
        after = upcoming
    return fired, expected


@given(
    start=st.integers(0, 20),
    length=st.integers(1, 12),
    every=st.sampled_from([("HOURLY", 1), ("HOURLY", 2), ("HOURLY", 3), ("MINUTELY", 15), ("MINUTELY", 30)]),
    minute=st.sampled_from([0, 30]),
    days=st.sampled_from(["", "MO,TU,WE,TH,SU", "SA"]),
)
@settings(max_examples=60, deadline=None)
def test_every_few_hours_within_a_day_fires_when_its_series_says(
    start: int, length: int, every: tuple[Frequency, int], minute: int, days: str
) -> None:
    """ "every 2 hours from 9 to 5 on weekdays": the cron's lists of minutes and hours fire exactly
    the series' times, and none at night."""
    freq, n = every
    window = Window(time(start, 0 if freq == "MINUTELY" else minute), time(min(start + length, 23)))
    rule = ";".join(["FREQ=WEEKLY;BYDAY=" + days if days else "FREQ=DAILY", *window.by_parts(freq, n)])
    text = series(rule, START, TZ)
    assert text is not None
    fired, expected = _fired_and_due(text, days=14)
    assert fired == expected and fired
    assert all(window.start <= t.time() <= window.end for t in fired)


def test_every_five_months_is_not_one_schedule() -> None:
    with pytest.raises(ValueError, match="not one schedule"):
        expression_of("FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=10")


# --- a schedule made again later (a changed number): from the next time, never in the past ----------


@pytest.mark.parametrize(
    ("rule", "later", "next_time"),
    [
        ("FREQ=DAILY", datetime(2026, 1, 8, 12, 0), datetime(2026, 1, 9, 9, 0)),
        ("FREQ=WEEKLY;BYDAY=MO,TH", datetime(2026, 1, 8, 12, 0), datetime(2026, 1, 12, 9, 0)),
        (
            "FREQ=DAILY;INTERVAL=3",
            datetime(2026, 1, 8, 12, 0),
            datetime(2026, 1, 11, 9, 0),
        ),  # rate phase kept
        ("FREQ=MONTHLY;INTERVAL=2", datetime(2026, 2, 10, 12, 0), datetime(2026, 3, 5, 9, 0)),
        ("FREQ=HOURLY;INTERVAL=5", datetime(2026, 1, 5, 12, 0), datetime(2026, 1, 5, 14, 0)),
    ],
)
def test_a_series_begun_earlier_starts_again_at_its_next_time(
    rule: str, later: datetime, next_time: datetime
) -> None:
    text = f"DTSTART:20260105T090000\nRRULE:{rule}"  # Monday 5 January 2026, 09:00
    first = recurring_expression(text, TZ)
    again = recurring_expression(text, TZ, not_before=later.replace(tzinfo=ZoneInfo(TZ)))
    assert again.start == next_time.replace(tzinfo=ZoneInfo(TZ))
    assert (again.expression, again.end) == (first.expression, first.end)  # same rule, same time of day


def test_a_series_not_begun_yet_keeps_its_first_time() -> None:
    text = "DTSTART:20260105T090000\nRRULE:FREQ=DAILY"
    early = datetime(2026, 1, 1, tzinfo=UTC)
    assert recurring_expression(text, TZ, not_before=early) == recurring_expression(text, TZ)


def test_a_series_with_no_time_left_is_refused() -> None:
    text = "DTSTART:20260105T090000\nRRULE:FREQ=DAILY;COUNT=2"
    with pytest.raises(ValueError, match="no occurrence left"):
        recurring_expression(text, TZ, not_before=datetime(2026, 2, 1, tzinfo=UTC))


@pytest.mark.parametrize(
    ("hours", "days", "refused"),
    [
        ("22,23,0,1,2", "SU,MO,TU,WE,TH", True),
        ("23,1", "FR,SA", True),
        ("22,23,0,1,2", "MO,TU,WE,TH,FR,SA,SU", False),
        ("9,21", "SU,MO,TU,WE,TH", False),
        ("8,20,23", "MO", False),
        ("9,10,11,12", "SU,MO", False),
    ],
)
def test_hours_past_midnight_on_some_days_are_no_one_schedule(hours: str, days: str, refused: bool) -> None:
    # A rule from the model planner that the rules planner would have asked about: the cron would
    # send the hours after midnight on the wrong mornings.
    text = f"DTSTART:20300107T220000\nRRULE:FREQ=WEEKLY;BYDAY={days};BYHOUR={hours};BYMINUTE=0"
    if refused:
        with pytest.raises(ValueError, match="past midnight"):
            recurring_expression(text, TZ)
    else:
        assert recurring_expression(text, TZ).expression.startswith("cron(")
