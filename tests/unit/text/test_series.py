"""A repetition stored as a series: its first occurrence, the next ones, its end, and moving it."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.text.recurrence import find_recurrence
from memo.text.recurrence_units import Window
from memo.text.series import (
    MOST_SKIPPED,
    TooManySkips,
    default_start,
    ended_on,
    first_occurrence,
    first_time,
    moved,
    next_occurrence,
    occurrences_on,
    opens_at,
    rezoned,
    series,
    series_end,
    skipped_spans,
    with_hours,
    with_skipped,
    within_its_hours,
)

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)
NOW = datetime(2024, 5, 1, 10, 0, tzinfo=ZONE)  # Wednesday


def test_series_starts_at_the_first_matching_time_and_moves_on() -> None:
    text = series("FREQ=WEEKLY;BYDAY=MO,TH", datetime(2024, 5, 1, 9, 0, tzinfo=ZONE), TZ)
    assert text == "DTSTART:20240502T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TH"
    assert first_occurrence(text, TZ) == datetime(2024, 5, 2, 9, 0, tzinfo=ZONE)
    assert next_occurrence(text, TZ, datetime(2024, 5, 2, 9, 0, tzinfo=ZONE)) == datetime(
        2024, 5, 6, 9, 0, tzinfo=ZONE
    )
    assert series_end(text, TZ) is None


def test_every_other_week_starts_at_the_next_matching_day() -> None:
    # Said on Wednesday 1 May: "every other monday" starts Monday 6 May, not two weeks later.
    text = series("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", datetime(2024, 5, 1, 10, 0, tzinfo=ZONE), TZ)
    assert text == "DTSTART:20240506T100000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"
    assert next_occurrence(text, TZ, datetime(2024, 5, 6, 10, 0, tzinfo=ZONE)) == datetime(
        2024, 5, 20, 10, 0, tzinfo=ZONE
    )


def test_a_counted_series_ends() -> None:
    text = series("FREQ=DAILY;COUNT=3", datetime(2024, 5, 2, 8, 0, tzinfo=ZONE), TZ)
    assert text is not None
    assert series_end(text, TZ) == datetime(2024, 5, 4, 8, 0, tzinfo=ZONE)
    assert next_occurrence(text, TZ, datetime(2024, 5, 4, 8, 0, tzinfo=ZONE)) is None


def test_wall_clock_time_stays_across_daylight_saving() -> None:
    new_york = ZoneInfo("America/New_York")
    text = series("FREQ=DAILY", datetime(2024, 3, 9, 8, 0, tzinfo=new_york), "America/New_York")
    assert text is not None
    after = next_occurrence(text, "America/New_York", datetime(2024, 3, 9, 8, 0, tzinfo=new_york))
    assert (
        after is not None
        and after.hour == 8
        and after.utcoffset() != datetime(2024, 3, 9, tzinfo=new_york).utcoffset()
    )


def test_moving_a_series_keeps_its_rule() -> None:
    text = series("FREQ=WEEKLY;BYDAY=MO", datetime(2024, 5, 6, 9, 0, tzinfo=ZONE), TZ)
    assert text is not None
    later = moved(text, TZ, now=NOW, day=None, at=time(18, 0))
    assert later == "DTSTART:20240506T180000\nRRULE:FREQ=WEEKLY;BYDAY=MO"
    friday = moved(text, TZ, now=NOW, day=date(2024, 5, 3), at=None)
    assert friday == "DTSTART:20240503T090000\nRRULE:FREQ=WEEKLY;BYDAY=FR"


def test_an_hourly_series_without_a_time_starts_one_interval_on() -> None:
    found = find_recurrence("every 3 hours", timezone=TZ, now_local=NOW, language="en")
    assert found is not None
    assert default_start(found.recurrence, datetime(2024, 5, 1, 10, 17, 42)) == datetime(2024, 5, 1, 13, 17)


_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


@settings(max_examples=200, deadline=None)
@given(
    days=st.sets(st.sampled_from(range(7)), min_size=1),
    hour=st.integers(0, 23),
    since_days=st.integers(0, 40),
    first_offset=st.integers(-5, 40),
    length=st.integers(0, 40),
    limit=st.integers(1, 30),
)
def test_the_occurrences_on_some_days_are_every_occurrence_there_from_since_on(
    days: set[int], hour: int, since_days: int, first_offset: int, length: int, limit: int
) -> None:
    rule = "FREQ=WEEKLY;BYDAY=" + ",".join(_DAYS[d] for d in sorted(days))
    text = series(rule, NOW, TZ)
    assert text is not None
    text = text.replace("T100000", f"T{hour:02d}0000")
    since = NOW + timedelta(days=since_days)
    first = NOW.date() + timedelta(days=first_offset)
    last = first + timedelta(days=length)
    expected = []  # walked day by day, as a person would read a calendar
    for n in range(-7, 90):
        day = NOW.date() + timedelta(days=n)
        at = datetime.combine(day, time(hour), tzinfo=ZONE)
        if (
            day.weekday() in days
            and at >= first_occurrence(text, TZ)
            and at >= since
            and first <= day <= last
        ):
            expected.append(at)
    assert occurrences_on(text, TZ, since, first, last, limit=limit) == expected[:limit]


@settings(max_examples=150, deadline=None)
@given(
    days=st.sets(st.sampled_from(range(7)), min_size=1),
    hour=st.integers(0, 23),
    spans=st.lists(st.tuples(st.integers(0, 40), st.integers(1, 9)), max_size=6),
    probe=st.integers(0, 40),
)
def test_a_series_never_comes_on_the_days_it_skips(
    days: set[int], hour: int, spans: list[tuple[int, int]], probe: int
) -> None:
    rule = "FREQ=WEEKLY;BYDAY=" + ",".join(_DAYS[d] for d in sorted(days))
    text = series(rule, NOW, TZ)
    assert text is not None
    text = text.replace("T100000", f"T{hour:02d}0000")
    start = first_occurrence(text, TZ)
    midnight = datetime.combine(start.date(), time(), tzinfo=ZONE)
    skips: str | None = None
    off: list[tuple[datetime, datetime]] = []
    for first, length in spans:
        a, b = midnight + timedelta(days=first), midnight + timedelta(days=first + length)
        skips = with_skipped(skips, a, b, TZ, since=start)
        off.append((a, b))

    def skipped(t: datetime) -> bool:
        return any(a <= t < b for a, b in off)

    after = start + timedelta(days=probe)
    found = next_occurrence(text, TZ, after, skips)
    assert found is not None and not skipped(found) and found.weekday() in days
    plain = next_occurrence(text, TZ, after)  # nothing between `after` and it but skipped times
    while plain is not None and plain < found:
        assert skipped(plain)
        plain = next_occurrence(text, TZ, plain)
    window = (start.date(), start.date() + timedelta(days=60))
    listed = occurrences_on(text, TZ, start, *window, limit=80, skips=skips)
    every = occurrences_on(text, TZ, start, *window, limit=80)
    assert listed == [t for t in every if not skipped(t)]
    first_left = first_time(text, TZ, skips)
    assert first_left == next((t for t in every if not skipped(t)), first_left)


def test_the_days_a_series_skips_are_kept_from_its_next_time_merged_and_bounded() -> None:
    text = series("FREQ=DAILY", NOW, TZ)
    assert text is not None
    start = first_occurrence(text, TZ)
    day = datetime.combine(start.date(), time(), tzinfo=ZONE)
    once = with_skipped(None, day + timedelta(days=3), day + timedelta(days=4), TZ, since=start)
    assert once == f"{day + timedelta(days=3):%Y%m%dT%H%M%S}/{day + timedelta(days=4):%Y%m%dT%H%M%S}"
    # A stretch over before the series' next time is dropped; one touching another is merged.
    later = with_skipped(once, day - timedelta(days=3), day - timedelta(days=1), TZ, since=start)
    assert skipped_spans(later) == skipped_spans(once)
    merged = with_skipped(once, day + timedelta(days=4), day + timedelta(days=6), TZ, since=start)
    assert [(b - a).days for a, b in skipped_spans(merged)] == [3]
    # Over once the series' next time is past them: nothing is left to skip.
    assert with_skipped(once, day, day + timedelta(days=1), TZ, since=start + timedelta(days=10)) == ""
    # At the bound and past it.
    many: str | None = None
    for n in range(MOST_SKIPPED):
        many = with_skipped(
            many, day + timedelta(days=2 * n), day + timedelta(days=2 * n + 1), TZ, since=start
        )
    assert len(skipped_spans(many)) == MOST_SKIPPED
    with pytest.raises(TooManySkips):
        with_skipped(many, day + timedelta(days=100), day + timedelta(days=101), TZ, since=start)


@given(
    made_hour=st.integers(0, 23),
    at_hour=st.integers(0, 23),
    zone=st.sampled_from(["America/New_York", "America/Los_Angeles", "Europe/London", "Asia/Tokyo"]),
    minutes_later=st.integers(1, 120),
)
def test_a_daily_series_moved_to_another_zone_comes_at_its_next_hour_there(
    made_hour: int, at_hour: int, zone: str, minutes_later: int
) -> None:
    """A daily series set in Jerusalem as soon as it could start (today, or tomorrow when its hour
    had passed): moved to `zone`, its next time is the first time its hour comes there after the
    move. It was a day later where the new zone's today was still before its first day."""
    home = ZoneInfo("Asia/Jerusalem")
    made = datetime(2026, 3, 2, made_hour, 30, tzinfo=home)
    first = made.replace(hour=at_hour, minute=0) + timedelta(days=0 if at_hour > made_hour else 1)
    text = series("FREQ=DAILY", first, "Asia/Jerusalem")
    assert text is not None
    now = made + timedelta(minutes=minutes_later)
    got = next_occurrence(rezoned(text, "Asia/Jerusalem", zone, now=now, created_at=made), zone, now)
    there = now.astimezone(ZoneInfo(zone))
    expected = there.replace(hour=at_hour, minute=0, second=0, microsecond=0)
    assert got == (expected if expected > there else expected + timedelta(days=1))


def test_a_series_counted_in_times_or_set_for_later_keeps_its_start() -> None:
    home = ZoneInfo("Asia/Jerusalem")
    made = datetime(2026, 3, 2, 10, 0, tzinfo=home)
    counted = series("FREQ=DAILY;COUNT=5", datetime(2026, 3, 3, 9, 0, tzinfo=home), "Asia/Jerusalem")
    later = series("FREQ=DAILY", datetime(2026, 3, 5, 9, 0, tzinfo=home), "Asia/Jerusalem")
    assert counted is not None and later is not None
    assert rezoned(counted, "Asia/Jerusalem", "America/New_York", now=made, created_at=made) == counted
    assert rezoned(later, "Asia/Jerusalem", "America/New_York", now=made, created_at=made) == later


_NINE_TO_FIVE = "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0"


def _day_times(text: str, day: date) -> list[time]:
    found = occurrences_on(text, TZ, NOW, day, day, limit=100)
    return [t.time() for t in found]


@pytest.mark.parametrize("to", range(0, 24))
def test_a_series_within_hours_moved_to_a_time_opens_then(to: int) -> None:
    # "move the water reminders to 10am": its hours move with its first one, from its next time on.
    text = series(_NINE_TO_FIVE, NOW, TZ)
    assert text is not None and opens_at(text) == time(9)
    after = moved(text, TZ, now=NOW, day=None, at=time(to, 15))
    assert after is not None and opens_at(after) == time(to, 15)
    tomorrow = NOW.date() + timedelta(days=1)
    assert _day_times(after, tomorrow) == [time(h, 15) for h in range(to, min(to + 8, 23) + 1)]
    assert next_occurrence(after, TZ, NOW) == min(
        datetime.combine(d, t, tzinfo=ZONE)
        for d in (NOW.date(), tomorrow)
        for t in _day_times(after, d)
        if datetime.combine(d, t, tzinfo=ZONE) > NOW
    )


@pytest.mark.parametrize(
    ("rule", "times"),
    [
        ("FREQ=HOURLY;INTERVAL=2", [time(h) for h in range(9, 18, 2)]),
        ("FREQ=HOURLY;INTERVAL=3", [time(9), time(12), time(15)]),
        ("FREQ=MINUTELY;INTERVAL=30", [time(h, m) for h in range(9, 17) for m in (0, 30)]),
        ("FREQ=DAILY", None),  # another kind of repetition is as said
    ],
)
def test_a_new_step_keeps_the_hours_of_a_series_within_hours(rule: str, times: list[time] | None) -> None:
    text = series(_NINE_TO_FIVE, NOW, TZ)
    assert text is not None
    kept = within_its_hours(text, rule)
    if times is None:
        assert kept == rule
        return
    again = series(kept, NOW, TZ)
    assert again is not None and _day_times(again, NOW.date() + timedelta(days=1)) == times
    plain = series("FREQ=DAILY", NOW, TZ)
    assert plain is not None and within_its_hours(plain, rule) == rule and opens_at(plain) is None


@pytest.mark.parametrize(
    "rule",
    [
        "FREQ=DAILY",
        "FREQ=WEEKLY;BYDAY=MO,TH",
        "FREQ=DAILY;COUNT=30",
        "FREQ=DAILY;UNTIL=20300101T235959",
        _NINE_TO_FIVE,
    ],
)
@pytest.mark.parametrize("days", [0, 1, 6, 40])
def test_a_series_ended_on_a_day_keeps_its_times_up_to_that_day_only(rule: str, days: int) -> None:
    # "stop the vitamins after friday": every time up to the end of that day, none after.
    text = series(rule, NOW, TZ)
    assert text is not None
    last = NOW.date() + timedelta(days=days)
    ended = ended_on(text, last)
    before = occurrences_on(text, TZ, NOW, NOW.date(), last + timedelta(days=60), limit=2000)
    after = occurrences_on(ended, TZ, NOW, NOW.date(), last + timedelta(days=60), limit=2000)
    assert after == [t for t in before if t.date() <= last]


@pytest.mark.parametrize(
    "rule", ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=SU,WE", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU"]
)
@pytest.mark.parametrize("offset", range(0, 14))
def test_a_series_on_several_days_moved_with_a_day_said_keeps_its_days_and_its_next_one(
    rule: str, offset: int
) -> None:
    # "move the vitamins on wednesday to 9am" -> the whole series: it began on Wednesday, and
    # Tuesday's time was lost. The day names one of its times; every day keeps its time, at 09:00.
    text = series(rule, NOW, TZ)
    assert text is not None
    after = moved(text, TZ, now=NOW, day=NOW.date() + timedelta(days=offset), at=time(21, 30))
    assert after is not None
    span = (NOW.date(), NOW.date() + timedelta(days=21))
    days_before = [t.date() for t in occurrences_on(text, TZ, NOW, *span, limit=100)]
    times_after = occurrences_on(after, TZ, NOW, *span, limit=100)
    assert [t.date() for t in times_after] == [d for d in days_before if d >= times_after[0].date()]
    assert times_after[0].date() == days_before[1]  # its next time (the first is now): nothing is lost
    assert all(t.time() == time(21, 30) for t in times_after)


@settings(max_examples=150, deadline=None)
@given(
    old=st.tuples(st.integers(0, 23), st.integers(0, 23)),
    new=st.tuples(st.integers(0, 23), st.integers(0, 23)),
    every=st.sampled_from([("HOURLY", 1), ("HOURLY", 2), ("HOURLY", 3), ("MINUTELY", 30), ("MINUTELY", 15)]),
    days=st.sampled_from(["", "MO,TU,WE,TH,FR", "SA"]),
)
def test_new_hours_keep_how_often_and_the_days(
    old: tuple[int, int], new: tuple[int, int], every: tuple[str, int], days: str
) -> None:
    # "make it from 10 to 6" of "every 2 hours from 9 to 5": every 2 hours from 10 to 6.
    (a, b), (c, d) = old, new
    freq, interval = every
    if a == b or c == d:
        return
    parts = Window(time(a), time(b)).by_parts(freq, interval)  # type: ignore[arg-type]
    head = ["FREQ=WEEKLY", f"BYDAY={days}"] if days else ["FREQ=DAILY"]
    before = "DTSTART:20300107T000000\nRRULE:" + ";".join(head + parts)
    rule = with_hours(before, time(c), time(d))
    want = ";".join(head + Window(time(c), time(d)).by_parts(freq, interval))  # type: ignore[arg-type]
    if len(parts[0].split(",")) < 2 and freq == "HOURLY" and interval > 1:
        return  # a window with one time in it says no step: read as every hour
    assert rule == want, (before, rule)


def test_a_series_not_within_hours_has_none_to_change() -> None:
    assert with_hours("DTSTART:20300107T090000\nRRULE:FREQ=DAILY", time(10), time(18)) is None
