"""Days counted in months and years, and a month's weeks, over every day of six years: each phrase
names the day a calendar gives (computed here independently, by counting days), its words leave the
title, and no phrase falls back on "tomorrow at the hour said" (each did)."""

from __future__ import annotations

import calendar
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.timeparse import extract_when

TZ = ZoneInfo("Asia/Jerusalem")
DAYS = st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31))
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
HE_WEEKDAYS = ["שני", "שלישי", "רביעי", "חמישי", "שישי"]  # Monday to Friday
MONTHS = [calendar.month_name[m].lower() for m in range(1, 13)]
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}  # fmt: skip
NTH_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"}
HE_NTH = {1: "הראשון", 2: "השני", 3: "השלישי", 4: "הרביעי", -1: "האחרון"}
TITLES = ("remind me to pay", "תזכיר לי לשלם")


def _read(text: str, today: date) -> tuple[date | None, str, str | None]:
    """The day `text` names when said at 08:00 on `today`, what is left of it, and its problem."""
    now = datetime.combine(today, time(8, 0), TZ)
    language = "he" if any("\u0590" <= c <= "\u05ff" for c in text) else "en"
    parsed = extract_when(text, now=now, timezone="Asia/Jerusalem", language=language)
    return (parsed.when.date() if parsed.when else None), parsed.remainder, parsed.problem


def _months_on(today: date, months: int) -> date:
    """Counted one day at a time: the first day of the month `months` on, then today's day, or that
    month's last when it is shorter."""
    day = today.replace(day=1)
    for _ in range(months):
        day += timedelta(days=calendar.monthrange(day.year, day.month)[1])
    return day.replace(day=min(today.day, calendar.monthrange(day.year, day.month)[1]))


def _weekdays_of(year: int, month: int, weekday: int) -> list[date]:
    first = date(year, month, 1)
    days = [first + timedelta(days=i) for i in range(calendar.monthrange(year, month)[1])]
    return [d for d in days if d.weekday() == weekday]


def _nth(year: int, month: int, weekday: int, nth: int) -> date | None:
    found = _weekdays_of(year, month, weekday)
    return found[-1] if nth == -1 else (found[nth - 1] if nth <= len(found) else None)


@given(today=DAYS, months=st.integers(1, 12), in_words=st.booleans())
def test_in_n_months_is_that_day_n_months_on(today: date, months: int, in_words: bool) -> None:
    said = NUMBER_WORDS[months] if in_words else str(months)
    unit = "month" if months == 1 else "months"
    expected = _months_on(today, months)
    for text in (
        f"remind me in {said} {unit} at 9am to pay",
        f"remind me {said} {unit} from now at 9am to pay",
        f"remind me at 9am in {said} {unit} to pay",
    ):
        assert _read(text, today) == (expected, TITLES[0], None), text


@given(today=DAYS, years=st.integers(1, 3))
def test_in_n_years_is_that_day_n_years_on(today: date, years: int) -> None:
    expected = _months_on(today, 12 * years)  # February 29 becomes February 28
    said = "a year" if years == 1 else f"{NUMBER_WORDS[years]} years"
    assert _read(f"remind me in {said} at 9am to pay", today) == (expected, TITLES[0], None)
    hebrew = {1: "בעוד שנה", 2: "בעוד שנתיים", 3: "בעוד 3 שנים"}[years]
    assert _read(f"תזכיר לי {hebrew} ב-9 בבוקר לשלם", today) == (expected, TITLES[1], None)


@given(today=DAYS, months=st.integers(1, 10))
def test_hebrew_months_on(today: date, months: int) -> None:
    said = {1: "חודש", 2: "חודשיים"}.get(months, f"{months} חודשים")
    text = f"תזכיר לי בעוד {said} ב-9 בבוקר לשלם"
    assert _read(text, today) == (_months_on(today, months), TITLES[1], None)


@given(today=DAYS, nth=st.sampled_from([1, 2, 3, 4, -1]), weekday=st.integers(0, 6))
def test_a_weekday_of_next_month(today: date, nth: int, weekday: int) -> None:
    following = _months_on(today.replace(day=1), 1)
    expected = _nth(following.year, following.month, weekday, nth)
    text = f"remind me on the {NTH_WORDS[nth]} {WEEKDAYS[weekday]} of next month at 9am to pay"
    assert _read(text, today) == (expected, TITLES[0], None)
    if weekday < 5:
        hebrew = f"תזכיר לי ביום {HE_WEEKDAYS[weekday]} {HE_NTH[nth]} של החודש הבא ב-9 בבוקר לשלם"
        assert _read(hebrew, today) == (expected, TITLES[1], None)


@given(today=DAYS, nth=st.sampled_from([1, 2, 3, 4, -1]), weekday=st.integers(0, 6))
def test_a_weekday_of_the_month_is_this_months_or_the_next_once_passed(
    today: date, nth: int, weekday: int
) -> None:
    this = _nth(today.year, today.month, weekday, nth)
    assert this is not None
    following = _months_on(today.replace(day=1), 1)
    expected = this if this >= today else _nth(following.year, following.month, weekday, nth)
    text = f"remind me on the {NTH_WORDS[nth]} {WEEKDAYS[weekday]} of the month at 9am to pay"
    found, title, problem = _read(text, today)
    assert (found, title) == (expected, TITLES[0])
    # Today's 09:00 has not passed at 08:00: only a day to come is ever set.
    assert problem is None and found is not None and found >= today


@given(
    today=DAYS, nth=st.sampled_from([1, 2, 3, 4, 5, -1]), weekday=st.integers(0, 6), month=st.integers(1, 12)
)
def test_a_weekday_of_a_named_month_is_the_next_one_to_come(
    today: date, nth: int, weekday: int, month: int
) -> None:
    said = {5: "fifth", **NTH_WORDS}[nth]
    text = f"remind me on the {said} {WEEKDAYS[weekday]} of {MONTHS[month - 1]} at 9am to pay"
    found, title, problem = _read(text, today)
    candidates = [_nth(year, month, weekday, nth) for year in (today.year, today.year + 1)]
    to_come = next((c for c in candidates if c is None or c >= today), None)
    assert title == TITLES[0]
    if to_come is None:  # a fifth weekday that month does not have: asked, never another day
        assert (found, problem) == (None, "invalid_time")
    else:
        assert (found, problem) == (to_come, None)


@given(today=DAYS)
def test_the_end_of_the_year_and_the_start_of_the_next(today: date) -> None:
    for text, expected in (
        ("remind me at the end of the year at 9am to pay", date(today.year, 12, 31)),
        ("remind me on the last day of the year at 9am to pay", date(today.year, 12, 31)),
        ("remind me at the end of next year at 9am to pay", date(today.year + 1, 12, 31)),
        ("תזכיר לי בסוף השנה ב-9 בבוקר לשלם", date(today.year, 12, 31)),
        ("remind me at the start of next year at 9am to pay", date(today.year + 1, 1, 1)),
        ("remind me at the beginning of next month at 9am to pay", _months_on(today.replace(day=1), 1)),
        ("תזכיר לי בתחילת החודש הבא ב-9 בבוקר לשלם", _months_on(today.replace(day=1), 1)),
    ):
        found, title, problem = _read(text, today)
        assert (found, title) == (expected, TITLES[1] if "ת" in text else TITLES[0]), text
        assert problem == (None if expected >= today else "past"), text


@given(today=DAYS, month=st.integers(1, 12), day=st.integers(1, 28))
def test_a_date_next_year(today: date, month: int, day: int) -> None:
    name = MONTHS[month - 1]
    for text in (
        f"remind me on {name} {day} next year at 9am to pay",
        f"remind me next year on {name} {day} at 9am to pay",
        f"remind me on the {day} of {name} next year at 9am to pay",
    ):
        assert _read(text, today) == (date(today.year + 1, month, day), TITLES[0], None), text


@pytest.mark.parametrize(
    "text",
    [
        "remind me in 0 months to pay",  # no amount: not a day
        "remind me to read the book one month in paris",
        "remind me to call the 3 months old puppy vet tomorrow at 9am",
    ],
)
def test_words_that_only_look_like_months_on_are_not(text: str) -> None:
    found, title, _ = _read(text, date(2027, 3, 10))
    assert found in (None, date(2027, 3, 11))
    assert "month" in title


@pytest.mark.parametrize("hour", range(6, 13))  # (1 to 5 at night are the small hours)
@pytest.mark.parametrize(("said", "shift"), [("tonight", 0), ("tomorrow night", 1)])
def test_twelve_at_night_is_midnight_and_other_hours_are_the_evening(
    hour: int, said: str, shift: int
) -> None:
    today = date(2027, 3, 10)
    now = datetime.combine(today, time(8, 0), TZ)
    parsed = extract_when(f"remind me {said} at {hour} to lock up", now=now, timezone="Asia/Jerusalem")
    assert parsed.when is not None and parsed.remainder == "remind me to lock up"
    if hour == 12:  # the midnight that ends that night's day
        assert parsed.when == datetime.combine(today + timedelta(days=shift + 1), time(0), TZ)
    else:
        assert parsed.when.date() == today + timedelta(days=shift) and parsed.when.hour == hour + 12
