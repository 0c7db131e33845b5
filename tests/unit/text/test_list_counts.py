"""`memo.text.list_counts`: how many of what a list line says, and what is left of it when some is
taken off: over every count and a spread of things, in English and Hebrew."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text.list_counts import GONE, UNCLEAR, Counted, counted, left_after

# (one, many): a thing said of one and of several
_THINGS = [
    ("tomato", "tomatoes"),
    ("egg", "eggs"),
    ("apple", "apples"),
    ("box", "boxes"),
    ("peach", "peaches"),
    ("berry", "berries"),
    ("cherry tomato", "cherry tomatoes"),
    ("loaf", "loaves"),
    ("עגבניה", "עגבניות"),
    ("מלפפון", "מלפפונים"),
    ("ביצה", "ביצים"),
    ("בננה", "בננות"),
    ("תפוח", "תפוחים"),
]
_EN_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 12: "twelve"}
_HE_WORDS = {2: "שתי", 3: "שלוש", 4: "ארבע", 5: "חמש", 10: "עשר"}


@pytest.mark.parametrize(("one", "many"), _THINGS)
@pytest.mark.parametrize("have", range(2, 16))
@pytest.mark.parametrize("off", range(1, 18))
def test_a_count_taken_off_leaves_the_rest_or_the_line_goes(one: str, many: str, have: int, off: int) -> None:
    said = f"{off} {one if off == 1 else many}"
    left = left_after(f"{have} {many}", said)
    if off >= have:
        assert left == GONE
    else:
        assert left == f"{have - off} {one if have - off == 1 else many}"
        assert counted(left) == Counted(have - off, None, one if have - off == 1 else many)


@pytest.mark.parametrize(("number", "word"), sorted(_EN_WORDS.items()))
def test_an_english_count_in_words(number: int, word: str) -> None:
    assert counted(f"{word} eggs") == Counted(number, None, "eggs")
    assert left_after("20 eggs", f"{word} eggs") == f"{20 - number} eggs"


@pytest.mark.parametrize(("number", "word"), sorted(_HE_WORDS.items()))
def test_a_hebrew_count_in_words(number: int, word: str) -> None:
    assert counted(f"{word} עגבניות") == Counted(number, None, "עגבניות")
    assert left_after("20 עגבניות", f"{word} עגבניות") == f"{20 - number} עגבניות"


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("עגבניה אחת", Counted(1, None, "עגבניה")),  # Hebrew says "one" after the thing
        ("מלפפון אחד", Counted(1, None, "מלפפון")),
        ("eggs x3", Counted(3, None, "eggs")),
        ("milk ×2", Counted(2, None, "milk")),
        ("a dozen eggs", Counted(12, None, "eggs")),
        ("an apple", Counted(1, None, "apple")),
        ("2 liters of milk", Counted(2, "liters", "milk")),
        ("3 bottles of water", Counted(3, "bottles", "water")),
        ("2 ליטר חלב", Counted(2, "ליטר", "חלב")),
        ("milk", Counted(None, None, "milk")),
        ("7up", Counted(None, None, "7up")),
        ("milk 2", Counted(None, None, "milk 2")),  # an English count after the thing needs its "x"
    ],
)
def test_what_a_line_counts(said: str, expected: Counted) -> None:
    assert counted(said) == expected


@pytest.mark.parametrize(
    ("line", "said", "left"),
    [
        ("2 liters of milk", "one milk", UNCLEAR),  # litres and ones do not count the same way
        ("12 eggs", "a pack of eggs", UNCLEAR),
        ("2 liters of milk", "1 liter of milk", "1 liter of milk"),
        ("3 liters of milk", "1 liter of milk", "2 liters of milk"),
        ("3 bottles of water", "2 bottles of water", "1 bottle of water"),
        ("2 loaves of bread", "a loaf of bread", "1 loaf of bread"),
        ("milk", "one milk", GONE),  # no count on the line: the line
        ("3 tomatoes", "tomatoes", GONE),  # no count said: the line
        ("eggs x3", "one egg", "2 eggs"),
        ("3 עגבניות", "עגבניה אחת", "2 עגבניות"),
        ("3 עגבניות", "2 עגבניות", "1 עגבניה"),
        ("5 מלפפונים", "4 מלפפונים", "1 מלפפון"),
        ("2 ליטר חלב", "חלב אחד", UNCLEAR),
    ],
)
def test_what_is_left(line: str, said: str, left: str) -> None:
    assert left_after(line, said) == left


@given(have=st.integers(1, 500), off=st.integers(1, 500), unit=st.sampled_from(["", "kg ", "bottles of "]))
def test_what_is_left_never_has_a_count_below_one(have: int, off: int, unit: str) -> None:
    left = left_after(f"{have} {unit}water", f"{off} {unit}water")
    if left != GONE:
        count = counted(left).count
        assert count is not None and 1 <= count == have - off
