"""How a repetition ends, said after it: a count, a span from today, or "until" a day to come."""

from __future__ import annotations

import calendar
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text.recurrence_ends import End, count_word, find_end, span_end

NOW = datetime(2027, 3, 10, 9, 0, tzinfo=ZoneInfo("Asia/Jerusalem"))  # a Wednesday


@pytest.mark.parametrize(
    ("text", "count", "until"),
    [
        ("10 times", 10, None),
        ("for three times", 3, None),
        ("10 פעמים", 10, None),
        ("for 3 weeks", None, date(2027, 3, 31)),
        ("for a month", None, date(2027, 4, 10)),
        ("למשך שבועיים", None, date(2027, 3, 24)),
        ("למשך חודש", None, date(2027, 4, 10)),
        ("until friday", None, date(2027, 3, 12)),
        ("until march 20", None, date(2027, 3, 20)),
    ],
)
def test_the_end_said(text: str, count: int | None, until: date | None) -> None:
    end = find_end(f"at 9 {text}", now_local=NOW, language="he" if text[0] > "z" else "en")
    assert (end.count, end.until) == (count, until)
    assert len(end.spans) == 1 and text.split()[-1] in f"at 9 {text}"[slice(*end.spans[0])]


@pytest.mark.parametrize("text", ["at 9", "0 times", "until yesterday", "until the cows come home"])
def test_no_end_is_no_end(text: str) -> None:
    assert find_end(text, now_local=NOW, language="en") == End()


@given(n=st.integers(1, 40), today=st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31)))
def test_a_span_of_months_keeps_the_day_or_the_months_last(n: int, today: date) -> None:
    year, month = divmod(today.year * 12 + today.month - 1 + n, 12)
    last = calendar.monthrange(year, month + 1)[1]
    assert span_end(today, n, "months") == date(year, month + 1, min(today.day, last))


@pytest.mark.parametrize(("word", "n"), [("3", 3), ("three", 3), ("other", 2), ("Twelve", 12)])
def test_count_words(word: str, n: int) -> None:
    assert count_word(word) == n


_HE_MONTHS = ["ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
              "נובמבר", "דצמבר"]  # fmt: skip


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


@given(
    today=st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31)),
    month=st.integers(min_value=1, max_value=12),
    hebrew=st.booleans(),
)
def test_until_the_end_of_a_month_is_its_last_day_to_come(today: date, month: int, hebrew: bool) -> None:
    # "the end of december" was left in the title ("until the end of december to take pills").
    now = datetime(today.year, today.month, today.day, 8, 0, tzinfo=ZoneInfo("Asia/Jerusalem"))
    said = (
        f"עד סוף {_HE_MONTHS[month - 1]} לקחת כדור"
        if hebrew
        else (f"until the end of {calendar.month_name[month]} to take pills")
    )
    end = find_end(said, now_local=now, language="he" if hebrew else "en")
    year = today.year if month >= today.month else today.year + 1
    assert end.until == _month_end(year, month) and end.count is None
    (span,) = end.spans
    assert said[span[1] :].strip() in ("to take pills", "לקחת כדור")


@given(today=st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31)))
def test_until_the_end_of_this_or_next_month_or_year(today: date) -> None:
    now = datetime(today.year, today.month, today.day, 8, 0, tzinfo=ZoneInfo("Asia/Jerusalem"))
    following = (today.year + (today.month == 12), today.month % 12 + 1)
    cases = {
        "until the end of the month to stretch": _month_end(today.year, today.month),
        "until the end of this month to stretch": _month_end(today.year, today.month),
        "until the end of next month to stretch": _month_end(*following),
        "until the end of the year to stretch": date(today.year, 12, 31),
        "until the end of next year to stretch": date(today.year + 1, 12, 31),
        "עד סוף החודש למתוח": _month_end(today.year, today.month),
        "עד סוף החודש הבא למתוח": _month_end(*following),
        "עד סוף השנה למתוח": date(today.year, 12, 31),
    }
    for said, until in cases.items():
        end = find_end(said, now_local=now, language="he" if "עד" in said else "en")
        assert end.until == until, said
        assert said[end.spans[0][1] :].strip() in ("to stretch", "למתוח"), said


@pytest.mark.parametrize("hour", range(10, 24))
def test_until_a_time_of_day_ends_then(hour: int) -> None:
    # "every 3 hours until 8pm" went on to the end of the day (and fired at 22:00).
    h12, half = hour % 12 or 12, "pm" if hour >= 12 else "am"
    for words in (
        f"until {h12}{half}",
        f"until {hour}:00",
        f"till {h12}:30 {half}",
        f"עד {hour}:00",
        f"עד השעה {hour}:00",
    ):
        end = find_end(f"every 2 hours {words}", now_local=NOW, language="he" if "עד" in words else "en")
        minute = 30 if ":30" in words else 0
        assert (end.until, end.until_at) == (NOW.date(), time(hour, minute)), words


@pytest.mark.parametrize("words", ["until friday", "until march 20", "עד יום שישי", "for 3 weeks"])
def test_until_a_day_has_no_time(words: str) -> None:
    end = find_end(f"every 2 hours {words}", now_local=NOW, language="he" if "עד" in words else "en")
    assert end.until is not None and end.until_at is None
