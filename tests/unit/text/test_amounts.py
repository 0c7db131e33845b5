"""Amounts of time said in words are the amounts said in digits, and nothing else is touched."""

from __future__ import annotations

import pytest

from memo.text.amounts import EN_AMOUNT_WORDS, HE_AMOUNT_WORDS, amount_digits

EN_UNITS = ["minutes", "minute", "mins", "hours", "hour", "hrs", "days", "weeks", "more minutes"]
HE_UNITS = ["דקות", "שעות", "ימים", "שבועות"]


@pytest.mark.parametrize("unit", EN_UNITS)
@pytest.mark.parametrize("word", sorted(EN_AMOUNT_WORDS))
def test_english_words_before_a_unit_are_digits(word: str, unit: str) -> None:
    said = f"push it by {word} {unit} please"
    assert amount_digits(said) == f"push it by {EN_AMOUNT_WORDS[word]} {unit} please"
    assert amount_digits(said.upper()) == f"PUSH IT BY {EN_AMOUNT_WORDS[word]} {unit.upper()} PLEASE"


@pytest.mark.parametrize("unit", HE_UNITS)
@pytest.mark.parametrize("lead", ["", "ב", "ב-", "בעוד ", "עוד "])
@pytest.mark.parametrize("word", sorted(HE_AMOUNT_WORDS))
def test_hebrew_words_before_a_unit_are_digits(word: str, lead: str, unit: str) -> None:
    said = f"תדחה את זה {lead}{word} {unit}"
    assert amount_digits(said) == f"תדחה את זה {lead}{HE_AMOUNT_WORDS[word]} {unit}"


@pytest.mark.parametrize(
    "said",
    [
        "remind me at ten past five",
        "one more thing",
        "call two people",
        "the five o'clock train",
        "remind me at five",
        "בעשר בבוקר",
        "תזכיר לי בחמש",
        "שלוש ארגזים",
        "minute steak",
        "someone minutes",  # "one" inside a word is no number
        "ten",
    ],
)
def test_words_that_are_no_amount_of_time_stay(said: str) -> None:
    assert amount_digits(said) == said
