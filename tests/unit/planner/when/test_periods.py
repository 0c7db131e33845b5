"""The month a reminders question names, over every day of six years: a month is its next occurrence
(never a day before today), "this month" and "next month" are the calendar's, and a date ("january 5")
or a count ("in 2 months") is no month at all."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.when.periods import month_period, weekend_period

DAYS = st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31))
MONTHS = st.integers(min_value=1, max_value=12)
HE_MONTHS = ["ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
             "נובמבר", "דצמבר"]  # fmt: skip
EN_SAYINGS = ("in {m}", "for {m}", "during {m}", "in the month of {m}", "for {M}", "of {short}")
HE_SAYINGS = ("ב{m}", "ב-{m}", "בחודש {m}", "של {m}", "ל{m}", "{m}")


def _next_occurrence(today: date, month: int) -> tuple[date, date]:
    """Counted forward a month at a time from today's month: the first month numbered `month`, from
    today when it is today's."""
    year, at = today.year, today.month
    while at != month:
        year, at = (year + 1, 1) if at == 12 else (year, at + 1)
    last = date(year, month, calendar.monthrange(year, month)[1])
    return (today if (year, month) == (today.year, today.month) else date(year, month, 1)), last


@given(today=DAYS, month=MONTHS, saying=st.sampled_from(EN_SAYINGS))
def test_an_english_month_is_its_next_occurrence(today: date, month: int, saying: str) -> None:
    name = calendar.month_name[month]
    text = "what do I have " + saying.format(m=name.lower(), M=name, short=calendar.month_abbr[month].lower())
    period = month_period(text, today)
    assert period is not None
    assert (period.first, period.last) == _next_occurrence(today, month)
    assert period.rest == "what do I have"


@given(today=DAYS, month=MONTHS, saying=st.sampled_from(HE_SAYINGS))
def test_a_hebrew_month_is_its_next_occurrence(today: date, month: int, saying: str) -> None:
    period = month_period("מה יש לי " + saying.format(m=HE_MONTHS[month - 1]), today)
    assert period is not None
    assert (period.first, period.last) == _next_occurrence(today, month)
    assert period.rest == "מה יש לי"


@given(today=DAYS)
def test_this_month_and_next_month(today: date) -> None:
    this = _next_occurrence(today, today.month)
    following = _next_occurrence(today, today.month % 12 + 1)
    for text in (
        "reminders for this month",
        "what's left this month",
        "the rest of the month",
        "החודש",
        "בחודש הזה",
    ):
        found = month_period(text, today)
        assert found is not None and (found.first, found.last) == this, text
    for text in ("reminders for next month", "anything in the coming month", "בחודש הבא", "החודש הבא"):
        found = month_period(text, today)
        assert found is not None and (found.first, found.last) == following, text


@given(today=DAYS, month=MONTHS, year=st.integers(min_value=2026, max_value=2035))
def test_a_month_with_its_year_is_that_year(today: date, month: int, year: int) -> None:
    period = month_period(f"what do I have in {calendar.month_name[month]} {year}", today)
    assert period is not None and period.last == date(year, month, calendar.monthrange(year, month)[1])
    assert period.first in (date(year, month, 1), today)


@pytest.mark.parametrize(
    "text",
    [
        "what do I have on january 5",
        "what do I have in january 5th",
        "reminders for the 3rd of march",
        "in 2 months",
        "remind me in a month",
        "what may I do",
        "show my reminders",
        "בעוד חודש",
        "מה יש לי ב-5 בינואר",
        "מה יש לי ב5 במאי",
    ],
)
def test_a_date_or_a_count_is_no_month(text: str) -> None:
    assert month_period(text, date(2026, 11, 29)) is None


@given(
    saturday=st.dates(min_value=date(2024, 1, 1), max_value=date(2040, 12, 31)).map(
        lambda d: d + timedelta(days=(5 - d.weekday()) % 7)
    )
)
def test_a_weekend_is_friday_and_saturday_in_israel_and_saturday_and_sunday_elsewhere(saturday: date) -> None:
    assert weekend_period("this weekend", saturday, "Asia/Jerusalem") == (
        saturday - timedelta(days=1),
        saturday,
    )
    assert weekend_period("the weekend", saturday, "Europe/London") == (
        saturday,
        saturday + timedelta(days=1),
    )
    assert weekend_period("בסוף השבוע", saturday, "Asia/Jerusalem") == (
        saturday - timedelta(days=1),
        saturday,
    )
    # a Saturday read from other words ("on saturday") is that day alone
    assert weekend_period("on saturday", saturday, "Asia/Jerusalem") is None
    assert weekend_period("this weekend", saturday + timedelta(days=1), "Europe/London") is None
