"""The words matchers share: titles, "the one for X", and what "except ..." keeps."""

from __future__ import annotations

import pytest

from memo.planner.lexicon import (
    as_title,
    clean,
    clock_said_plainly,
    has_hebrew,
    limit_of,
    named_in,
    the_one_named,
)


@pytest.mark.parametrize(
    ("words", "title"),
    [("to call mom please", "call mom"), ("על הפגישה", "הפגישה"), ("CALL MOM", "call mom")],
)
def test_a_title_without_lead_words_manners_or_shouting(words: str, title: str) -> None:
    assert as_title(words) == title


def test_the_one_named() -> None:
    assert the_one_named("the one for dad") == "dad"
    assert the_one_named("the bread one") == "bread"
    assert the_one_named("זו של אבא") == "אבא"
    assert the_one_named("call mom") == "call mom"


def test_what_the_words_after_delete_all_keep() -> None:
    assert limit_of("") == {}
    assert limit_of(" except call mom") == {"keep": "call mom"}
    assert limit_of(" for tomorrow") == {"only": "for tomorrow"}


def test_small_helpers() -> None:
    assert has_hebrew("call אמא") and not has_hebrew("call mom")
    assert clean("  call   mom ") == "call mom"
    assert named_in('Reminder "call mom" at 18:00') == "call mom"


@pytest.mark.parametrize(
    ("words", "title"),
    [
        ("שאני צריך לקנות חלב", "אני צריך לקנות חלב"),  # "that I need to ...": the clause
        ("שיש לי תור לרופא", "יש לי תור לרופא"),
        ("שהחשבון של החשמל הגיע", "החשבון של החשמל הגיע"),
        ("שבוע הספר בעירייה", "שבוע הספר בעירייה"),  # a thing that starts with ש keeps it
        ("שמן זית וקמח", "שמן זית וקמח"),
        ("שלוש הזמנות לאסוף", "שלוש הזמנות לאסוף"),
    ],
)
def test_a_hebrew_that_is_dropped_only_before_a_clause(words: str, title: str) -> None:
    assert as_title(words) == title


@pytest.mark.parametrize("hour", [0, 7, 9, 12, 17, 19, 21, 23])
@pytest.mark.parametrize("minute", [0, 5, 30, 45, 59])
def test_a_clock_without_its_colon_is_that_time(hour: int, minute: int) -> None:
    # "1730" to "When should I remind you?" was asked again.
    assert clock_said_plainly(f"{hour:02d}{minute:02d}") == f"at {hour:02d}:{minute:02d}"


@pytest.mark.parametrize("said", ["2027", "2030", "2400", "1760", "930", "12345"])
def test_four_digits_that_may_be_a_year_or_are_no_clock_stay_as_said(said: str) -> None:
    assert clock_said_plainly(said) == said


@pytest.mark.parametrize(
    ("said", "plainly"),
    [
        ("9ish", "at 9"),
        ("around 5ish", "at 5"),
        ("7:30-ish", "at 7:30"),
        ("tmrw 9", "tmrw at 9"),
        ("tomorrow 9:30", "tomorrow at 9:30"),
        ("on friday 10", "on friday at 10"),
        ("מחר 9", "מחר ב-9"),
        ("tomorrow at 9", "tomorrow at 9"),
        ("call mom 5", "call mom 5"),
    ],
)
def test_a_time_said_the_short_way(said: str, plainly: str) -> None:
    assert clock_said_plainly(said) == plainly
