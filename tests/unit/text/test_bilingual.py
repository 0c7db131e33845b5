"""A target said in one language finds an item titled in the other, over every word pair the
table knows, with the Hebrew prefixes people write; a phrase with an unknown word never crosses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.text import bilingual
from memo.text.matching import MATCH_THRESHOLD, match, score

PAIRS = bilingual.PAIRS
HE_PREFIXES = ("", "ה", "ל", "ב", "את ה", "של ה", "ו")


@pytest.mark.parametrize(("english", "hebrew"), PAIRS)
@pytest.mark.parametrize("prefix", HE_PREFIXES)
def test_a_hebrew_word_finds_the_english_title(english: str, hebrew: str, prefix: str) -> None:
    assert score(f"{prefix}{hebrew}", f"remember the {english}") >= MATCH_THRESHOLD


@pytest.mark.parametrize(("english", "hebrew"), PAIRS)
def test_an_english_word_finds_the_hebrew_title(english: str, hebrew: str) -> None:
    assert score(f"the {english}", f"לזכור את ה{hebrew}") >= MATCH_THRESHOLD


def test_the_right_one_of_several_english_titles_is_found() -> None:
    titles = ["call the bank", "call mom", "water the plants", "take out the trash"]
    for said, title in [("הבנק", "call the bank"), ("לאמא", "call mom"), ("העציצים", "water the plants"),
                        ("את הזבל", "take out the trash")]:  # fmt: skip
        assert match(said, titles, lambda t: t).unique == title


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("החלונות", "call the bank"),  # a known word that is not in the title
        ("הבנק והשכנה החדשה", "call the bank"),  # an unknown word: the phrase does not cross
        ("the zoo", "להתקשר לבנק"),
        ("בנק bank", "call mom"),
    ],
)
def test_what_does_not_cross_or_is_not_there_is_not_found(said: str, title: str) -> None:
    assert score(said, title) < MATCH_THRESHOLD


@given(st.text(alphabet="אבגדזחטיכלמנסעפצקרשת ", min_size=1, max_size=20))
def test_unknown_hebrew_never_matches_an_english_title_it_shares_nothing_with(said: str) -> None:
    known = {r for w in said.split() for r in bilingual.crossed(w, to_hebrew=False)}
    if any(bilingual.has_latin(w) for w in known):
        return  # a known word crossed: covered above
    assert score(said, "qqq zzz") < MATCH_THRESHOLD
