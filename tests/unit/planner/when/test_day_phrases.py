"""Days said in several words, over every day of two years: each phrase names the day a calendar
gives (computed here independently), its words leave the title, and a day no calendar places is
asked, never guessed."""

from __future__ import annotations

import calendar
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.timeparse import extract_when
from memo.planner.when.day_phrases import ORDINAL_WORDS

TZ = ZoneInfo("Asia/Jerusalem")
DAYS = st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31))
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_SUFFIX = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}


def _read(text: str, today: date, language: str = "en") -> tuple[date | None, str, str | None]:
    """The day `text` (with "at 9am" and a task) names when said at 08:00 on `today`."""
    now = datetime.combine(today, time(8, 0), TZ)
    parsed = extract_when(text, now=now, timezone="Asia/Jerusalem", language=language)
    return (parsed.when.date() if parsed.when else None), parsed.remainder, parsed.problem


def _month_after(today: date) -> tuple[int, int]:
    return (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)


def _next_day_of_month(day: int, today: date) -> date:
    year, month = today.year, today.month
    while True:
        if day <= calendar.monthrange(year, month)[1] and date(year, month, day) >= today:
            return date(year, month, day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


@given(today=DAYS, day=st.integers(1, 31))
def test_the_nth_of_next_month_is_that_day_of_next_month_or_asked(today: date, day: int) -> None:
    year, month = _month_after(today)
    for said in (f"{day}{_SUFFIX.get(day, 'th')}", next(w for w, n in ORDINAL_WORDS.items() if n == day)):
        found, title, problem = _read(f"remind me on the {said} of next month at 9am to pay", today)
        if day <= calendar.monthrange(year, month)[1]:
            assert (found, title, problem) == (date(year, month, day), "remind me to pay", None), said
        else:
            assert (found, problem) == (None, "invalid_time"), said  # no such day: asked
            assert title == "remind me to pay"


@given(today=DAYS, day=st.integers(1, 31))
def test_on_the_nth_said_in_words_is_the_next_such_day(today: date, day: int) -> None:
    word = next(w for w, n in ORDINAL_WORDS.items() if n == day)
    found, title, problem = _read(f"remind me on the {word} at 9am to pay", today)
    assert (found, title, problem) == (_next_day_of_month(day, today), "remind me to pay", None)


@given(today=DAYS)
def test_the_last_day_of_this_or_next_month(today: date) -> None:
    end = date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
    year, month = _month_after(today)
    following = date(year, month, calendar.monthrange(year, month)[1])
    for text, expected in (
        ("remind me on the last day of the month at 9am to pay", end),
        ("remind me at the end of next month at 9am to pay", following),
        ("תזכיר לי ביום האחרון של החודש ב-9 בבוקר לשלם", end),
        ("תזכיר לי בסוף החודש הבא ב-9 בבוקר לשלם", following),
    ):
        found, title, problem = _read(text, today, "he" if "ת" in text else "en")
        assert (found, problem) == (expected, None), text
        assert title in ("remind me to pay", "תזכיר לי לשלם"), text


@given(today=DAYS, said=st.dates(min_value=date(2020, 1, 1), max_value=date(2039, 12, 31)))
def test_a_date_written_year_first(today: date, said: date) -> None:
    for text in (
        f"remind me on {said.isoformat()} at 9am to pay",
        f"remind me on {said:%Y/%m/%d} at 9am to pay",
    ):
        found, title, problem = _read(text, today)
        assert title == "remind me to pay", text
        if said < today:
            assert (found, problem) == (None, "past"), text
        else:
            assert (found, problem) == (said, None), text


@given(today=DAYS, weekday=st.sampled_from(WEEKDAYS), weeks=st.sampled_from([("a", 1), ("two", 2)]))
def test_a_week_from_a_day(today: date, weekday: str, weeks: tuple[str, int]) -> None:
    base = today + timedelta(days=(WEEKDAYS.index(weekday) - today.weekday()) % 7)
    word, n = weeks
    for text, expected in (
        (
            f"remind me {word} week{'s' if n > 1 else ''} from {weekday} at 9am to call",
            base + timedelta(weeks=n),
        ),
        (f"remind me on {weekday} week at 9am to call", base + timedelta(weeks=1)),
        (f"remind me a week on {weekday} at 9am to call", base + timedelta(weeks=1)),
        ("remind me a week from today at 9am to call", today + timedelta(weeks=1)),
        ("remind me a week from tomorrow at 9am to call", today + timedelta(days=8)),
        ("remind me in a fortnight at 9am to call", today + timedelta(weeks=2)),
    ):
        found, title, problem = _read(text, today)
        assert (found, title, problem) == (expected, "remind me to call", None), text


@given(
    today=DAYS,
    weekday=st.sampled_from(WEEKDAYS),
    form=st.sampled_from(["the {d} after next", "{d} after next", "on the {d} after next"]),
)
def test_the_weekday_after_next_is_a_week_after_the_next_one(today: date, weekday: str, form: str) -> None:
    # It was the next such day (this Friday), with "the after next" left in the title.
    following = today + timedelta(days=(WEEKDAYS.index(weekday) - today.weekday() - 1) % 7 + 1)
    found, title, problem = _read(f"remind me {form.format(d=weekday)} at 9am to call", today)
    assert (found, title, problem) == (following + timedelta(weeks=1), "remind me to call", None)


@pytest.mark.parametrize(
    "text",
    [
        "remind me on christmas at 9am to call",
        "remind me on new year's eve at 8pm to call",
        "remind me on mom's birthday to call",
        "remind me to call grandma on her birthday",
        "remind me before our anniversary to book",
        "תזכיר לי בחנוכה להדליק נרות",
        "תזכיר לי לפני פסח לנקות",
        "תזכיר לי ביום ההולדת של אמא להתקשר",
    ],
)
def test_a_day_no_calendar_places_is_asked_and_leaves_the_title(text: str) -> None:
    found, title, problem = _read(text, date(2026, 11, 28), "he" if "ת" in text else "en")
    assert found is None and problem == "unplaced_day"
    for word in ("christmas", "year", "birthday", "anniversary", "חנוכה", "פסח", "ההולדת"):
        assert word not in title


MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december"]  # fmt: skip
HE_MONTH_NAMES = ["ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
                  "נובמבר", "דצמבר"]  # fmt: skip


@pytest.mark.parametrize("month", range(12))
def test_a_month_with_no_day_asks_which_day(month: int) -> None:
    """ "in january" was left in the title and only the time was asked: the day is asked too."""
    today = date(2026, 11, 28)
    for text, language in (
        (f"remind me in {MONTH_NAMES[month]} to call", "en"),
        (f"remind me in early {MONTH_NAMES[month]} to call", "en"),
        (f"remind me in {MONTH_NAMES[month][:3]} 2027 to call", "en"),
        (f"תזכיר לי ב{HE_MONTH_NAMES[month]} להתקשר", "he"),
    ):
        found, title, problem = _read(text, today, language)
        assert (found, problem) == (None, "unplaced_day"), text
        assert title in ("remind me to call", "תזכיר לי להתקשר"), text
    # With a day it is that date, as always.
    found, _, problem = _read(f"remind me on {MONTH_NAMES[month]} 5 at 9am to call", today)
    assert problem is None and found is not None and (found.month, found.day) == (month + 1, 5)


@pytest.mark.parametrize(
    ("text", "title"),
    [
        (
            "remind me tomorrow at 9am to prepare for the first of the month",
            "prepare for the first of the month",
        ),
        ("remind me on friday at 9am to plan for christmas", "plan for christmas"),
        ("remind me tomorrow at 9am to buy a gift before mom's birthday", "buy a gift before mom's birthday"),
        ("remind me at 9am to check on the third floor", "check on the third floor"),
        ("remind me at 9am to buy christmas presents", "buy christmas presents"),
    ],
)
def test_a_day_phrase_beside_another_day_is_the_titles(text: str, title: str) -> None:
    found, remainder, problem = _read(text, date(2026, 11, 28))
    assert problem is None and found is not None
    assert remainder == f"remind me to {title}"


def _first_of_next_week(today: date, first: int) -> date:
    day = today + timedelta(days=1)
    while day.weekday() != first:
        day += timedelta(days=1)
    return day


@given(today=DAYS, weekday=st.integers(0, 6))
def test_a_weekday_of_next_week(today: date, weekday: int) -> None:
    # Jerusalem: the week starts on Sunday, in English and in Hebrew alike.
    start = _first_of_next_week(today, 6)
    expected = start + timedelta(days=(weekday - start.weekday()) % 7)
    name = WEEKDAYS[weekday]
    he = ["שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון"][weekday]
    he_day = "בשבת" if he == "שבת" else f"ביום {he}"
    for text, language in (
        (f"remind me next week on {name} at 9am to pay", "en"),
        (f"remind me on {name} next week at 9am to pay", "en"),
        (f"remind me {name} of next week at 9am to pay", "en"),
        (f"תזכיר לי {he_day} בשבוע הבא ב-9 בבוקר לשלם", "he"),
        (f"תזכיר לי בשבוע הבא {he_day} ב-9 בבוקר לשלם", "he"),
    ):
        found, title, problem = _read(text, today, language)
        assert (found, problem) == (expected, None), text
        assert title in ("remind me to pay", "תזכיר לי לשלם"), text


@given(today=DAYS, weekday=st.integers(0, 6))
def test_a_weekday_in_two_weeks_is_that_weekday(today: date, weekday: int) -> None:
    target = today + timedelta(weeks=2)
    start = target - timedelta(days=(target.weekday() - 6) % 7)
    expected = start + timedelta(days=(weekday - start.weekday()) % 7)
    for text in (
        f"remind me {WEEKDAYS[weekday]} in two weeks at 9am to pay",
        f"remind me in 2 weeks on {WEEKDAYS[weekday]} at 9am to pay",
    ):
        found, title, problem = _read(text, today)
        assert (found, title, problem) == (expected, "remind me to pay", None), text
        assert found is not None and found.weekday() == weekday


@given(today=DAYS)
def test_hebrew_a_week_from_today_and_next_week_alone(today: date) -> None:
    for text, expected in (
        ("תזכיר לי שבוע מהיום ב-9 בבוקר להתקשר", today + timedelta(weeks=1)),
        ("תזכיר לי שבועיים ממחר ב-9 בבוקר להתקשר", today + timedelta(days=15)),
        ("תזכיר לי בשבוע הבא ב-9 בבוקר להתקשר", today + timedelta(weeks=1)),
        ("remind me next week at 9am to call", today + timedelta(weeks=1)),
    ):
        found, title, problem = _read(text, today, "he" if "ת" in text else "en")
        assert (found, problem) == (expected, None), text
        assert title in ("תזכיר לי להתקשר", "remind me to call"), text
