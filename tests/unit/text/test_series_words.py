"""A series in the user's words, in English and Hebrew."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from memo.text.series import series
from memo.text.series_words import describe

TZ = "Asia/Jerusalem"
ZONE = ZoneInfo(TZ)


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
        ("FREQ=HOURLY;INTERVAL=2", "every 2 hours", "כל שעתיים"),
        ("FREQ=DAILY;COUNT=5", "every day at 08:00, 5 times", "כל יום ב-08:00, 5 פעמים"),
    ],
)
def test_describe(rule: str, en: str, he: str) -> None:
    text = series(rule, datetime(2024, 5, 1, 8, 0, tzinfo=ZONE), TZ)
    assert text is not None
    assert describe(text, "en") == en
    assert describe(text, "he") == he


@pytest.mark.parametrize(
    ("rule", "en", "he"),
    [
        ("FREQ=HOURLY;INTERVAL=2", "every 2 hours", "כל שעתיים"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "every other Friday at 08:00", "כל שבועיים ביום שישי ב-08:00"),
        (
            "FREQ=WEEKLY;INTERVAL=4;BYDAY=MO",
            "every 4 weeks on Monday at 08:00",
            "כל 4 שבועות ביום שני ב-08:00",
        ),
        ("FREQ=DAILY;COUNT=5", "every day at 08:00, 5 times", "כל יום ב-08:00, 5 פעמים"),
        ("FREQ=MONTHLY;BYMONTHDAY=2", "every month on the 2nd at 08:00", "ב-2 בכל חודש ב-08:00"),
        # Every how many months or years is said (it was "every month" / "every year").
        (
            "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=2",
            "every 3 months on the 2nd at 08:00",
            "ב-2 בכל 3 חודשים ב-08:00",
        ),
        (
            "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1",
            "every 2 months on the last day at 08:00",
            "ביום האחרון של כל חודשיים ב-08:00",
        ),
        ("FREQ=YEARLY;INTERVAL=2", "every 2 years on 1 May at 08:00", "כל שנתיים ב-1.5 ב-08:00"),
        # A weekday of the month's weeks.
        (
            "FREQ=MONTHLY;BYDAY=1MO",
            "every first Monday of the month at 08:00",
            "כל יום שני הראשון בחודש ב-08:00",
        ),
        (
            "FREQ=MONTHLY;BYDAY=-1FR",
            "every last Friday of the month at 08:00",
            "כל יום שישי האחרון בחודש ב-08:00",
        ),
        (
            "FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU",
            "every second Tuesday of every 3 months at 08:00",
            "כל יום שלישי השני בכל 3 חודשים ב-08:00",
        ),
    ],
)
def test_how_often_and_how_long(rule: str, en: str, he: str) -> None:
    text = series(rule, datetime(2024, 5, 1, 8, 0, tzinfo=ZONE), TZ)
    assert text is not None
    assert describe(text, "en") == en
    assert describe(text, "he") == he


@pytest.mark.parametrize(
    ("rule", "en", "he"),
    [
        (
            "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0",
            "every hour from 09:00 to 17:00",
            "כל שעה בין 09:00 ל-17:00",
        ),
        (
            "FREQ=DAILY;BYHOUR=10,12,14,16,18;BYMINUTE=30",
            "every 2 hours from 10:30 to 18:30",
            "כל שעתיים בין 10:30 ל-18:30",
        ),
        (
            "FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9,10,11;BYMINUTE=0,30",
            "every 30 minutes from 09:00 to 11:30, every Monday and Wednesday",
            "כל 30 דקות בין 09:00 ל-11:30, כל יום שני ורביעי",
        ),
    ],
)
def test_a_series_within_the_hours_of_a_day_says_its_first_and_last_time(rule: str, en: str, he: str) -> None:
    text = series(rule, datetime(2024, 5, 6, 0, 0, tzinfo=ZONE), TZ)
    assert text is not None
    assert describe(text, "en") == en
    assert describe(text, "he") == he
