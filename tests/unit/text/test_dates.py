"""Dates and times as the user reads them, in their language and timezone."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from memo.text.dates import BARE_MORNING_HOUR, format_span, format_times, format_when, nearer_half


def test_a_time_is_shown_in_the_users_timezone() -> None:
    when = datetime(2024, 5, 6, 14, 0, tzinfo=UTC)
    assert format_when(when, "en", "Asia/Jerusalem") == "Mon 6 May, 17:00"
    assert format_when(when, "he", "Asia/Jerusalem") == "יום ב׳ 6.5 בשעה 17:00"


def test_a_day_has_no_time_of_day() -> None:
    assert format_when(date(2024, 5, 11), "en", "UTC") == "Sat 11 May"
    assert format_when(date(2024, 5, 11), "he", "UTC") == "שבת 11.5"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-05-06T14:00:00+00:00", "Mon 6 May, 17:00"),
        ("2024-05-07", "Tue 7 May"),
        ("tomorrow evening", "tomorrow evening"),
        (None, ""),
    ],
)
def test_iso_text_is_parsed_and_anything_else_is_kept(value: str | None, expected: str) -> None:
    assert format_when(value, "en", "Asia/Jerusalem") == expected


def test_times_of_a_series_are_said_as_one_two_or_from_the_first_to_the_last() -> None:
    first, last = datetime(2024, 5, 6, 14, 0, tzinfo=UTC), datetime(2024, 5, 9, 14, 0, tzinfo=UTC)
    zone = "Asia/Jerusalem"
    assert format_span(first, None, 1, "en", zone) == "Mon 6 May, 17:00"
    assert format_span(first, last, 1, "en", zone) == "Mon 6 May, 17:00"
    assert format_span(first, last, 2, "en", zone) == "Mon 6 May, 17:00 and Thu 9 May, 17:00"
    assert format_span(first, last, 4, "en", zone) == "Mon 6 May, 17:00 to Thu 9 May, 17:00"
    assert format_span(first, last, 2, "he", zone) == "יום ב׳ 6.5 בשעה 17:00 ויום ה׳ 9.5 בשעה 17:00"
    assert format_span(first.isoformat(), last.isoformat(), 4, "he", zone) == (
        "מיום ב׳ 6.5 בשעה 17:00 עד יום ה׳ 9.5 בשעה 17:00"
    )


@pytest.mark.parametrize(
    ("times", "en", "he"),
    [
        ("1", "Mon 6 May, 17:00", "יום ב׳ 6.5 בשעה 17:00"),
        ("2", "Mon 6 May, 17:00 and Thu 9 May, 17:00", "יום ב׳ 6.5 בשעה 17:00 ויום ה׳ 9.5 בשעה 17:00"),
        (
            "4",
            "4 times, Mon 6 May, 17:00 to Thu 9 May, 17:00",
            "4 פעמים, מיום ב׳ 6.5 בשעה 17:00 עד יום ה׳ 9.5 בשעה 17:00",
        ),
        (
            "366+",
            "366+ times, Mon 6 May, 17:00 to Thu 9 May, 17:00",
            "366+ פעמים, מיום ב׳ 6.5 בשעה 17:00 עד יום ה׳ 9.5 בשעה 17:00",
        ),
    ],
)
def test_times_of_a_series_are_said_with_how_many_past_two(times: str, en: str, he: str) -> None:
    first, last = datetime(2024, 5, 6, 14, 0, tzinfo=UTC), datetime(2024, 5, 9, 14, 0, tzinfo=UTC)
    assert format_times(first, last if times != "1" else None, times, "en", "Asia/Jerusalem") == en
    assert (
        format_times(
            first.isoformat(), last.isoformat() if times != "1" else None, times, "he", "Asia/Jerusalem"
        )
        == he
    )


@pytest.mark.parametrize("hour", range(24))
def test_a_morning_hour_is_the_half_of_the_day_nearer_the_time_it_corrects(hour: int) -> None:
    zone = ZoneInfo("Asia/Jerusalem")
    current = datetime(2027, 3, 10, hour, 45, tzinfo=zone)
    for bare in range(7, 12):
        said = datetime(2027, 3, 10, bare, 0, tzinfo=zone)
        found = nearer_half(said, current, either_half=True)
        morning, evening = abs(bare * 60 - (hour * 60 + 45)), abs((bare + 12) * 60 - (hour * 60 + 45))
        assert found.hour == (bare + 12 if evening < morning else bare)
        assert nearer_half(said, current, either_half=False) == said
        assert nearer_half(said, None, either_half=True) == said
    assert (
        BARE_MORNING_HOUR.match("9") and BARE_MORNING_HOUR.match("11:30") and not BARE_MORNING_HOUR.match("5")
    )
