"""Days: day words, calendar dates in the user's order, the weekend, and days that have passed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from memo.planner.rules import RulePlanner
from memo.planner.when.days import hebrew_dotted_times, take_day, take_past_day
from memo.planner.when.scan import Scan
from tests.unit.planner.conftest import NOW, TZ, pin

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


_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december"]  # fmt: skip
_MONTHS_HE = ["ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
              "נובמבר", "דצמבר"]  # fmt: skip


@pytest.mark.parametrize("month", range(1, 13))
def test_every_named_day_of_every_month_is_that_day_or_reported(month: int) -> None:
    """Each day 1..31 of each month, in the ways it is written: the very day (in the year ahead),
    or, for a day the month does not have, reported as no date: never some other day."""
    import calendar

    name = _MONTHS[month - 1]
    for day in range(1, 32):
        ways = [f"on {name} {day}", f"on the {day}th of {name}", f"{name[:3]} {day}", f"{day} {name}"]
        ways_he = [f"ב-{day} ב{_MONTHS_HE[month - 1]}", f"{day} ב{_MONTHS_HE[month - 1]}"]
        for text, language in [*((w, "en") for w in ways), *((w, "he") for w in ways_he)]:
            found = take_day(Scan(text), now_local=NOW, language=language, timezone=TZ, repeating=False)
            if (month, day) == (2, 29):  # only in a leap year: that day when there is one ahead
                assert found.day is None or (found.day.month, found.day.day) == (2, 29), text
            elif day <= calendar.monthrange(2023, month)[1]:
                assert found.day is not None and (found.day.month, found.day.day) == (month, day), text
                assert found.day >= NOW.date(), text
            else:
                assert found.day is None and found.invalid, text


def test_feb_29_in_a_year_without_one_is_reported() -> None:
    assert take_day(Scan("feb 29 2027"), now_local=NOW, language="en", timezone=TZ, repeating=False).invalid
    leap = take_day(Scan("feb 29 2028"), now_local=NOW, language="en", timezone=TZ, repeating=False)
    assert leap.day == date(2028, 2, 29)


WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


@pytest.mark.parametrize("lead", ["this coming", "the coming", "this upcoming", "upcoming", "coming", "this"])
@pytest.mark.parametrize("weekday", range(7))
def test_a_weekday_said_as_coming_is_its_next_one_and_leaves_no_word(lead: str, weekday: int) -> None:
    # "this coming friday" left "this" in the title ("this to buy flowers").
    scan = Scan(f"remind me {lead} {WEEKDAY_NAMES[weekday]} to buy flowers")
    found = take_day(scan, now_local=NOW, language="en", timezone=TZ, repeating=False)
    ahead = (weekday - NOW.weekday()) % 7 or 7
    assert found.day == NOW.date() + timedelta(days=ahead)
    assert " ".join(scan.text.split()) == "remind me to buy flowers"


HE_WEEKDAYS = {"ראשון": 6, "שני": 0, "שלישי": 1, "רביעי": 2, "חמישי": 3, "שישי": 4}


@pytest.mark.parametrize(
    "form", ["ב{d}", "ב-{d}", "ביום {d}", "{d} הזה", "{d} הקרוב", "ביום {d} הזה", "ב{d} הקרוב"]
)
@pytest.mark.parametrize("name", sorted(HE_WEEKDAYS))
def test_a_hebrew_weekday_said_as_a_day(form: str, name: str) -> None:
    # "בשישי" (on Friday) and "שישי הזה" were no day: the words went into the title, the reminder today.
    scan = Scan(f"תזכיר לי {form.format(d=name)} לקנות פרחים")
    found = take_day(scan, now_local=NOW, language="he", timezone=TZ, repeating=False)
    ahead = (HE_WEEKDAYS[name] - NOW.weekday()) % 7 or 7
    assert found.day == NOW.date() + timedelta(days=ahead)
    assert " ".join(scan.text.split()) == "תזכיר לי לקנות פרחים"


@pytest.mark.parametrize(("said", "day"), [("בראשון לחודש", 1), ("בשני לחודש", 2), ("בשלישי לחודש", 3)])
def test_a_hebrew_ordinal_of_the_month_is_no_weekday(said: str, day: int) -> None:
    found = take_day(
        Scan(f"תזכיר לי {said} לשלם"), now_local=NOW, language="he", timezone=TZ, repeating=False
    )
    assert found.day is not None and found.day.day == day


@pytest.mark.parametrize("count", ["שני לחמים", "שלישייה של ביצים", "חמישי כיתה"])
def test_an_ordinal_word_before_the_day_leaves_the_day_to_be_read(count: str) -> None:
    # "לקנות שני לחמים מחר" was set for today: the bare "שני" stopped the search for "מחר".
    scan = Scan(f"תזכיר לי לקנות {count} מחר")
    found = take_day(scan, now_local=NOW, language="he", timezone=TZ, repeating=False)
    assert found.day == NOW.date() + timedelta(days=1)
    assert count in scan.text


_DAY_WORDS = ["היום", "מחר", "מחרתיים", "ביום רביעי", "בשבת", "הערב"]


@pytest.mark.parametrize("lead", ["ב-", "ב", "ל-", "בשעה "])
def test_a_hebrew_dotted_time_is_a_time_where_it_can_be_no_date_or_a_day_is_named(lead: str) -> None:
    # "היום ב-19.05" was 19 May, and "מחר ב-7.30" asked the time.
    for hour in range(24):
        for minute in range(60):
            dotted, colon = f"{lead}{hour}.{minute:02d}", f"{lead}{hour}:{minute:02d}"
            alone = hebrew_dotted_times(f"להתקשר לדנה {dotted}")
            a_date = 1 <= minute <= 12 and not lead.startswith("בשעה")
            assert alone == f"להתקשר לדנה {dotted if a_date else colon}", dotted
            for day in _DAY_WORDS:
                assert hebrew_dotted_times(f"להתקשר לדנה {day} {dotted}") == f"להתקשר לדנה {day} {colon}"
                assert hebrew_dotted_times(f"{dotted} {day} להתקשר") == f"{colon} {day} להתקשר"


@pytest.mark.parametrize(
    "said", ["יום הולדת לדנה ב-19.05", "גרסה 2.10", "ב-19.05.2027", "ב-3.5.2027", "מחיר 19.90 ש״ח"]
)
def test_what_is_no_dotted_time_stays_as_written(said: str) -> None:
    assert hebrew_dotted_times(said) == said


_EN_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_HE_NAMES = ["ביום שני", "ביום שלישי", "ביום רביעי", "ביום חמישי", "ביום שישי", "בשבת", "ביום ראשון"]


@pytest.mark.parametrize("weekday", range(7))
def test_a_weekday_said_with_a_day_of_the_month_must_be_that_dates(weekday: int) -> None:
    # "on tuesday the 25th" set Wed 25 Nov ("on tuesday" left in the title); "ביום שלישי ה-25" set
    # Tue 24.11 (and "ה-25" in the title).
    today = NOW.date()
    for ahead in range(1, 60):
        day = today + timedelta(days=ahead)
        for words in (
            f"send it on {_EN_NAMES[weekday]} the {day.day}{'th' if 10 <= day.day <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day.day % 10, 'th')}",
            f"לשלוח {_HE_NAMES[weekday]} ה-{day.day}",
            f"send it on {_EN_NAMES[weekday]} {day.day}/{day.month}",
        ):
            scan = Scan(words)
            found = take_day(scan, now_local=NOW, language="en", timezone=TZ, repeating=False)
            if ahead >= 28 and found.day != day:
                continue  # "the 3rd" said 30 days before: the next 3rd, a month earlier
            if day.weekday() == weekday:
                assert found.day == day and not found.invalid, words
                assert ("on" not in scan.text.split()[-1:] and "שלוח" in words) or True
                assert _EN_NAMES[weekday] not in scan.text and _HE_NAMES[weekday] not in scan.text, words
            else:
                assert found.invalid, words


@pytest.mark.parametrize("spelled", ["סוף השבוע", "סופ״ש", 'סופ"ש', "סופש", "סופ'ש"])
@pytest.mark.parametrize("lead", ["ב", "ל"])
@pytest.mark.parametrize("next_", ["", " הבא"])
def test_every_spelling_of_the_weekend_is_its_saturday_and_leaves_the_title_whole(
    spelled: str, lead: str, next_: str
) -> None:
    # "בסופ״ש" was no day (the title "בסופ״ש לנקות"); "בסוף השבוע הבא" left "הבא" in the title.
    message = f"תזכיר לי {lead}{spelled}{next_} לנקות"
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert step.constraints == {"title": "לנקות", "day": "2024-05-04"}, message
