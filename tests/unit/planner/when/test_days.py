"""Days: day words, calendar dates in the user's order, the weekend, and days that have passed."""

from __future__ import annotations

from datetime import date

import pytest

from memo.planner.when.days import take_day, take_past_day
from memo.planner.when.scan import Scan
from tests.unit.planner.conftest import NOW, TZ

# NOW is Wednesday 1 May 2024.


def day_of(text: str, timezone: str = TZ, *, repeating: bool = False) -> date | None:
    return take_day(Scan(text), now_local=NOW, language="en", timezone=timezone, repeating=repeating).day


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("tomorrow", date(2024, 5, 2)),
        ("the day after tomorrow", date(2024, 5, 3)),
        ("on friday", date(2024, 5, 3)),
        ("on wednesday", date(2024, 5, 8)),  # today's weekday: the next one
        ("May 3", date(2024, 5, 3)),
        ("on the 1st", date(2024, 5, 1)),
        ("this weekend", date(2024, 5, 4)),
        ("at the end of the month", date(2024, 5, 31)),
        ("next month", date(2024, 6, 1)),
        ("ביום שישי", date(2024, 5, 3)),
        # a day of the month in Hebrew: digits or an ordinal, "לחודש" or "בחודש"
        ("ב-20 לחודש", date(2024, 5, 20)),
        ("ב-20 בחודש", date(2024, 5, 20)),
        ("בעשירי לחודש", date(2024, 5, 10)),
        ("בשני לחודש", date(2024, 5, 2)),
        ("בראשון לחודש", date(2024, 5, 1)),
    ],
)
def test_the_day_named(text: str, day: date) -> None:
    assert day_of(text) == day


def test_numeric_dates_in_the_users_order() -> None:
    assert day_of("on 3/5") == date(2024, 5, 3)  # day first in Israel
    assert day_of("on 3/5", "America/New_York") == date(2025, 3, 5)  # month first, next March


def test_a_numeric_date_that_is_no_date_is_reported() -> None:
    found = take_day(Scan("on 31/31"), now_local=NOW, language="en", timezone=TZ, repeating=False)
    assert found.day is None and found.invalid


def test_tonight_and_next_weekday_said_near_it() -> None:
    tonight = take_day(Scan("tonight"), now_local=NOW, language="en", timezone=TZ, repeating=False)
    assert tonight.day == NOW.date() and tonight.tonight
    near = take_day(Scan("next friday"), now_local=NOW, language="en", timezone=TZ, repeating=False)
    assert near.day == date(2024, 5, 3) and near.near_next


def test_a_bare_hebrew_ordinal_is_no_day() -> None:
    assert day_of("הפעם השני") is None


def test_next_month_is_not_read_beside_a_repetition() -> None:
    assert day_of("next month", repeating=True) is None


def test_days_that_have_passed() -> None:
    scan = Scan("pay rent yesterday")
    assert take_past_day(scan) and scan.text.strip() == "pay rent"
    assert not take_past_day(Scan("pay rent tomorrow"))


def test_a_day_of_next_month_is_not_read_as_this_months() -> None:
    assert day_of("ב-20 בחודש הבא") != date(2024, 5, 20)
