"""`memo.hitl.another_day`: "What time on Sun 5 May?" answered with another day: the reminder moves
to it and its time is still asked; a weekday alone is the one nearest the day it replaces."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import PendingHITL, PlannerOutput, TurnState
from memo.hitl import gate
from memo.hitl.another_day import a_weekday_alone, another_day
from tests.unit.hitl.conftest import NOW, make_state, plan, step


def asked(output: PlannerOutput, language: str = "en") -> tuple[TurnState, PendingHITL]:
    state = gate.check_planner(make_state(output, language=language), now=NOW, hitl_id="q-1").state
    assert state.pending_hitl is not None
    return state, state.pending_hitl


_WEEKDAYS = (
    ("monday", "ביום שני", 0), ("tuesday", "ביום שלישי", 1), ("thursday", "ביום חמישי", 3),
    ("friday", "ביום שישי", 4), ("saturday", "בשבת", 5), ("sunday", "ביום ראשון", 6),
)  # fmt: skip
_EN_LEADS = ("", "actually ", "actualy ", "no, ", "make it ", "actually make it ", "on ", "oops, make it ")
_HE_LEADS = ("", "בעצם ", "לא, ", "לא, תעשה את זה ", "רגע, ")


@given(
    day=st.sampled_from(_WEEKDAYS),
    hebrew=st.booleans(),
    lead=st.integers(min_value=0, max_value=len(_EN_LEADS) - 1),
    instead=st.booleans(),
)
def test_a_day_said_instead_of_the_one_asked_moves_the_reminder_and_keeps_asking_its_time(
    day: tuple[str, str, int], hebrew: bool, lead: int, instead: bool
) -> None:
    state, pending = asked(
        plan(
            step(constraints={"title": "call grandma", "day": "2024-05-05"}),
            missing=["reminder_time_required"],
        )
    )
    en, he, weekday = day
    leads = _HE_LEADS if hebrew else _EN_LEADS
    answer = f"{leads[lead % len(leads)]}{he if hebrew else en}" + (
        (" במקום" if hebrew else " instead") if instead else ""
    )
    moved = another_day(state, pending, answer, NOW)
    assert moved is not None, answer
    said = date.fromisoformat(moved.constraints["day"])
    # The coming such day: NOW is Wednesday 1 May 2024.
    assert said.weekday() == weekday and NOW.date() < said <= NOW.date() + timedelta(days=7), (answer, said)
    assert moved.constraints["title"] == "call grandma" and "when" not in moved.constraints


@pytest.mark.parametrize(
    "answer", ["monday at 5", "5pm", "yesterday", "every monday", "monday for the dentist", "call mom", "no"]
)
def test_a_time_a_past_day_a_repetition_or_other_words_are_no_other_day(answer: str) -> None:
    state, pending = asked(
        plan(
            step(constraints={"title": "call grandma", "day": "2024-05-05"}),
            missing=["reminder_time_required"],
        )
    )
    assert another_day(state, pending, answer, NOW) is None


def test_a_question_of_several_days_or_of_no_day_takes_no_other_day() -> None:
    several = plan(
        step(step_id="s1", constraints={"title": "call mom", "day": "2024-05-03"}),
        step(step_id="s2", constraints={"title": "call mom", "day": "2024-05-05"}),
        missing=["reminder_time_required"],
    )
    assert another_day(*asked(several), "monday", NOW) is None
    no_day = plan(step(constraints={"title": "call mom"}), missing=["reminder_time_required"])
    assert another_day(*asked(no_day), "monday", NOW) is None


def _asked_on(day: date) -> tuple[TurnState, PendingHITL]:
    return asked(
        plan(
            step(constraints={"title": "pay the bill", "day": day.isoformat()}),
            missing=["reminder_time_required"],
        )
    )


@pytest.mark.parametrize("ahead", range(1, 29))
@pytest.mark.parametrize("weekday", range(7))
def test_a_weekday_alone_is_the_one_nearest_the_day_it_replaces(ahead: int, weekday: int) -> None:
    # NOW is Wednesday 1 May 2024. "next monday" (6 May) changed to "tuesday" is 7 May, not 2 May.
    asked_day = NOW.date() + timedelta(days=ahead)
    name = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")[weekday]
    moved = another_day(*_asked_on(asked_day), f"actually {name}", NOW)
    assert moved is not None
    said = date.fromisoformat(moved.constraints["day"])
    assert said.weekday() == weekday and said > NOW.date()
    nearest = min(
        (
            d
            for d in (asked_day + timedelta(days=n) for n in range(-6, 7))
            if d.weekday() == weekday and d > NOW.date()
        ),
        key=lambda d: (abs((d - asked_day).days), d),
    )
    assert said == nearest


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("actually tuesday", "2024-05-07"),
        ("בעצם שלישי", "2024-05-07"),  # "שלישי" alone is also "third": asked which day, a weekday
        ("לא, ביום שלישי", "2024-05-07"),
        ("next tuesday", "2024-05-07"),
        ("this thursday", "2024-05-02"),  # said with its week: as said
        ("actually the week after", "2024-05-13"),
        ("a week later", "2024-05-13"),
        ("בעצם בשבוע שאחרי", "2024-05-13"),
    ],
)
def test_a_day_said_for_next_monday(answer: str, expected: str) -> None:
    moved = another_day(*_asked_on(date(2024, 5, 6)), answer, NOW)
    assert moved is not None and moved.constraints["day"] == expected


@pytest.mark.parametrize(
    ("words", "alone"),
    [("tuesday", True), ("on tue", True), ("שלישי", True), ("ביום שלישי", True), ("בשבת", True),
     ("next tuesday", False), ("tuesday at 5", False), ("the third", False), ("call mom", False)],
)  # fmt: skip
def test_a_weekday_alone(words: str, alone: bool) -> None:
    assert a_weekday_alone(words) is alone
