"""A list item's amount and the thing it is of: every amount said before a thing reads as that thing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memo.text.list_amounts import amount_and_thing
from memo.text.matching import normalize

_THINGS = st.sampled_from(["milk", "eggs", "oat milk", "tomatoes", "toilet paper", "חלב", "ביצים", "לחם מלא"])
_EN_AMOUNTS = st.one_of(
    st.integers(min_value=1, max_value=999).map(str),
    st.sampled_from(
        ["two", "six", "twelve", "a dozen", "a couple of", "1.5", "2 bottles of", "3 kg", "2 x", "4 packs of"]
    ),
)
_HE_AMOUNTS = st.one_of(
    st.integers(min_value=1, max_value=999).map(str),
    st.sampled_from(["שני", "שלושה", "2 ליטר", "3 חבילות", "תריסר", "1.5 ק״ג"]),
)


@given(_THINGS, _EN_AMOUNTS, _HE_AMOUNTS)
def test_an_amount_before_a_thing_is_that_thing(thing: str, en: str, he: str) -> None:
    amount = he if not thing.isascii() else en
    assert amount_and_thing(f"{amount} {thing}") == (True, normalize(thing))
    assert amount_and_thing(thing) == (False, normalize(thing))


def test_words_that_only_look_like_an_amount_are_the_thing() -> None:
    assert amount_and_thing("milk chocolate") == (False, "milk chocolate")
    assert amount_and_thing("7up") == (False, normalize("7up"))
    assert amount_and_thing("one") == (False, "one")


@given(
    _THINGS, st.integers(min_value=1, max_value=99), st.sampled_from(["x{}", "x {}", "×{}", "{}x", "{} x"])
)
def test_a_count_after_the_thing_is_that_thing(thing: str, count: int, form: str) -> None:
    assert amount_and_thing(f"{thing} {form.format(count)}") == (True, normalize(thing))


def test_letters_ending_in_x_and_a_digit_are_the_thing() -> None:
    assert amount_and_thing("tax2") == (False, "tax2")
    assert amount_and_thing("xbox") == (False, "xbox")
