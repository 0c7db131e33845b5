"""A reminder ahead of the one just set: "remind me an hour before", "תזכיר לי שעה לפני"."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.planner.intents.ahead_of_it import ahead_of_it
from memo.planner.match import iso
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import latest, pin

#: "dentist" set for 30 hours from now
DENTIST = latest(summary="reminder “dentist” for Thu, 16:00", hours=30)
_EN = {
    "an hour": 60, "a day": 1440, "half an hour": 30, "15 minutes": 15, "ten minutes": 10, "2 hours": 120,
    "one hour": 60, "45 mins": 45, "3 hrs": 180,
}  # fmt: skip
_HE = {"שעה": 60, "חצי שעה": 30, "רבע שעה": 15, "עשר דקות": 10, "שעתיים": 120, "יום": 1440, "20 דקות": 20}


@pytest.mark.parametrize(
    "phrasing",
    [
        "remind me {} before",
        "and {} before too",
        "also remind me {} before it",
        "remind me about it {} earlier",
        "can you remind me {} beforehand",
    ],
)
def test_an_amount_before_the_reminder_just_set_is_a_reminder_that_long_before_it(phrasing: str) -> None:
    # "remind me an hour before" right after a Thursday 16:00 reminder asked "When should I remind you?".
    assert DENTIST.when is not None
    for amount, minutes in _EN.items():
        said = phrasing.format(amount)
        found = ahead_of_it(said, pin(said, actions=(DENTIST,)))
        assert found is not None, said
        assert found.constraints == {
            "title": "dentist",
            "when": iso(DENTIST.when - timedelta(minutes=minutes)),
        }


@pytest.mark.parametrize("phrasing", ["תזכיר לי {} לפני", "תזכיר לי גם {} לפני", "ותזכיר לי {} קודם"])
def test_hebrew_an_amount_before(phrasing: str) -> None:
    assert DENTIST.when is not None
    for amount, minutes in _HE.items():
        said = phrasing.format(amount)
        (step,) = RulePlanner().plan(pin(said, actions=(DENTIST,))).output.plan
        assert step.constraints == {
            "title": "dentist",
            "when": iso(DENTIST.when - timedelta(minutes=minutes)),
        }, said


def test_a_time_before_now_is_asked_and_nothing_else_is_this() -> None:
    said = "remind me 2 days before"
    found = ahead_of_it(said, pin(said, actions=(DENTIST,)))
    assert found is not None and found.missing == ("time_in_past", "reminder_time_required")
    assert found.constraints == {"title": "dentist"}
    assert ahead_of_it("remind me an hour before", pin("remind me an hour before")) is None  # none set
    listed = latest("lists", "added milk to the shopping list")
    assert ahead_of_it("remind me an hour before", pin("x", actions=(listed,))) is None
