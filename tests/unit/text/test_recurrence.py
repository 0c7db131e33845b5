"""Repeating times: the phrase (English and Hebrew), the RFC 5545 series, its occurrences and words."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from memo.text.recurrence import (
    describe,
    find_recurrence,
    first_occurrence,
    last_occurrence,
    moved,
    next_occurrence,
    series,
)

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)
NOW = datetime(2024, 5, 1, 10, 0, tzinfo=ZONE)  # Wednesday


def rule_of(text: str, timezone: str = TZ) -> str | None:
    found = find_recurrence(text, timezone=timezone, now_local=NOW, language="he" if text[0] > "z" else "en")
    return found.recurrence.rule if found else None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("take vitamins every day at 8am", "FREQ=DAILY"),
        ("daily standup", "FREQ=DAILY"),
        ("every morning meditate", "FREQ=DAILY"),
        ("every weekday at 7:30", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU"),  # the Israeli week
        ("every monday at 9", "FREQ=WEEKLY;BYDAY=MO"),
        ("gym every mon and thu", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("on tuesdays and fridays", "FREQ=WEEKLY;BYDAY=TU,FR"),
        ("every other friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("every week", "FREQ=WEEKLY"),
        ("pay rent on the 1st of every month", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("pay rent at the end of every month", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("לשלם שכירות בסוף כל חודש", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("every 2 hours", "FREQ=HOURLY;INTERVAL=2"),
        ("every 3 days", "FREQ=DAILY;INTERVAL=3"),
        ("every other day", "FREQ=DAILY;INTERVAL=2"),
        ("every year", "FREQ=YEARLY"),
        ("every day for 5 times", "FREQ=DAILY;COUNT=5"),
        ("every day for 2 weeks", "FREQ=DAILY;COUNT=14"),
        ("every day until may 10", "FREQ=DAILY;UNTIL=20240510T235959"),
        ("כל יום ב-8", "FREQ=DAILY"),
        ("כל יום ראשון", "FREQ=WEEKLY;BYDAY=SU"),
        ("בכל יום שני וחמישי", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("כל בוקר", "FREQ=DAILY"),
        ("כל שעתיים", "FREQ=HOURLY;INTERVAL=2"),
        ("כל 3 ימים", "FREQ=DAILY;INTERVAL=3"),
        ("כל שבוע", "FREQ=WEEKLY"),
        ("פעם בחודש", "FREQ=MONTHLY"),
        ("ב-10 לכל חודש", "FREQ=MONTHLY;BYMONTHDAY=10"),
        ("בימי חול", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU"),  # Sunday to Thursday in Israel
        ("כל יום 3 פעמים", "FREQ=DAILY;COUNT=3"),
        # A month day in words, and the weekday said beside a repetition in weeks.
        ("pay rent on the first of every month", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("every month on the first", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("the fifteenth of each month", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("every 2 weeks on friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("every two weeks on tuesday at 9", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"),
        ("פעם בשבועיים ביום שישי", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("כל שבועיים בשישי", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("פעם ביומיים", "FREQ=DAILY;INTERVAL=2"),
    ],
)
def test_phrases(text: str, rule: str) -> None:
    assert rule_of(text) == rule


def test_weekdays_are_monday_to_friday_outside_israel() -> None:
    assert rule_of("every weekday", "Europe/London") == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"


@pytest.mark.parametrize(
    "text", ["call mom tomorrow", "every", "every 2 minutes", "שני דברים", "each of them"]
)
def test_not_a_repetition(text: str) -> None:
    assert rule_of(text) is None


def test_series_starts_at_the_first_matching_time_and_moves_on() -> None:
    text = series("FREQ=WEEKLY;BYDAY=MO,TH", datetime(2024, 5, 1, 9, 0, tzinfo=ZONE), TZ)
    assert text == "DTSTART:20240502T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TH"
    assert first_occurrence(text, TZ) == datetime(2024, 5, 2, 9, 0, tzinfo=ZONE)
    assert next_occurrence(text, TZ, datetime(2024, 5, 2, 9, 0, tzinfo=ZONE)) == datetime(
        2024, 5, 6, 9, 0, tzinfo=ZONE
    )
    assert last_occurrence(text, TZ) is None


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
    assert last_occurrence(text, TZ) == datetime(2024, 5, 4, 8, 0, tzinfo=ZONE)
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


@pytest.mark.parametrize(
    ("rule", "en", "he"),
    [
        ("FREQ=DAILY", "every day at 08:00", "כל יום ב-08:00"),
        ("FREQ=WEEKLY;BYDAY=MO", "every Monday at 08:00", "כל יום שני ב-08:00"),
        (
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
            "every weekday (Mon–Fri) at 08:00",
            "כל יום חול (ב׳–ו׳) ב-08:00",
        ),
        (
            "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH",
            "every weekday (Sun–Thu) at 08:00",
            "כל יום חול (א׳–ה׳) ב-08:00",
        ),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "every other Friday at 08:00", "כל שבועיים ביום שישי ב-08:00"),
        ("FREQ=MONTHLY;BYMONTHDAY=1", "every month on the 1st at 08:00", "ב-1 בכל חודש ב-08:00"),
        (
            "FREQ=MONTHLY;BYMONTHDAY=-1",
            "every month on the last day at 08:00",
            "ביום האחרון של כל חודש ב-08:00",
        ),
        ("FREQ=HOURLY;INTERVAL=2", "every 2 hours", "כל 2 שעות"),
        ("FREQ=DAILY;COUNT=5", "every day at 08:00, 5 times", "כל יום ב-08:00, 5 פעמים"),
    ],
)
def test_describe(rule: str, en: str, he: str) -> None:
    text = series(rule, datetime(2024, 5, 1, 8, 0, tzinfo=ZONE), TZ)
    assert text is not None
    assert describe(text, "en") == en
    assert describe(text, "he") == he


def test_moving_a_series_keeps_its_rule() -> None:
    text = series("FREQ=WEEKLY;BYDAY=MO", datetime(2024, 5, 6, 9, 0, tzinfo=ZONE), TZ)
    assert text is not None
    later = moved(text, TZ, now=NOW, day=None, at=time(18, 0))
    assert later == "DTSTART:20240506T180000\nRRULE:FREQ=WEEKLY;BYDAY=MO"
    friday = moved(text, TZ, now=NOW, day=date(2024, 5, 3), at=None)
    assert friday == "DTSTART:20240503T090000\nRRULE:FREQ=WEEKLY;BYDAY=FR"


@pytest.mark.parametrize(
    ("text", "timezone", "rule"),
    [
        ("every day except saturday", TZ, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SU"),
        ("every day at 7 except sundays", TZ, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA"),
        ("every day except fridays and saturdays", TZ, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU"),
        ("every morning except weekends", TZ, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU"),
        ("every morning except weekends", "Europe/London", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("every monday and friday except friday", TZ, "FREQ=WEEKLY;BYDAY=MO"),
        ("כל יום חוץ משבת", TZ, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SU"),
        ('כל בוקר חוץ מסופ"ש', TZ, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU"),
    ],
)
def test_days_left_out_are_never_dropped(text: str, timezone: str, rule: str) -> None:
    # They were: "every day except saturday" was every day, Saturday included.
    assert rule_of(text, timezone) == rule
