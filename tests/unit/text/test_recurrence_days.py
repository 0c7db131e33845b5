"""The days of a repetition in words: weekday lists in English and Hebrew, the work week and the
weekend of a timezone, a day of the month said as a number or an ordinal."""

from __future__ import annotations

import pytest

from memo.text.recurrence_days import (
    EN_WEEKDAY_WORDS,
    HE_WEEKDAY_WORDS,
    month_day,
    weekday_list,
    weekend,
    workweek,
)


@pytest.mark.parametrize(
    ("words", "table", "days"),
    [
        ("monday, wednesday and fridays", EN_WEEKDAY_WORDS, (0, 2, 4)),
        ("tues & thurs & tues", EN_WEEKDAY_WORDS, (1, 3)),  # each day once, in the order said
        ("ראשון, שלישי וחמישי", HE_WEEKDAY_WORDS, (6, 1, 3)),
        ("nothing here", EN_WEEKDAY_WORDS, ()),
    ],
)
def test_weekday_list(words: str, table: dict[str, int], days: tuple[int, ...]) -> None:
    assert weekday_list(words, table) == days


def test_the_week_of_a_timezone() -> None:
    assert workweek("Asia/Jerusalem") == (6, 0, 1, 2, 3) and weekend("Asia/Jerusalem") == (4, 5)
    assert workweek("Europe/London") == (0, 1, 2, 3, 4) and weekend("Europe/London") == (5, 6)


@pytest.mark.parametrize(
    ("said", "day"), [("1st", 1), ("first", 1), ("15", 15), ("ראשון", 1), ("אחד", 1), ("22nd", 22)]
)
def test_month_day(said: str, day: int) -> None:
    assert month_day(said) == day
