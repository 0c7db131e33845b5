"""The bound of a repetition's end: at the bound it is accepted, past it refused; and a series is
walked lazily, never materialised."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from dateutil.rrule import rrule
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.planner.timeparse import extract_when
from memo.text.recurrence import Recurrence, find_recurrence
from memo.text.recurrence_ends import span_end
from memo.text.recurrence_limits import RecurrenceLimits, one_schedule_says, over_midnight_on_days
from memo.text.recurrence_units import Window
from memo.text.series import next_occurrence, series, series_end
from tests.support.clock import TEST_NOW

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)
NOW = TEST_NOW.astimezone(ZONE)
TODAY = NOW.date()
LIMITS = RecurrenceLimits(max_years=5, max_count=1000)
_UNITS = {"days": 1, "weeks": 7, "months": 31, "years": 366}


def _parsed(text: str, limits: RecurrenceLimits = LIMITS):
    return extract_when(text, now=NOW, timezone=TZ, language="en", limits=limits)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=1, max_value=3000))
def test_n_times_is_a_count_up_to_the_bound(n: int) -> None:
    parsed = _parsed(f"blink {n} times every day at 9")
    assert parsed.remainder == "blink"
    if n <= LIMITS.max_count:
        assert parsed.problem is None and parsed.recurrence == f"FREQ=DAILY;COUNT={n}"
    else:
        assert parsed.problem == "too_long" and parsed.recurrence is None and parsed.when is None


@pytest.mark.parametrize("unit", ["days", "weeks", "months", "years"])
@pytest.mark.parametrize("n", [1, 2, 3, 12, 59, 60, 61, 100])
def test_for_n_units_ends_the_series_then_and_no_later_than_the_bound(n: int, unit: str) -> None:
    parsed = _parsed(f"stretch every day at 9 for {n} {unit}")
    assert parsed.remainder == "stretch"
    end = span_end(TODAY, n, unit)
    if end <= span_end(TODAY, 5, "years"):
        assert parsed.problem is None
        assert parsed.recurrence == f"FREQ=DAILY;UNTIL={end:%Y%m%d}T235959"
    else:
        assert parsed.problem == "too_long" and parsed.recurrence is None


@pytest.mark.parametrize("years_on", [0, 1, 4, 5, 6, 73, 7973])
def test_until_a_date_is_held_to_the_bound(years_on: int) -> None:
    year = min(TODAY.year + years_on, 9999)  # the last year a date can name
    parsed = _parsed(f"water plants every 5 minutes until 31/12/{year}")
    bound = LIMITS.last_day(TODAY)
    if date(year, 12, 31) <= bound:
        assert parsed.problem is None and parsed.recurrence is not None
    else:
        assert parsed.problem == "too_long" and parsed.recurrence is None
    assert parsed.remainder == "water plants"


def test_until_a_bare_far_year_is_refused() -> None:
    parsed = _parsed("every 5 minutes until 9999 check the oven")
    assert parsed.problem == "too_long" and parsed.recurrence is None


def test_at_the_bound_exactly_is_accepted_and_a_day_past_is_not() -> None:
    bound = LIMITS.last_day(TODAY)
    # The month by its name: a numeric date whose day and month are both <= 12 reads either way.
    at = _parsed(f"every day at 9 until {bound:%d %B %Y} stretch")
    past = _parsed(f"every day at 9 until {bound + timedelta(days=1):%d %B %Y} stretch")
    assert (
        at.problem is None and at.recurrence is not None and at.recurrence.endswith(f"{bound:%Y%m%d}T235959")
    )
    assert past.problem == "too_long"
    assert _parsed("every day at 9 for 5 years").problem is None
    assert _parsed("every day at 9 1000 times").problem is None
    assert _parsed("every day at 9 1001 times").problem == "too_long"


def test_the_bound_is_configuration() -> None:
    tight = RecurrenceLimits(max_years=1, max_count=10)
    assert _parsed("every day at 9 10 times", tight).problem is None
    assert _parsed("every day at 9 11 times", tight).problem == "too_long"
    assert _parsed("every day at 9 for 2 years", tight).problem == "too_long"
    assert tight.allows_rule("FREQ=DAILY;COUNT=10", TODAY)
    assert not tight.allows_rule("FREQ=DAILY;COUNT=11", TODAY)
    assert not tight.allows_rule("FREQ=DAILY;UNTIL=99991231T235959", TODAY)


@pytest.mark.parametrize(
    ("text", "count", "unit", "n"),
    [
        ("כל יום ב-9 10 פעמים למצמץ", 10, None, 0),
        ("כל יום ב-9 למשך שבועיים למתוח", None, "weeks", 2),
        ("כל יום ב-9 במשך 3 חודשים למתוח", None, "months", 3),
        ("כל יום ב-9 למשך 100 שנים למתוח", None, "years", 100),
    ],
)
def test_hebrew_counts_and_spans(text: str, count: int | None, unit: str | None, n: int) -> None:
    found = find_recurrence(text, timezone=TZ, now_local=NOW, language="he")
    assert found is not None
    assert found.recurrence.count == count
    assert found.recurrence.until == (span_end(TODAY, n, unit) if unit else None)
    parsed = extract_when(text, now=NOW, timezone=TZ, language="he", limits=LIMITS)
    assert (parsed.problem == "too_long") == (n == 100)
    assert "פעמים" not in parsed.remainder and "משך" not in parsed.remainder


class _Counted:
    """Counts the occurrences dateutil's rrule yields while the patch is on."""

    def __init__(self) -> None:
        self.yielded = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> _Counted:
    seen = _Counted()
    original = rrule._iter

    def counting(self: rrule) -> Iterator[datetime]:
        for occurrence in original(self):
            seen.yielded += 1
            yield occurrence

    monkeypatch.setattr(rrule, "_iter", counting)
    return seen


def test_a_series_every_5_minutes_to_the_bound_is_never_expanded(counted: _Counted) -> None:
    bound = LIMITS.last_day(TODAY)
    text = series(f"FREQ=MINUTELY;INTERVAL=5;UNTIL={bound:%Y%m%d}T235959", NOW + timedelta(minutes=5), TZ)
    assert text is not None
    # About 525,000 occurrences; the next one and the series' end read a handful.
    assert next_occurrence(text, TZ, NOW + timedelta(minutes=5)) is not None
    end = series_end(text, TZ)
    assert end is not None and end.date() == bound
    assert counted.yielded < 10


def test_a_counted_series_is_walked_no_further_than_its_count(counted: _Counted) -> None:
    text = series("FREQ=DAILY;COUNT=1000", NOW + timedelta(hours=1), TZ)
    assert text is not None
    counted.yielded = 0
    end = series_end(text, TZ)
    assert end is not None and counted.yielded <= 1000


@pytest.mark.parametrize("months", range(1, 25))
def test_every_n_months_is_one_schedule_only_when_n_divides_a_year(months: int) -> None:
    found = find_recurrence(f"every {months} months", timezone="UTC", now_local=NOW)
    assert found is not None
    assert one_schedule_says(found.recurrence) is (12 % months == 0)


@settings(max_examples=200, deadline=None)
@given(
    start=st.integers(0, 23),
    end=st.integers(0, 23),
    days=st.sets(st.integers(0, 6), min_size=1, max_size=7),
    every=st.sampled_from([1, 2, 3]),
)
def test_hours_past_midnight_on_some_days_are_asked_and_every_day_is_one_schedule(
    start: int, end: int, days: set[int], every: int
) -> None:
    # "every hour from 10pm to 2am on weekdays" fired on Sunday's small hours (after Saturday
    # night) and never on Friday's: a cron's days are the days of each of its times.
    if start == end:
        return
    window = Window(time(start), time(end))
    recurrence = Recurrence("HOURLY", interval=every, weekdays=tuple(sorted(days)), window=window)
    hours = [int(h) for h in recurrence.rule.split("BYHOUR=")[1].split(";")[0].split(",")]
    past_midnight = any(h < start for h in hours)
    assert over_midnight_on_days(recurrence) is (past_midnight and len(days) < 7)
    assert not over_midnight_on_days(replace(recurrence, weekdays=()))
