from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from memo.text import bilingual
from memo.text.bilingual import PAIRS
from memo.text.matching import (
    MATCH_THRESHOLD,
    is_plural,
    list_synonym,
    list_word_spelled,
    match,
    normalize,
    score,
    stem,
)


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("call mon", "Call mom"),  # typo
        ("dentst", "Dentist appointment"),  # typo inside a longer title
        ("MOM", "call mom!"),  # case and punctuation
        ("החלב", "חלב"),  # Hebrew definite article
        ("לאמא", "להתקשר לאמא"),  # prefix lamed
        ("ולחלב", "חלב"),  # two-letter prefix ו+ל
        ("רופא שיניים", "תור לרופא השיניים"),
        ("גַּן", "גן"),  # niqqud
        ("תור לרופה", "תור לרופא שיניים"),  # Hebrew typo
    ],
)
def test_matches_despite_typos_case_prefixes_and_niqqud(query: str, title: str) -> None:
    assert score(query, title) >= MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("mom", "buy milk"),
        ("call mom", "call dad"),
        ("לחם", "חלב"),
        ("בדיקת דם", "בדיקת שתן"),
        ("eggs", "milk"),
    ],
)
def test_unrelated_titles_do_not_match(query: str, title: str) -> None:
    assert score(query, title) < MATCH_THRESHOLD


def test_normalize_drops_niqqud_punctuation_and_maqaf() -> None:
    assert normalize("שָׁלוֹם, עוֹלָם!") == "שלום עולם"
    assert normalize("בית־ספר") == "בית ספר"
    assert normalize("  Call   MOM. ") == "call mom"


@pytest.mark.parametrize(
    ("text", "plural"),
    [
        ("all the reminders about mom", True),
        ("both dentist reminders", True),
        ("כל התזכורות של אמא", True),
        ("the reminder about mom", False),
        ("התזכורת לאמא", False),
    ],
)
def test_plural_words(text: str, plural: bool) -> None:
    assert is_plural(text) is plural


def test_match_one_clear_winner_several_close_or_none() -> None:
    titles = ["call mom", "call dad", "meeting with dan", "meeting with ron"]
    assert match("call mom", titles, str).unique == "call mom"
    several = match("meeting", titles, str)
    assert several.unique is None
    assert [s.item for s in several.matches] == ["meeting with dan", "meeting with ron"]
    assert not match("dentist", titles, str).found


def test_the_very_words_of_one_title_beat_a_title_one_letter_away() -> None:
    titles = ["להתקשר לאמא", "להתקשר לאבא"]
    assert match("להתקשר לאמא", titles, str).unique == "להתקשר לאמא"
    assert match("לאבא", titles, str).unique == "להתקשר לאבא"
    # Words that two titles hold alike are still asked about.
    assert match("call mom", ["call mom", "call mom again"], str).unique is None


def test_a_list_name_with_a_doubled_letter_is_the_same_list() -> None:
    from memo.text.matching import list_synonym

    assert list_synonym("הקנייות") == list_synonym("קניות") == "shopping"
    assert list_synonym("רשימת המשימוות") == "todo"
    assert list_synonym("חנוכייה") is None  # any other name stays its own


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("parking", "the car is parked on level 3"),
        ("batteries", "buy a battery for the remote"),
        ("running shoes", "run shoes to the repair shop"),
        ("baking", "bake a cake for dad"),
        ("appointments", "dentist appointment"),
        ("kids", "pick up the kid from school"),
    ],
)
def test_english_word_forms_match_by_their_stem(said: str, title: str) -> None:
    assert score(said, title) >= MATCH_THRESHOLD


@pytest.mark.parametrize(("said", "title"), [("parking", "buy milk"), ("running", "call mom")])
def test_a_stem_is_no_match_for_other_words(said: str, title: str) -> None:
    assert score(said, title) < MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("word", "stemmed"), [("eggs", "egg"), ("parking", "park"), ("הביצים", "ביצ"), ("milk", "milk")]
)
def test_stem_is_the_word_as_matching_compares_it(word: str, stemmed: str) -> None:
    from memo.text.matching import stem

    assert stem(word) == stemmed


_NAMES = ["dan", "mom", "ron", "the accountant", "grandma", "the landlord", "noa", "בנק", "אבא", "יוסי"]
_THINGS = ["call with", "meeting with", "lunch with", "pay", "email", "פגישה עם", "לדבר עם"]


@given(thing=st.sampled_from(_THINGS), said=st.sampled_from(_NAMES), other=st.sampled_from(_NAMES))
def test_words_that_name_someone_else_are_no_match(thing: str, said: str, other: str) -> None:
    # "move the call with dan to 6pm" moved “the call with mom”: the shared words scored a match.
    assume(said != other)
    assert score(f"{thing} {said}", f"the {thing} {other}") < MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("query", "title"),
    [
        ("call mon", "call mom"),  # a typo is still a match
        ("dentst", "dentist appointment"),
        ("dentist appointment", "the dentist"),  # more words than the title
        ("meeting with the accountant", "the meeting with the accountant"),
        ("mom", "call mom"),
        ("2 loaves of bread", "bread"),
    ],
)
def test_a_typo_or_words_around_the_title_still_match(query: str, title: str) -> None:
    assert score(query, title) >= MATCH_THRESHOLD


_HE_LETTERS = "אבגדהוזחטיכלמנסעפצקרשת"


def _typos(word: str) -> set[str]:
    """Every spelling of `word` one letter off: missing, extra, wrong, or two swapped."""
    out = {word[:i] + word[i + 1 :] for i in range(len(word))}
    out |= {word[:i] + c + word[i:] for i in range(len(word) + 1) for c in _HE_LETTERS}
    out |= {word[:i] + c + word[i + 1 :] for i in range(len(word)) for c in _HE_LETTERS}
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    return out - {word}


@pytest.mark.parametrize("word", ["הקניות", "קניות", "המשימות", "משימות", "האריזה", "הסרטים", "הספרים"])
def test_a_list_word_typed_one_letter_off_is_that_list(word: str) -> None:
    # "לרשימת הקנית" made a second list „קנית” beside the shopping list.
    for typo in _typos(word):
        spelled = list_word_spelled(typo)
        if list_synonym(typo) is not None:
            assert spelled is None, typo  # a name of a list already (a synonym, or a doubled letter)
        elif spelled is not None:
            assert list_synonym(spelled) == list_synonym(word), (typo, spelled)
    for typo in ("הקנית", "קנית", "המשימת", "הקנויות", "הקיניות"):
        if list_synonym(typo) is None and typo in _typos(word):
            assert list_synonym(str(list_word_spelled(typo))) == list_synonym(word), typo


@pytest.mark.parametrize("name", ["טיול", "הטיול", "שופינג", "קנה", "hardware", "הוצאות", "חתונה"])
def test_a_name_of_its_own_is_no_typo(name: str) -> None:
    assert list_word_spelled(name) is None


def _one_letter_apart(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b, strict=True)) == 1


_SHORT_PAIRS = sorted(
    {
        (a, b)
        for a in {w for pair in PAIRS for w in pair if " " not in w and len(w) <= 3}
        for b in {w for pair in PAIRS for w in pair if " " not in w and len(w) <= 3}
        if a < b and _one_letter_apart(a, b)
    }
)


@pytest.mark.parametrize(("a", "b"), _SHORT_PAIRS)
def test_two_short_words_a_letter_apart_are_two_things(a: str, b: str) -> None:
    # "delete להתקשר לאמא" to "delete להתקשר לאבא?" deleted dad's: the one letter apart was read as a typo.
    lead = "להתקשר ל" if bilingual.has_hebrew(a) else "call "
    assert score(lead + a, lead + b) < MATCH_THRESHOLD
    assert score(lead + a, lead + a) == 100


def test_the_grid_of_short_words_is_not_empty() -> None:
    assert ("אבא", "אמא") in _SHORT_PAIRS and ("dad", "mom") not in _SHORT_PAIRS


@given(st.sampled_from(["mom", "milk", "bread", "dentist", "אמא", "חלב", "לחם"]), st.data())
def test_a_typo_that_is_no_word_still_finds_its_word(word: str, data: st.DataObject) -> None:
    # "call mon" is "call mom": one letter changed, doubled or left out, into no word of the table.
    at = data.draw(st.integers(0, len(word) - 1))
    kind = data.draw(st.sampled_from(["change", "double", "drop"] if len(word) > 3 else ["change", "double"]))
    letter = data.draw(st.sampled_from("qxz" if word.isascii() else "ץךף"))
    typo = {
        "change": word[:at] + letter + word[at + 1 :],
        "double": word[:at] + word[at] + word[at:],
        "drop": word[:at] + word[at + 1 :],
    }[kind]
    assume(not bilingual.is_known(typo))
    lead = "call " if word.isascii() else "להתקשר ל"
    assert score(lead + typo, lead + word) >= MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("one", "many"),
    [
        ("עגבניה", "עגבניות"),
        ("מלפפון", "מלפפונים"),
        ("ביצה", "ביצים"),
        ("בננה", "בננות"),
        ("פגישה", "פגישות"),
        ("תפוח", "תפוחים"),
        ("בדיקה", "בדיקות"),
    ],
)
def test_a_hebrew_word_matches_its_plural(one: str, many: str) -> None:
    assert stem(one) == stem(many)
    assert score(one, f"3 {many}") >= MATCH_THRESHOLD
    assert score(f"ה{many}", one) >= MATCH_THRESHOLD


@pytest.mark.parametrize(("word", "other"), [("לחם", "לחמניה"), ("חלב", "חלבון"), ("אמא", "אבא")])
def test_a_hebrew_word_does_not_match_another_word_through_its_ending(word: str, other: str) -> None:
    assert stem(word) != stem(other)
