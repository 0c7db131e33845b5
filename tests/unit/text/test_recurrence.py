"""Repeating times: the phrase (English and Hebrew) read as a repetition rule."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text.recurrence import find_recurrence

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
        ("every day for 2 weeks", "FREQ=DAILY;UNTIL=20240515T235959"),  # "for" a span is its end day
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


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("בראשון לכל חודש לשלם ארנונה", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("בכל ראשון לחודש לשלם ארנונה", "FREQ=MONTHLY;BYMONTHDAY=1"),  # the 1st, not every Sunday
        ("באחד לכל חודש", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("בעשירי לכל חודש לשלם חשמל", "FREQ=MONTHLY;BYMONTHDAY=10"),
        ("כל 15 לחודש לשלם", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("כל חודש ב-10 לחודש לשלם חשמל", "FREQ=MONTHLY;BYMONTHDAY=10"),
        ("every month pay rent on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("monthly, on the third, water filter", "FREQ=MONTHLY;BYMONTHDAY=3"),
        ("בכל ראשון לשלם ארנונה", "FREQ=WEEKLY;BYDAY=SU"),  # no month named: Sundays
        ("every month pay rent", "FREQ=MONTHLY"),
    ],
)
def test_the_day_of_the_month_said_in_words_or_apart(text: str, rule: str) -> None:
    assert rule_of(text) == rule


_NTH = {1: ("first", "הראשון"), 2: ("second", "השני"), 3: ("third", "השלישי"), 4: ("fourth", "הרביעי"),
        -1: ("last", "האחרון")}  # fmt: skip
_DAYS = [("monday", "שני", "MO"), ("tuesday", "שלישי", "TU"), ("wednesday", "רביעי", "WE"),
         ("thursday", "חמישי", "TH"), ("friday", "שישי", "FR"), ("sunday", "ראשון", "SU")]  # fmt: skip


@pytest.mark.parametrize("week", [1, 2, 3, 4, -1])
@pytest.mark.parametrize(("en", "he", "code"), _DAYS)
def test_a_weekday_of_every_months_weeks(week: int, en: str, he: str, code: str) -> None:
    """Every way to say it is BYDAY with the week (it was every week on that day, or the day once)."""
    expected = f"FREQ=MONTHLY;BYDAY={week}{code}"
    nth, he_nth = _NTH[week]
    for text in (
        f"every {nth} {en} of the month at 9",
        f"every {nth} {en} at 9",
        f"on the {nth} {en} of every month at 9",
        f"the {nth} {en} of each month",
        f"כל יום {he} {he_nth} בחודש ב-9",
        f"ביום {he} {he_nth} של כל חודש",
    ):
        assert rule_of(text) == expected, text


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("quarterly at 10", "FREQ=MONTHLY;INTERVAL=3"),
        ("every quarter", "FREQ=MONTHLY;INTERVAL=3"),
        ("fortnightly on friday", "FREQ=WEEKLY;INTERVAL=2"),
    ],
)
def test_quarterly_and_fortnightly(text: str, rule: str) -> None:
    assert (rule_of(text) or "").startswith(rule)


@pytest.mark.parametrize(
    "said",
    ["call mom every weekend", "call mom on weekends", "כל סוף שבוע להתקשר לאמא", "בסופי שבוע להתקשר לאמא"],
)
def test_every_weekend_repeats_on_the_local_weekend(said: str) -> None:
    assert rule_of(said, "Asia/Jerusalem") == "FREQ=WEEKLY;BYDAY=FR,SA"
    if said.isascii():
        assert rule_of(said, "Europe/London") == "FREQ=WEEKLY;BYDAY=SA,SU"


def test_the_coming_weekend_is_no_repetition() -> None:
    assert rule_of("call mom on the weekend") is None


@pytest.mark.parametrize(
    "said",
    [
        "call dad every march 5",
        "call dad each 5th of march",
        "call dad every 5 march",
        "כל 5 במרץ להתקשר לאבא",
    ],
)
def test_every_date_of_the_year_repeats_yearly(said: str) -> None:
    assert rule_of(said) == "FREQ=YEARLY"


_EN_WEEK = [("monday", "MO"), ("tuesday", "TU"), ("wednesday", "WE"), ("thursday", "TH"), ("friday", "FR")]
_HE_WEEK = [("שני", "MO"), ("שלישי", "TU"), ("רביעי", "WE"), ("חמישי", "TH"), ("שישי", "FR")]


@given(
    picked=st.lists(st.integers(min_value=0, max_value=4), min_size=2, max_size=4, unique=True),
    separators=st.lists(st.sampled_from([" ", ", ", " and "]), min_size=3, max_size=3),
    hebrew=st.booleans(),
)
def test_every_list_of_weekdays_repeats_on_each_however_they_are_joined(
    picked: list[int], separators: list[str], hebrew: bool
) -> None:
    # "every monday wednesday and friday" (no commas) was every Monday, titled "friday ...".
    days = sorted(picked)
    week = _HE_WEEK if hebrew else _EN_WEEK
    said = week[days[0]][0]
    for sep, day in zip(separators, days[1:], strict=False):
        said += (" ו" if sep == " and " else sep) + week[day][0] if hebrew else sep + week[day][0]
    text = (
        f"תזכיר לי כל יום {said} ב-7 ללכת לחדר כושר"
        if hebrew
        else f"remind me every {said} at 7 to go to the gym"
    )
    found = find_recurrence(text, timezone=TZ, now_local=NOW, language="he" if hebrew else "en")
    assert found is not None, text
    assert found.recurrence.rule == "FREQ=WEEKLY;BYDAY=" + ",".join(week[d][1] for d in days), text


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("תזכיר לי כל שמונה שעות לקחת תרופה", "FREQ=HOURLY;INTERVAL=8"),
        ("תזכיר לי כל שלוש שעות לשתות", "FREQ=HOURLY;INTERVAL=3"),
        ("תזכיר לי כל שלושה ימים להשקות", "FREQ=DAILY;INTERVAL=3"),
        ("תזכיר לי כל ארבעה שבועות לשלם", "FREQ=WEEKLY;INTERVAL=4"),
        ("תזכיר לי כל שנים עשר חודשים לחדש", "FREQ=MONTHLY;INTERVAL=12"),
        ("תזכיר לי כל 8 שעות לקחת תרופה", "FREQ=HOURLY;INTERVAL=8"),
    ],
)
def test_hebrew_counts_in_words(text: str, rule: str) -> None:
    # "כל שמונה שעות" was left in the title and the time asked.
    assert rule_of(text) == rule


_FULL = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_CODES = dict(zip(_FULL, ["MO", "TU", "WE", "TH", "FR", "SA", "SU"], strict=True))


@given(
    day=st.sampled_from(_FULL),
    lead=st.sampled_from(["remind me", "move it to", "change the gym to", "water plants", "switch it to"]),
    follow=st.sampled_from(["", " at 9", " at 7:30pm", " to call mom", " until june", " please", "."]),
    capital=st.booleans(),
)
def test_a_weekday_said_in_the_plural_repeats_on_it_with_or_without_on(
    day: str, lead: str, follow: str, capital: bool
) -> None:
    said = f"{day.capitalize() if capital else day}s"
    assert (rule_of(f"{lead} {said}{follow}") or "").startswith(f"FREQ=WEEKLY;BYDAY={_CODES[day]}")


@pytest.mark.parametrize(
    "text",
    [
        "remind me about mondays meeting at 9",  # a possessive without its apostrophe
        "check the sundays paper tomorrow",
        "mondays are hard",  # no time, end or clause after it: no repetition said
        "remind me tomorrow at 9, mondays",  # after a comma: a second thought, not this reminder's
    ],
)
def test_a_weekday_in_the_plural_that_names_no_repetition(text: str) -> None:
    assert rule_of(text) is None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("every day at 7 except sundays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA"),
        ("remind me tuesdays and thursdays at 7pm", "FREQ=WEEKLY;BYDAY=TU,TH"),
        ("תעביר את זה לימי שני", "FREQ=WEEKLY;BYDAY=MO"),
    ],
)
def test_plural_weekdays_beside_other_words(text: str, rule: str) -> None:
    assert rule_of(text) == rule


_EVERY_DAY = {"en": ["every day", "daily", "each day"], "he": ["כל יום", "מדי יום"]}
_WITHIN = {
    "en": [
        "every 2 hours between 10am and 6pm",
        "every hour from 9 to 5",
        "every 30 minutes between 8am and noon",
    ],
    "he": ["כל שעתיים בין 10 ל-18", "כל שעה מ-9 עד 17"],
}


@pytest.mark.parametrize("language", ["en", "he"])
@pytest.mark.parametrize("before", [True, False])
def test_every_day_beside_hours_of_a_day_is_that_repetition(language: str, before: bool) -> None:
    # "remind me to stretch every day between 10am and 6pm every 2 hours" was titled "stretch every
    # day": the hours of each day already come every day, so the words are the repetition's.
    for every_day in _EVERY_DAY[language]:
        for within in _WITHIN[language]:
            said = f"{every_day} {within}" if before else f"{within} {every_day}"
            found = find_recurrence(said, timezone=TZ, now_local=NOW, language=language)
            assert found is not None, said
            alone = find_recurrence(within, timezone=TZ, now_local=NOW, language=language)
            assert alone is not None and found.recurrence == alone.recurrence, said
            rest = said
            for start, end in found.spans:
                rest = rest[:start] + " " * (end - start) + rest[end:]
            assert not rest.strip(), (said, rest)
