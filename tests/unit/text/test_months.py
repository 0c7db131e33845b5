"""Every way a month is written says its number, in English and Hebrew."""

from __future__ import annotations

import calendar
import re
from datetime import date

import pytest

from memo.text.months import MONTH_NUMBERS, MONTHS_EN, MONTHS_HE, last_day_said, month_names


@pytest.mark.parametrize("month", range(1, 13))
def test_names_and_abbreviations_say_the_month(month: int) -> None:
    assert MONTH_NUMBERS[calendar.month_name[month].lower()] == month
    assert MONTH_NUMBERS[calendar.month_abbr[month].lower()] == month
    assert MONTH_NUMBERS[MONTHS_HE[month - 1]] == month


def test_the_alternations_match_whole_names_of_one_language() -> None:
    english, hebrew = (
        re.compile(rf"^(?:{month_names(hebrew=False)})$"),
        re.compile(rf"^(?:{month_names(hebrew=True)})$"),
    )
    assert english.match("september") and english.match("sept") and not english.match("דצמבר")
    assert hebrew.match("מרס") and hebrew.match("דצמבר") and not hebrew.match("may")
    assert MONTH_NUMBERS["sept"] == 9


@pytest.mark.parametrize("month", range(1, 13))
@pytest.mark.parametrize("today_month", range(1, 13))
def test_the_last_day_of_a_month_said_is_the_next_one_to_come(month: int, today_month: int) -> None:
    today = date(2031, today_month, 15)
    year = 2031 if month >= today_month else 2032
    expected = date(year, month, calendar.monthrange(year, month)[1])
    for said in (
        MONTHS_EN[month - 1],
        f"the end of {MONTHS_EN[month - 1]}",
        MONTHS_HE[month - 1],
        f"סוף {MONTHS_HE[month - 1]}",
    ):
        assert last_day_said(said, today) == expected, said


@pytest.mark.parametrize("said", ["friday", "tomorrow", "may day", "the end of the week", "", "december 5"])
def test_anything_else_is_no_last_day(said: str) -> None:
    assert last_day_said(said, date(2031, 6, 1)) is None
