"""Amounts of time: "in 2 hours" from now, "a week before" a day, "15 minutes before" a time."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.when.offsets import counted_back, find_before, find_lead, lead_delta, take_offset
from memo.planner.when.scan import Scan
from memo.text.amounts import HE_AMOUNT_WORDS


@pytest.mark.parametrize(
    ("text", "delta", "instant"),
    [
        ("in 2 hours", timedelta(hours=2), True),
        ("in half an hour", timedelta(minutes=30), True),
        ("in an hour and a half", timedelta(minutes=90), True),
        ("in 3 days", timedelta(days=3), False),
        ("בעוד שעתיים", timedelta(hours=2), True),
        ("בעוד 2 שבועות", timedelta(weeks=2), False),
        # amounts in words, three quarters, and "and a half" after whole hours
        ("בעוד עשר דקות", timedelta(minutes=10), True),
        ("בעוד עשרים דקות", timedelta(minutes=20), True),
        ("בעוד חמש עשרה דקות", timedelta(minutes=15), True),
        ("בעוד שלוש שעות", timedelta(hours=3), True),
        ("בעוד שלושה רבעי שעה", timedelta(minutes=45), True),
        ("בעוד שעתיים וחצי", timedelta(minutes=150), True),
        ("בעוד 3 שעות וחצי", timedelta(minutes=210), True),
        ("in two and a half hours", timedelta(minutes=150), True),
        ("in 2 and a half hours", timedelta(minutes=150), True),
    ],
)
def test_an_offset_is_read_and_taken_out(text: str, delta: timedelta, instant: bool) -> None:
    scan = Scan(f"stretch {text}")
    assert take_offset(scan) == (delta, instant)
    assert scan.text.strip() == "stretch"


def test_no_offset_leaves_the_text_as_it_is() -> None:
    scan = Scan("buy 2 tickets")
    assert take_offset(scan) is None
    assert scan.text == "buy 2 tickets"


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("a week before", timedelta(weeks=1)),
        ("2 days before", timedelta(days=2)),
        ("יומיים לפני ה-20", timedelta(days=2)),
    ],
)
def test_days_before(text: str, delta: timedelta) -> None:
    found = find_before(text)
    assert found is not None and counted_back(DAY, found) == DAY - delta


DAY = date(2027, 6, 5)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("3 months before", date(2027, 3, 5)),
        ("a month before", date(2027, 5, 5)),
        ("seven months before", date(2026, 11, 5)),  # across the year's start
        ("חודש לפני ה-5", date(2027, 5, 5)),
        ("חודשיים לפני ה-5", date(2027, 4, 5)),
        ("3 חודשים לפני ה-5", date(2027, 3, 5)),
    ],
)
def test_months_before(text: str, day: date) -> None:
    found = find_before(text)
    assert found is not None and counted_back(DAY, found) == day


@given(day=st.dates(min_value=date(2026, 1, 1), max_value=date(2031, 12, 31)), months=st.integers(1, 12))
def test_months_before_keep_the_day_or_the_months_last(day: date, months: int) -> None:
    found = find_before(f"{months} months before")
    assert found is not None
    back = counted_back(day, found)
    assert (back.year * 12 + back.month) == (day.year * 12 + day.month) - months
    assert back.day == min(day.day, calendar.monthrange(back.year, back.month)[1])


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("15 minutes before my 3pm meeting", timedelta(minutes=15)),
        ("רבע שעה לפני הפגישה", timedelta(minutes=15)),
    ],
)
def test_a_lead_time_before_a_time_of_day(text: str, delta: timedelta) -> None:
    found = find_lead(text)
    assert found is not None and lead_delta(found) == delta


_MINUTE_WORDS = {
    5: "five",
    10: "ten",
    15: "fifteen",
    20: "twenty",
    30: "thirty",
    40: "forty",
    45: "forty-five",
}


@given(
    hours=st.integers(1, 23),
    minutes=st.integers(1, 59),
    form=st.sampled_from(
        [
            "in {h} hours {m} minutes",
            "in {h} hours and {m} minutes",
            "in {h} hours, {m} mins",
            "in {h}h {m}m",
            "in {h}h{m:02d}m",
            "in {h}h{m:02d}",
            "in {h} hrs {m} min",
        ]
    ),
)
def test_hours_and_minutes_are_one_amount(hours: int, minutes: int, form: str) -> None:
    scan = Scan(f"stretch {form.format(h=hours, m=minutes)} then rest")
    assert take_offset(scan) == (timedelta(hours=hours, minutes=minutes), True)
    assert " ".join(scan.text.split()) == "stretch then rest"


@pytest.mark.parametrize(("minutes", "word"), sorted(_MINUTE_WORDS.items()))
def test_minutes_in_words_after_hours(minutes: int, word: str) -> None:
    scan = Scan(f"stretch in 2 hours and {word} minutes")
    assert take_offset(scan) == (timedelta(hours=2, minutes=minutes), True)


@pytest.mark.parametrize(
    "text",
    [
        "in 2h at 5pm",  # a clock time after hours is no minutes of the amount
        "in 2h 10:30",
        "in 2h 5 friends",
    ],
)
def test_a_number_after_hours_that_is_no_minutes_is_left(text: str) -> None:
    scan = Scan(text)
    assert take_offset(scan) == (timedelta(hours=2), True)
    assert scan.text.strip() != ""


@pytest.mark.parametrize(
    ("unit", "delta", "instant"),
    [
        ("minutes", timedelta(minutes=3), True),
        ("hours", timedelta(hours=3), True),
        ("days", timedelta(days=3), False),
    ],
)
def test_a_few_is_three(unit: str, delta: timedelta, instant: bool) -> None:
    scan = Scan(f"stretch in a few {unit}")
    assert take_offset(scan) == (delta, instant)


_HE_MINUTES = {10: "עשר", 15: "רבע", 20: "עשרים", 30: "שלושים", 40: "ארבעים", 45: "ארבעים וחמש"}
_HE_HOURS = {1: "שעה", 2: "שעתיים", 3: "שלוש שעות", 4: "4 שעות", 5: "חמש שעות"}


@pytest.mark.parametrize("hours", sorted(_HE_HOURS))
@pytest.mark.parametrize("minutes", sorted(_HE_MINUTES))
def test_hebrew_hours_and_minutes_are_one_amount(hours: int, minutes: int) -> None:
    word = _HE_MINUTES[minutes]
    for said in [f"ו{word}"] if word == "רבע" else [f"ו{word} דקות", f"ו-{minutes} דקות", f"ו{minutes} דק׳"]:
        scan = Scan(f"בעוד {_HE_HOURS[hours]} {said} לשתות מים")
        assert take_offset(scan) == (timedelta(hours=hours, minutes=minutes), True), said
        assert scan.text.strip() == "לשתות מים"


@pytest.mark.parametrize(
    ("unit", "delta"),
    [("דקות", timedelta(minutes=3)), ("שעות", timedelta(hours=3)), ("ימים", timedelta(days=3))],
)
def test_hebrew_a_few_is_three(unit: str, delta: timedelta) -> None:
    scan = Scan(f"בעוד כמה {unit} לשתות מים")
    taken = take_offset(scan)
    assert taken is not None and taken[0] == delta
    assert scan.text.strip() == "לשתות מים"


@given(n=st.integers(1, 99), form=st.sampled_from(["stretch in {n}", "in {n} to stretch", "stretch in {n}."]))
def test_a_bare_number_after_in_is_minutes_up_to_an_hour(n: int, form: str) -> None:
    scan = Scan(form.format(n=n))
    taken = take_offset(scan)
    if n <= 60:
        assert taken == (timedelta(minutes=n), True)
        assert "stretch" in scan.text and str(n) not in scan.text
    else:
        assert taken is None


@pytest.mark.parametrize(
    "text", ["buy 10 eggs", "meet in room 10 to talk", "in 2024 to retire", "in 10 days"]
)
def test_a_number_that_is_no_bare_amount_is_left_or_read_with_its_unit(text: str) -> None:
    taken = take_offset(Scan(text))
    assert taken is None or taken == (timedelta(days=10), False)


@given(
    day=st.dates(min_value=date(2025, 1, 1), max_value=date(2035, 12, 31)),
    unit=st.sampled_from(["day", "week"]),
    lead=st.sampled_from(["the", "on the", "a", "one"]),
)
def test_the_day_before_a_date_is_one_day_before_it(day: date, unit: str, lead: str) -> None:
    # "the day before dec 12" stayed on Dec 12, with "the day before" in the title.
    found = find_before(f"remind me {lead} {unit} before {day:%b} {day.day} to pack")
    assert found is not None
    assert counted_back(day, found) == day - (timedelta(days=1) if unit == "day" else timedelta(weeks=1))


@pytest.mark.parametrize("text", ["the day before yesterday", "the day before last", "before the day"])
def test_the_day_before_yesterday_counts_nothing_back(text: str) -> None:
    assert find_before(text) is None


@pytest.mark.parametrize("word", [w for w in HE_AMOUNT_WORDS if w != "כמה"])
@pytest.mark.parametrize(("unit", "minutes"), [("דקות", 1), ("שעות", 60)])
def test_a_hebrew_lead_said_in_words_counts_back_as_in_digits(word: str, unit: str, minutes: int) -> None:
    # "תזכיר לי עשר דקות לפני הפגישה בארבע" was a reminder at 16:00 titled "עשר דקות לפני הפגישה".
    said = f"תזכיר לי {word} {unit} לפני הפגישה בארבע"
    found = find_lead(said)
    assert found is not None, said
    assert lead_delta(found) == timedelta(minutes=HE_AMOUNT_WORDS[word] * minutes), said


@pytest.mark.parametrize("unit", ["דקות", "דק'", "דק׳", "דק"])
@pytest.mark.parametrize("minutes", [1, 5, 10, 25, 45, 90])
@pytest.mark.parametrize("space", [" ", ""])
def test_hebrew_minutes_in_every_spelling(unit: str, minutes: int, space: str) -> None:
    # "בעוד 5 דק" (the abbreviation without its geresh) was no time at all; the title was the words.
    scan = Scan(f"תזכיר לי בעוד {minutes}{space}{unit} לבדוק")
    assert take_offset(scan) == (timedelta(minutes=minutes), True), (minutes, unit)
    assert "דק" not in scan.text


def test_a_word_that_starts_with_the_abbreviation_is_no_minutes() -> None:
    assert take_offset(Scan("בעוד 5 דקלומים")) is None
