"""`memo.hitl.by_words`: a "Which one?" answered in words picks one candidate, is asked again, or is
not an answer at all (a new request)."""

from __future__ import annotations

import pytest

from memo.hitl.by_words import answer_by_words

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
