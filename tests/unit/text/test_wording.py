"""Quoting names, a list's name after "רשימת", and shortening texts to WhatsApp's length limits."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from memo.text.matching import list_synonym
from memo.text.wording import he_list_name, preview, quote, shorten

#: The Hebrew letters, final forms too (U+05D0..U+05EA), and those a name may start with but "ה".
HE_LETTERS = "".join(chr(c) for c in range(0x05D0, 0x05EB))
HE_FIRST = HE_LETTERS.replace("ה", "")


def test_quotes_follow_the_language() -> None:
    assert quote("call mom", "en") == "“call mom”"
    assert quote("להתקשר לאמא", "he") == "„להתקשר לאמא”"


def test_a_short_text_is_kept_on_one_line() -> None:
    assert shorten("  buy\n milk  ", 20) == "buy milk"


def test_a_long_text_is_cut_to_the_limit_with_an_ellipsis() -> None:
    cut = shorten("call the plumber about the kitchen sink", 20)
    assert len(cut) <= 20 and cut.endswith("…")
    assert cut == "call the plumber ab…"


def test_a_preview_keeps_a_text_within_the_limit_as_it_is() -> None:
    assert preview("wifi\npassword", 13) == "wifi\npassword"


def test_a_preview_cuts_a_longer_text_to_the_limit_and_keeps_its_lines() -> None:
    cut = preview("line one\nline two", 12)
    assert cut == "line one\nli…" and len(cut) == 12


@pytest.mark.parametrize(
    ("name", "after"),
    [
        ("קניות", "הקניות"),  # "לרשימת הקניות"
        ("טיול", "הטיול"),
        ("הוצאות", "ההוצאות"),  # its own ה is not an article
        ("קניות לסופר", "הקניות לסופר"),  # the article on the first word only
        ("הקניות", "הקניות"),  # a name that came with its article gets no second
        ("ההוצאות", "ההוצאות"),
        ("hardware", "hardware"),  # an English name in a Hebrew reply: no article
        ("shopping", "הקניות"),  # a list every language names is said in Hebrew
        ("todo", "המשימות"),
        ("Packing", "האריזה"),
        ("2024 trip", "2024 trip"),
        ("", ""),
    ],
)
def test_a_hebrew_list_name_takes_the_article_after_the_list_word(name: str, after: str) -> None:
    assert he_list_name(name) == after


_HE_WORD = st.text(alphabet=HE_LETTERS, min_size=1, max_size=8)
_HE_NAME = st.builds(
    lambda first, rest, more: " ".join([first + rest, *more]),
    st.sampled_from(HE_FIRST),
    st.text(alphabet=HE_LETTERS, max_size=8),
    st.lists(_HE_WORD, max_size=2),
)


@given(_HE_NAME)
def test_a_hebrew_name_gets_the_article_exactly_once_at_its_front(name: str) -> None:
    after = he_list_name(name)
    assert after == "ה" + name
    assert after.startswith("ה") and not after.startswith("הה")


@given(st.text(alphabet=string.ascii_letters + string.digits + " -'", min_size=1, max_size=20))
def test_a_latin_name_is_left_as_it_is(name: str) -> None:
    assume(list_synonym(name) is None or list_synonym(name) != name.strip().lower())
    assert he_list_name(name) == name
