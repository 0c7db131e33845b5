"""Dates and times in the user's timezone, English and Hebrew."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from memo.planner.timeparse import ParsedWhen, extract_when, parse_time_answer
from tests.unit.planner.conftest import NOW, TZ


@pytest.mark.parametrize(
    ("text", "when", "rest"),
    [
        ("call mom tomorrow at 5pm", "2024-05-02T17:00:00+03:00", "call mom"),
        ("call mom tomorrow at 5", "2024-05-02T17:00:00+03:00", "call mom"),
        ("buy milk at 9am", "2024-05-02T09:00:00+03:00", "buy milk"),  # 9am today has passed
        ("buy milk at 9", "2024-05-01T21:00:00+03:00", "buy milk"),  # the next 9 o'clock
        ("check the oven in 2 hours", "2024-05-01T12:00:00+03:00", "check the oven"),
        ("stretch in half an hour", "2024-05-01T10:30:00+03:00", "stretch"),
        ("call dad on friday at 8:30", "2024-05-03T08:30:00+03:00", "call dad"),
        ("pay rent on May 3 at 10am", "2024-05-03T10:00:00+03:00", "pay rent"),
        ("water plants on 3/5 at 18:00", "2024-05-03T18:00:00+03:00", "water plants"),
        ("take pills tonight", "2024-05-01T20:00:00+03:00", "take pills"),
        ("gym tomorrow morning", "2024-05-02T09:00:00+03:00", "gym"),
        ("call the bank first thing tomorrow", "2024-05-02T09:00:00+03:00", "call the bank"),
        ("send the invoice first thing in the morning", "2024-05-02T09:00:00+03:00", "send the invoice"),
        ("lunch at noon", "2024-05-01T12:00:00+03:00", "lunch"),
        ("להתקשר לאמא מחר ב-17:00", "2024-05-02T17:00:00+03:00", "להתקשר לאמא"),
        ("להתקשר לאמא מחר ב17:00", "2024-05-02T17:00:00+03:00", "להתקשר לאמא"),
        ("לקנות חלב בעוד שעתיים", "2024-05-01T12:00:00+03:00", "לקנות חלב"),
        ("לכבות את התנור בעוד 10 דקות", "2024-05-01T10:10:00+03:00", "לכבות את התנור"),
        ("לשלם חשמל ביום שלישי בשעה 9", "2024-05-07T09:00:00+03:00", "לשלם חשמל"),
        ("פגישה מחרתיים ב-8 בערב", "2024-05-03T20:00:00+03:00", "פגישה"),
        ("לקנות מתנה ב-3 במאי ב-12:00", "2024-05-03T12:00:00+03:00", "לקנות מתנה"),
        ("להתקשר לדני בשבת בשעה 20:00", "2024-05-04T20:00:00+03:00", "להתקשר לדני"),
        # A meal says which half of the day a bare hour is in.
        ("dinner with the cohens on friday at 8", "2024-05-03T20:00:00+03:00", "dinner with the cohens"),
        ("lunch with dana tomorrow at 1", "2024-05-02T13:00:00+03:00", "lunch with dana"),
        ("breakfast with dad tomorrow at 7", "2024-05-02T07:00:00+03:00", "breakfast with dad"),
        ("ארוחת ערב אצל סבתא ביום שישי בשמונה", "2024-05-03T20:00:00+03:00", "ארוחת ערב אצל סבתא"),
    ],
)
def test_full_date_and_time(text: str, when: str, rest: str) -> None:
    parsed = extract_when(text, now=NOW, timezone=TZ, language="he" if text[0] > "z" else "en")
    assert parsed.when is not None and parsed.when.isoformat() == when
    assert parsed.remainder == rest


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("call mom tomorrow", date(2024, 5, 2)),
        ("dentist next monday", date(2024, 5, 6)),
        ("להתקשר לאמא מחר", date(2024, 5, 2)),
        ("ביום שישי", date(2024, 5, 3)),
        # The weekend is its Saturday (a weekend day in Israel and elsewhere).
        ("call mom this weekend", date(2024, 5, 4)),
        ("להתקשר לאמא בסוף השבוע", date(2024, 5, 4)),
        # "before": the day named, less that much.
        ("buy a gift a week before may 20", date(2024, 5, 13)),
        ("pack 2 days before friday", date(2024, 5, 1)),
        ("לקנות מתנה שבוע לפני ה-20 במאי", date(2024, 5, 13)),
        ("לקנות מתנה ה-20 במאי", date(2024, 5, 20)),
        # The end of the month is its last day; next month, the same day of it.
        ("pay rent at the end of the month", date(2024, 5, 31)),
        ("לשלם בסוף החודש", date(2024, 5, 31)),
        ("renew the insurance next month", date(2024, 6, 1)),
        ("לחדש את הביטוח בחודש הבא", date(2024, 6, 1)),
    ],
)
def test_day_without_time(text: str, day: date) -> None:
    parsed = extract_when(text, now=NOW, timezone=TZ, language="he" if text[0] > "z" else "en")
    assert parsed.when is None and parsed.day == day and not parsed.has_time


def test_nothing_found_and_bare_hebrew_ordinals_are_not_days() -> None:
    assert not extract_when("call mom", now=NOW, timezone=TZ).found
    assert not extract_when("שני דברים", now=NOW, timezone=TZ, language="he").found


def test_times_are_in_the_users_timezone_across_dst() -> None:
    new_york = "America/New_York"
    now = datetime(2024, 3, 9, 12, 0, tzinfo=ZoneInfo(new_york))  # EST; DST starts the next day
    parsed = extract_when("tomorrow at 9am", now=now, timezone=new_york)
    assert parsed.when is not None and parsed.when.utcoffset() == timedelta(hours=-4)  # EDT after the switch
    assert parsed.when.hour == 9


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        extract_when("at 5", now=datetime(2024, 5, 1, 10, 0), timezone=TZ)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("5pm", "2024-05-03T17:00:00+03:00"),
        ("17", "2024-05-03T17:00:00+03:00"),
        ("9:30", "2024-05-03T09:30:00+03:00"),
        ("ב-8 בבוקר", "2024-05-03T08:00:00+03:00"),
        ("tomorrow at 6pm", "2024-05-02T18:00:00+03:00"),
    ],
)
def test_time_answers_land_on_the_known_day(answer: str, expected: str) -> None:
    when = parse_time_answer(answer, now=NOW, timezone=TZ, language="en", day=date(2024, 5, 3))
    assert when is not None and when.isoformat() == expected


def test_time_answer_that_is_no_time() -> None:
    assert parse_time_answer("banana", now=NOW, timezone=TZ, language="en", day=None) is None
    assert parse_time_answer("99", now=NOW, timezone=TZ, language="en", day=None) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 10:30 in Jerusalem: a morning hour already past is tomorrow morning, never tonight.
        ("ב-8 בבוקר", "2026-11-25T08:00"),
        ("8 בבוקר", "2026-11-25T08:00"),
        ("at 8 in the morning", "2026-11-25T08:00"),
        ("8 in the morning", "2026-11-25T08:00"),
        ("7 בערב", "2026-11-24T19:00"),
        ("7 in the evening", "2026-11-24T19:00"),
        ("ב-11 בבוקר", "2026-11-24T11:00"),
        ("at 8", "2026-11-24T20:00"),  # no part of the day: the next 8 o'clock
    ],
)
def test_a_part_of_the_day_fixes_the_hour(text: str, expected: str) -> None:
    now = datetime(2026, 11, 24, 8, 30, tzinfo=ZoneInfo("UTC"))
    language = "he" if any("\u0590" <= ch <= "\u05ff" for ch in text) else "en"
    parsed = extract_when(text, now=now, timezone="Asia/Jerusalem", language=language)
    assert parsed.when is not None and parsed.when.strftime("%Y-%m-%dT%H:%M") == expected
    assert parsed.remainder == ""


def test_a_number_before_a_part_of_the_day_that_is_not_its_hour_stays_in_the_title() -> None:
    now = datetime(2026, 11, 24, 8, 30, tzinfo=ZoneInfo("UTC"))
    parsed = extract_when("take 2 pills in the morning", now=now, timezone="Asia/Jerusalem")
    assert parsed.remainder == "take 2 pills" and parsed.when is not None and parsed.when.hour == 9


def test_before_with_no_day_to_count_from_stays_in_the_words() -> None:
    parsed = extract_when("buy a gift a week before my birthday", now=NOW, timezone=TZ)
    assert not parsed.found and parsed.remainder == "buy a gift a week before my birthday"


def test_before_a_day_that_is_then_past_is_a_problem() -> None:
    assert extract_when("pack 3 days before friday", now=NOW, timezone=TZ).problem == "past"


@pytest.mark.parametrize(
    ("text", "when", "rest", "event"),
    [
        ("15 minutes before my 3pm meeting", "2024-05-01T14:45:00+03:00", "my meeting", "15:00"),
        ("an hour before the dentist tomorrow at 10", "2024-05-02T09:00:00+03:00", "the dentist", "10:00"),
        ("half an hour before the 5pm train", "2024-05-01T16:30:00+03:00", "the train", "17:00"),
        ("רבע שעה לפני הפגישה בשלוש", "2024-05-01T14:45:00+03:00", "הפגישה", "15:00"),
        ("10 דקות לפני האימון מחר ב-18:00", "2024-05-02T17:50:00+03:00", "האימון", "18:00"),
    ],
)
def test_a_lead_before_a_time_of_day(text: str, when: str, rest: str, event: str) -> None:
    parsed = extract_when(text, now=NOW, timezone=TZ)
    assert parsed.when is not None and parsed.when.isoformat() == when
    assert parsed.remainder == rest and parsed.lead_for == event


def test_a_lead_with_no_time_to_count_from_stays_in_the_words() -> None:
    parsed = extract_when("15 minutes before my meeting", now=NOW, timezone=TZ)
    assert not parsed.found and parsed.remainder == "15 minutes before my meeting"


def test_a_lead_that_lands_before_now_is_a_problem() -> None:
    # 10:20 less half an hour is 09:50, and it is 10:00.
    assert extract_when("half an hour before 10:20", now=NOW, timezone=TZ).problem == "past"


@pytest.mark.parametrize(
    "text", ["call the bank tomorrow at 9:", "call the bank tomorrow at 9.", "לבנק מחר ב-9:"]
)
def test_an_hour_with_a_colon_or_a_stop_after_it(text: str) -> None:
    parsed = extract_when(text, now=NOW, timezone=TZ)
    assert parsed.when is not None and parsed.when.isoformat() == "2024-05-02T09:00:00+03:00"


@pytest.mark.parametrize(
    ("text", "near"),
    [
        # NOW is a Wednesday: Thursday and Friday are a day or two away, "next" may mean a week later.
        ("next thursday at 10", True),
        ("next friday at 10", True),
        ("ביום חמישי הבא בעשר", True),
        ("next monday at 10", False),  # five days away: only one reading
        ("on thursday at 10", False),  # no "next"
        ("every thursday at 10", False),
    ],
)
def test_next_weekday_a_day_or_two_away_is_marked(text: str, near: bool) -> None:
    parsed = extract_when(text, now=NOW, timezone=TZ, language="he" if "ב" in text else "en")
    assert parsed.near_next is near


# --- found anywhere in the sentence, repetition, problems --------------------------------------


def parse(text: str, timezone: str = TZ, now: datetime = NOW) -> ParsedWhen:
    language = "he" if any("\u0590" <= ch <= "\u05ff" for ch in text) else "en"
    return extract_when(text, now=now, timezone=timezone, language=language)


# NOW is Wednesday 1 May 2024, 10:00 in Jerusalem.
@pytest.mark.parametrize(
    ("text", "when", "title"),
    [
        ("in 20 min stretch", "2024-05-01T10:20:00+03:00", "stretch"),
        ("stretch in half an hour", "2024-05-01T10:30:00+03:00", "stretch"),
        ("check the oven in 2 hrs", "2024-05-01T12:00:00+03:00", "check the oven"),
        ("in an hour and a half leave", "2024-05-01T11:30:00+03:00", "leave"),
        ("בעוד רבע שעה לצאת", "2024-05-01T10:15:00+03:00", "לצאת"),
        ("לכבות את הגז בעוד 20 דקות", "2024-05-01T10:20:00+03:00", "לכבות את הגז"),
        ("call mom tmrw at 5pm", "2024-05-02T17:00:00+03:00", "call mom"),
        ("call mom tomorow at 5pm", "2024-05-02T17:00:00+03:00", "call mom"),
        ("pills tonight", "2024-05-01T20:00:00+03:00", "pills"),
        ("run in the morning", "2024-05-02T09:00:00+03:00", "run"),  # the next morning
        ("לרוץ בערב", "2024-05-01T19:00:00+03:00", "לרוץ"),
        ("מחר בשמונה בבוקר ריצה", "2024-05-02T08:00:00+03:00", "ריצה"),
        ("ריצה מחר בשמונה בבוקר", "2024-05-02T08:00:00+03:00", "ריצה"),
        ("call dad at five", "2024-05-01T17:00:00+03:00", "call dad"),
        ("call dad at five thirty", "2024-05-01T17:30:00+03:00", "call dad"),
        ("dinner at half past six", "2024-05-01T18:30:00+03:00", "dinner"),
        ("leave at quarter to 7", "2024-05-01T18:45:00+03:00", "leave"),
        ("פגישה בשלוש וחצי", "2024-05-01T15:30:00+03:00", "פגישה"),
        ("שלוש וחצי פגישה", "2024-05-01T15:30:00+03:00", "פגישה"),
        ("לצאת רבע לשבע", "2024-05-01T18:45:00+03:00", "לצאת"),
        ("לצאת מחר ב-8 ורבע", "2024-05-02T08:15:00+03:00", "לצאת"),
        ("standup at 17:30", "2024-05-01T17:30:00+03:00", "standup"),
        ("standup tomorrow at 09:05", "2024-05-02T09:05:00+03:00", "standup"),
        ("dentist next Tuesday at 11am", "2024-05-07T11:00:00+03:00", "dentist"),
        ("pay rent on the 3rd at 9am", "2024-05-03T09:00:00+03:00", "pay rent"),
        ("buy gifts on 25/12 at 10am", "2024-12-25T10:00:00+02:00", "buy gifts"),
        ("buy gifts on 12/25 at 10am", "2024-12-25T10:00:00+02:00", "buy gifts"),  # only one reading
    ],
)
def test_found_anywhere_and_removed_from_the_title(text: str, when: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.problem is None
    assert parsed.when is not None and parsed.when.isoformat() == when
    assert parsed.remainder == title


def test_day_and_month_order_follow_the_users_locale() -> None:
    assert parse("on 3/5", TZ).day == date(2024, 5, 3)  # day first in Israel
    new_york = "America/New_York"
    now = datetime(2024, 1, 10, 10, 0, tzinfo=ZoneInfo(new_york))
    assert parse("on 3/5", new_york, now).day == date(2024, 3, 5)  # month first in the US


def test_the_1st_is_the_next_first_of_a_month() -> None:
    assert parse("pay rent on the 1st").day == date(2024, 5, 1)  # today is the 1st
    assert parse("on the 30th").day == date(2024, 5, 30)
    later = datetime(2024, 5, 2, 10, 0, tzinfo=ZoneInfo(TZ))
    assert parse("pay rent on the 1st", now=later).day == date(2024, 6, 1)


@pytest.mark.parametrize(
    ("text", "problem", "title"),
    [
        ("call the bank at 25:00", "invalid_time", "call the bank"),
        ("call the bank at 17:75", "invalid_time", "call the bank"),
        ("call the bank at 13pm", "invalid_time", "call the bank"),
        ("pay rent on 31/2", "invalid_time", "pay rent"),
        ("pay rent yesterday", "past", "pay rent"),
        ("pay rent yesterday at 5pm", "past", "pay rent"),
        ("לשלם חשבון אתמול", "past", "לשלם חשבון"),
        ("call mom today at 9am", "past", "call mom"),  # 09:00 today is before 10:00
    ],
)
def test_impossible_or_past_times_are_problems_not_guesses(text: str, problem: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.problem == problem
    assert parsed.when is None and parsed.day is None
    assert parsed.remainder == title


@pytest.mark.parametrize(
    ("text", "rule", "first", "title"),
    [
        ("take vitamins every day at 8am", "FREQ=DAILY", "2024-05-02T08:00:00+03:00", "take vitamins"),
        ("every monday at 9 team sync", "FREQ=WEEKLY;BYDAY=MO", "2024-05-06T09:00:00+03:00", "team sync"),
        ("drink water every 2 hours", "FREQ=HOURLY;INTERVAL=2", "2024-05-01T12:00:00+03:00", "drink water"),
        ("meditate every morning", "FREQ=DAILY", "2024-05-02T09:00:00+03:00", "meditate"),
        ("כל יום ראשון ב-9 להוציא זבל", "FREQ=WEEKLY;BYDAY=SU", "2024-05-05T09:00:00+03:00", "להוציא זבל"),
        ("ויטמינים כל יום בשמונה בבוקר", "FREQ=DAILY", "2024-05-02T08:00:00+03:00", "ויטמינים"),
        (
            "rent on the 1st of every month at 9am",
            "FREQ=MONTHLY;BYMONTHDAY=1",
            "2024-06-01T09:00:00+03:00",
            "rent",
        ),
    ],
)
def test_repetition(text: str, rule: str, first: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.recurrence == rule
    assert parsed.when is not None and parsed.when.isoformat() == first
    assert parsed.remainder == title


def test_a_repetition_without_a_time_of_day_waits_for_one() -> None:
    parsed = parse("water the plants every monday")
    assert parsed.recurrence == "FREQ=WEEKLY;BYDAY=MO" and parsed.when is None
    assert parsed.remainder == "water the plants"


def test_what_a_move_changes() -> None:
    assert parse("to 6pm").change() == {"time": "18:00"}
    assert parse("to friday").change() == {"day": "2024-05-03"}
    assert parse("to friday at 6pm").change() == {"when": "2024-05-03T18:00:00+03:00"}
    assert parse("in 2 hours").change() == {"when": "2024-05-01T12:00:00+03:00"}


@pytest.mark.parametrize("text", ["להביא מסמכים לפני הפגישה", "call before the meeting", "buy 2 tickets"])
def test_words_that_are_not_times_stay_in_the_title(text: str) -> None:
    parsed = parse(text)
    assert not parsed.found and parsed.remainder == text


# --- clock times as people write them (the whole grid: test_timeparse_grid.py) -----------------


# NOW is Wednesday 1 May 2024, 10:00 in Jerusalem.
@pytest.mark.parametrize(
    ("text", "when", "title"),
    [
        # Were "That time doesn't exist" ("15 pm" read as an hour), 06:15 titled "pm to call bob",
        # two reminders one titled "30am", and 17:00 titled "quarter past".
        ("remind me at 6:15 pm to pick up the kids", "2024-05-01T18:15", "remind me to pick up the kids"),
        ("6.15 pm call bob", "2024-05-01T18:15", "call bob"),
        ("7.30am gym", "2024-05-02T07:30", "gym"),
        ("call bob quarter past 5 pm", "2024-05-01T17:15", "call bob"),
        ("call bob half past 5 pm", "2024-05-01T17:30", "call bob"),
        ("call bob at half 7 tmrw", "2024-05-02T07:30", "call bob"),
        ("call bob twenty to seven", "2024-05-01T18:40", "call bob"),
        ("call bob twenty-five past six", "2024-05-01T18:25", "call bob"),
        ("eat at lunchtime", "2024-05-01T12:00", "eat"),
        ("להתקשר לבוב עשרים לשבע", "2024-05-01T18:40", "להתקשר לבוב"),
        ("להתקשר לבוב בחצות", "2024-05-02T00:00", "להתקשר לבוב"),
        # An hour without am/pm: the next one within waking hours (07:00 to midnight) on its day.
        ("call the insurance at 3:30 tomorrow", "2024-05-02T15:30", "call the insurance"),
        ("call bob on monday at 2:15", "2024-05-06T14:15", "call bob"),
        ("להתקשר לבוב מחר ב-4:30", "2024-05-02T16:30", "להתקשר לבוב"),
        ("call bob tomorrow at 7", "2024-05-02T07:00", "call bob"),
        ("call bob today at 9", "2024-05-01T21:00", "call bob"),  # 09:00 has passed
        ("call bob tomorrow at 12:30", "2024-05-02T12:30", "call bob"),
        # Midnight is the end of the day named.
        ("call bob on friday at midnight", "2024-05-04T00:00", "call bob"),
        ("call bob today at midnight", "2024-05-02T00:00", "call bob"),
        # A single unit before "to" is no time: "the meeting one to 4pm" is 16:00, not 15:59.
        ("move the meeting one to 4pm", "2024-05-01T16:00", "move the meeting one"),
    ],
)
def test_clock_times_as_people_write_them(text: str, when: str, title: str) -> None:
    parsed = parse(text)
    assert parsed.problem is None
    assert parsed.when is not None and parsed.when.strftime("%Y-%m-%dT%H:%M") == when
    assert parsed.remainder == title


def test_saturday_night_said_on_saturday_morning_is_tonight() -> None:
    saturday = datetime(2024, 5, 4, 9, 30, tzinfo=ZoneInfo(TZ))
    assert parse("call bob saturday night", now=saturday).when == datetime(
        2024, 5, 4, 21, 0, tzinfo=ZoneInfo(TZ)
    )
    late = datetime(2024, 5, 4, 22, 0, tzinfo=ZoneInfo(TZ))  # the night has begun: next Saturday's
    assert parse("call bob saturday night", now=late).when == datetime(
        2024, 5, 11, 21, 0, tzinfo=ZoneInfo(TZ)
    )
    # Without a part of the day, a weekday said on that weekday is a week later.
    assert parse("call bob on saturday at 9pm", now=saturday).when == datetime(
        2024, 5, 11, 21, 0, tzinfo=ZoneInfo(TZ)
    )


NEW_YORK = ZoneInfo("America/New_York")


def test_the_hour_the_clocks_skip_does_not_exist() -> None:
    # 10 March 2024: New York's clocks go from 02:00 to 03:00.
    now = datetime(2024, 3, 1, 12, 0, tzinfo=NEW_YORK)
    for text in ("call bob on 3/10 at 2:30am", "call bob on 3/10 at 02:00", "call bob on 3/10 at 2:59 am"):
        parsed = parse(text, "America/New_York", now)
        assert parsed.problem == "invalid_time" and parsed.when is None and parsed.remainder == "call bob"
    # Either side of it, and an hour said without am/pm (the afternoon's), exist.
    assert parse("call bob on 3/10 at 1:59am", "America/New_York", now).when == datetime(
        2024, 3, 10, 1, 59, tzinfo=NEW_YORK
    )
    after = parse("call bob on 3/10 at 3:00am", "America/New_York", now).when
    assert after is not None and after.isoformat() == "2024-03-10T03:00:00-04:00"
    bare = parse("call bob on 3/10 at 2:30", "America/New_York", now).when
    assert bare is not None and bare.isoformat() == "2024-03-10T14:30:00-04:00"


def test_the_hour_the_clocks_repeat_is_its_first_time() -> None:
    # 3 November 2024: New York's clocks go from 02:00 back to 01:00; 01:30 happens twice.
    now = datetime(2024, 10, 20, 12, 0, tzinfo=NEW_YORK)
    parsed = parse("call bob on 11/3 at 1:30am", "America/New_York", now)
    assert parsed.when is not None and parsed.when.isoformat() == "2024-11-03T01:30:00-04:00"  # still EDT
    assert parsed.when.astimezone(ZoneInfo("UTC")).hour == 5


def test_minutes_from_now_are_real_minutes_across_a_change_of_the_clock() -> None:
    before = datetime(2024, 3, 10, 1, 30, tzinfo=NEW_YORK)  # half an hour before the clocks go forward
    parsed = parse("call bob in 90 minutes", "America/New_York", before)
    assert parsed.when is not None and parsed.when.isoformat() == "2024-03-10T04:00:00-04:00"
    utc = ZoneInfo("UTC")
    assert parsed.when.astimezone(utc) - before.astimezone(utc) == timedelta(minutes=90)


def test_a_yearly_repetition_said_without_its_time_keeps_its_day() -> None:
    # NOW is 1 May 2024: the next March 5 is next year's.
    for said in ("call dad every year on march 5", "call dad every march 5", "להתקשר לאבא כל 5 במרץ"):
        parsed = extract_when(said, now=NOW, timezone=TZ, language="he" if said[0] > "z" else "en")
        assert (parsed.recurrence, parsed.day, parsed.when) == ("FREQ=YEARLY", date(2025, 3, 5), None), said


@pytest.mark.parametrize(
    ("answer", "hour"),
    [
        ("morning", 9), ("Morning.", 9), ("the morning", 9), ("afternoon", 15), ("evening", 19),
        ("the evening!", 19), ("night", 21), ("בוקר", 9), ("צהריים", 12), ("ערב", 19), ("לילה", 21),
    ],
)  # fmt: skip
def test_a_part_of_the_day_alone_answers_what_time(answer: str, hour: int) -> None:
    # "morning" answering "What time on Wed 25 Nov?" was not understood ("in the morning" was).
    language = "he" if answer[0] > "z" else "en"
    when = parse_time_answer(answer, now=NOW, timezone=TZ, language=language, day=date(2024, 5, 3))
    assert when is not None and (when.date(), when.hour, when.minute) == (date(2024, 5, 3), hour, 0)


@pytest.mark.parametrize(
    "answer", ["morning person", "the morning news", "good morning", "ערב טוב", "בוקר טוב"]
)
def test_a_part_of_the_day_among_other_words_is_no_answer(answer: str) -> None:
    language = "he" if answer[0] > "z" else "en"
    assert parse_time_answer(answer, now=NOW, timezone=TZ, language=language, day=date(2024, 5, 3)) is None
