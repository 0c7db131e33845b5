"""`memo.hitl.by_words`: a "Which one?" answered in words picks one candidate, is asked again, or is
not an answer at all (a new request)."""

from __future__ import annotations

import pytest

from memo.hitl.by_words import answer_by_words, scope_picked

CALLS = ["call mom", "call dad"]
CALLS_HE = ["להתקשר לאמא", "להתקשר לאבא"]


@pytest.mark.parametrize(
    ("answer", "labels", "index"),
    [
        ("the one for dad", CALLS, 1),
        ("mom", CALLS, 0),
        ("I meant the dad one please", CALLS, 1),
        ("call dad", CALLS, 1),
        ("it's the mom one", CALLS, 0),
        ("את של אבא", CALLS_HE, 1),
        ("לאמא", CALLS_HE, 0),
        ("התזכורת להתקשר לאבא", CALLS_HE, 1),
    ],
)
def test_the_words_of_one_label_pick_it(answer: str, labels: list[str], index: int) -> None:
    found = answer_by_words(answer, labels)
    assert found.kind == "picked" and found.index == index


@pytest.mark.parametrize(
    ("answer", "labels"),
    [("the call one", CALLS), ("mom and dad", CALLS), ("להתקשר", CALLS_HE), ("אמא או אבא", CALLS_HE)],
)
def test_words_that_name_none_or_several_are_unclear(answer: str, labels: list[str]) -> None:
    assert answer_by_words(answer, labels).kind == "unclear"


@pytest.mark.parametrize(
    ("answer", "labels"),
    [
        ("remind me to call dad tomorrow at 9", CALLS),  # a new request that mentions a label word
        ("add milk to my shopping list", CALLS),
        ("the one", CALLS),  # filler only
        ("תוסיף חלב לרשימת הקניות", CALLS_HE),
        ("dad", ["call dad"]),  # one candidate: nothing to choose between
    ],
)
def test_anything_else_is_not_an_answer_in_words(answer: str, labels: list[str]) -> None:
    assert answer_by_words(answer, labels).kind == "other"


CALLS = ["call the bank — Wed 25 Nov, 09:00", "call mom — Wed 25 Nov, 17:00", "call dad — Wed 25 Nov, 18:00"]


@pytest.mark.parametrize(
    ("answer", "indexes"),
    [
        ("only mom", (1,)),
        ("mom and dad", (1, 2)),
        ("just mom, dad", (1, 2)),
        ("the bank or dad", (0, 2)),
        ("mom", (1,)),
    ],
)
def test_which_ones_answered_in_words_picks_each_named(answer: str, indexes: tuple[int, ...]) -> None:
    found = answer_by_words(answer, CALLS, several=True)
    assert found.kind == "picked" and found.indexes == indexes


def test_hebrew_which_ones_in_words() -> None:
    labels = ["להתקשר לאמא", "להתקשר לאבא", "לקנות חלב"]
    found = answer_by_words("של אמא ושל אבא", labels, several=True)
    assert found.kind == "picked" and found.indexes == (0, 1)
    assert answer_by_words("רק של אבא", labels).indexes == (1,)


def test_several_names_answer_only_a_question_that_allows_several() -> None:
    # "Which one?" answered with two names is asked again, never both run.
    assert answer_by_words("mom and dad", CALLS).kind == "unclear"
    # A part that names nothing shown is no answer in words (then a new request, as before).
    assert answer_by_words("mom and eggs", CALLS, several=True).kind == "other"
    # A part that names several shown when each part must name one: unclear, asked again.
    assert answer_by_words("call and dad", CALLS, several=True).kind == "unclear"


_PAIR = ("r1~occurrence", "r1~series")
_THIS_TIME = (
    "this one only", "just this one", "only this one", "just this time", "this time only", "just once",
    "just tomorrow's", "the next one", "next one only", "only the upcoming one", "רק הפעם הזאת", "הקרובה",
    "רק הבאה",
)  # fmt: skip
_ALL_OF_THEM = (
    "the whole series", "the series", "all of them", "all", "everything", "the whole thing", "for good",
    "every one of them", "all future ones", "את כל הסדרה", "הכל", "את כולן",
)  # fmt: skip


@pytest.mark.parametrize("answer", _THIS_TIME)
@pytest.mark.parametrize("order", [_PAIR, _PAIR[::-1]])
def test_this_time_only_picks_the_occurrence(answer: str, order: tuple[str, str]) -> None:
    assert scope_picked(answer, order) == "r1~occurrence"


@pytest.mark.parametrize("answer", _ALL_OF_THEM)
@pytest.mark.parametrize("order", [_PAIR, _PAIR[::-1]])
def test_all_of_it_picks_the_series(answer: str, order: tuple[str, str]) -> None:
    assert scope_picked(answer, order) == "r1~series"


@pytest.mark.parametrize(
    "answer",
    [
        "not this one, the whole series", "don't delete the series, just this one", "no", "both", "dda",
        "remind me to call mom", "אל תמחק את כל הסדרה", "לא את הסדרה",
    ],
)  # fmt: skip
def test_a_not_or_no_part_named_is_no_pick(answer: str) -> None:
    assert scope_picked(answer, _PAIR) is None


@pytest.mark.parametrize("answer", [*_THIS_TIME[:3], *_ALL_OF_THEM[:3]])
def test_only_the_pair_of_parts_is_read_so(answer: str) -> None:
    assert scope_picked(answer, ("r1", "r2")) is None
    assert scope_picked(answer, ("r1~occurrence", "r2~occurrence")) is None
