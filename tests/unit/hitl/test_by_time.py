"""`memo.hitl.by_time`: a "Which one?" between reminders answered by their time or day picks the one
it fits, or nothing (the caller goes on as before)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from memo.domain import DisambiguationCandidate
from memo.hitl.by_time import answer_by_time

TZ = "Asia/Jerusalem"
NOW = datetime(2024, 5, 1, 10, 0, tzinfo=ZoneInfo(TZ))  # a Wednesday


def _reminder(id_: str, label: str, at: str) -> DisambiguationCandidate:
    return DisambiguationCandidate(id=id_, label=label, data={"at": f"{at}+03:00"})


CALLS = [
    _reminder("mom", "call mom", "2024-05-01T17:00:00"),
    _reminder("dad", "call dad", "2024-05-01T18:00:00"),
    _reminder("bank", "call the bank", "2024-05-03T09:00:00"),
]


def pick(answer: str, candidates: list[DisambiguationCandidate] = CALLS, language: str = "en") -> str | None:
    index = answer_by_time(answer, candidates, now=NOW, timezone=TZ, language=language)  # type: ignore[arg-type]
    return None if index is None else candidates[index].id


@pytest.mark.parametrize(
    ("answer", "picked"),
    [
        ("the 6pm one", "dad"),
        ("the one at 5", "mom"),  # 5 without am/pm: the 17:00 one
        ("17:00", "mom"),
        ("the 9 one", "bank"),  # 09:00 is the only 9
        ("the friday one", "bank"),
        ("the earlier one", "mom"),
        ("the later one", "bank"),
        ("the latest", "bank"),
        ("המוקדמת", "mom"),
        ("זו של שש", "dad"),
        ("זו של יום שישי", "bank"),
    ],
)
def test_a_time_or_day_that_fits_one_picks_it(answer: str, picked: str) -> None:
    assert pick(answer, language="he" if any("\u05d0" <= ch <= "\u05ea" for ch in answer) else "en") == picked


@pytest.mark.parametrize(
    "answer",
    [
        "the 7pm one",  # none at 7
        "today's",  # two today
        "the 6pm call with dad",  # more than a time: for the label words
        "every day at 5",
        "mom",
    ],
)
def test_anything_else_picks_nothing(answer: str) -> None:
    assert pick(answer) is None


def test_an_hour_in_both_halves_takes_the_half_it_was_said_in() -> None:
    both = [_reminder("am", "pills", "2024-05-02T08:00:00"), _reminder("pm", "pills", "2024-05-02T20:00:00")]
    assert pick("the 8pm one", both) == "pm" and pick("the 8am one", both) == "am"


def test_candidates_without_a_time_are_not_picked_by_one() -> None:
    items = [DisambiguationCandidate(id="a", label="milk"), DisambiguationCandidate(id="b", label="eggs")]
    assert pick("the later one", items) is None
