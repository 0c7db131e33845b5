"""The second request of a message that holds two, as it may be meant."""

from __future__ import annotations

import pytest

from memo.planner.continuations import continuations
from memo.planner.match import Match
from tests.unit.planner.conftest import pin


def _reminder(title: str) -> Match:
    return Match(
        capability="reminders",
        action="create",
        confidence=0.9,
        risk="low",
        constraints={"title": title},
        pattern="reminders:create",
    )


@pytest.mark.parametrize(
    ("right", "title", "read"),
    [
        ("to call dad at 7", "call mom", ("remind me to call dad at 7", False)),
        ("dad at 7", "call mom", ("remind me to call dad at 7", True)),
        ("my sister on friday", "call mom", ("remind me to call my sister on friday", True)),
        ("again at 6", "call the vet", ("remind me to call the vet at 6", False)),
        ("לקנות חלב ב-7", "להתקשר לאמא", ("תזכיר לי לקנות חלב ב-7", False)),
        ("שוב בשש", "להתקשר לאמא", ("תזכיר לי להתקשר לאמא בשש", False)),
    ],
)
def test_a_second_reminder_as_it_is_meant(right: str, title: str, read: tuple[str, bool]) -> None:
    variants = continuations(right, _reminder(title), pin(right))
    assert read in variants
    assert variants[0] == (right, False) or read == variants[0]  # as written first, unless "again"


def test_after_another_kind_only_the_words_as_written() -> None:
    listed = Match(
        capability="lists", action="add", confidence=0.9, risk="low", constraints={}, pattern="lists:add"
    )
    assert continuations("to call dad at 7", listed, pin("to call dad at 7")) == [("to call dad at 7", False)]


def test_hebrew_object_of_the_same_verb_is_no_task() -> None:
    variants = continuations("לאבא ב-7", _reminder("להתקשר לאמא"), pin("לאבא ב-7"))
    assert ("תזכיר לי לאבא ב-7", False) not in variants
