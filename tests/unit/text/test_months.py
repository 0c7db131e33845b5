"""Every way a month is written says its number, in English and Hebrew."""

from __future__ import annotations

import calendar
import re

import pytest

from memo.text.months import MONTH_NUMBERS, MONTHS_HE, month_names


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
