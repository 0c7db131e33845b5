"""The planner's input and the risk policy every plan passes through."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from memo.domain import PlannerOutput, PlanStep
from memo.planner.base import PlannerInput, enforce_risk_policy, without_invisible
from tests.unit.planner.conftest import NOW, TZ, latest


def output(action: str, risk: str = "low") -> PlannerOutput:
    return PlannerOutput(
        intent_type="operation",
        confidence=0.9,
        risk_level=risk,
        needs_approval=False,
        missing_fields=[],
        plan=[PlanStep(id="s1", capability="reminders", action=action, constraints={})],
    )


def test_a_delete_is_high_risk_whatever_a_planner_said() -> None:
    policed = enforce_risk_policy(output("delete"))
    assert policed.risk_level == "high" and not policed.needs_approval


def test_a_bulk_delete_also_needs_approval() -> None:
    policed = enforce_risk_policy(output("delete_all"))
    assert policed.risk_level == "high" and policed.needs_approval


def test_other_plans_are_left_as_they_are() -> None:
    plan = output("create")
    assert enforce_risk_policy(plan) is plan


def test_the_input_needs_an_aware_time_and_a_real_timezone() -> None:
    with pytest.raises(ValidationError):
        PlannerInput(message="x", now=datetime(2024, 5, 1, 10, 0), timezone=TZ)
    with pytest.raises(ValidationError):
        PlannerInput(message="x", now=NOW, timezone="Mars/Olympus")


def test_the_input_keeps_the_last_three_actions() -> None:
    inp = PlannerInput(message="x", now=NOW, timezone=TZ, latest_actions=tuple(latest() for _ in range(5)))
    assert len(inp.latest_actions) == 3


# Format characters nobody sees leave a message before it is planned; the ones that build an emoji
# stay.
INVISIBLE = ["\u200b", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2060",
             "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff", "\u00ad"]  # fmt: skip
VISIBLE = st.text(st.characters(exclude_categories=("Cf", "Cs")), max_size=40)


@given(
    words=st.lists(VISIBLE, min_size=1, max_size=6),
    marks=st.lists(st.sampled_from(INVISIBLE), min_size=0, max_size=6),
)
def test_invisible_marks_anywhere_are_removed_and_nothing_else(words: list[str], marks: list[str]) -> None:
    mixed = "".join(w + (marks[i] if i < len(marks) else "") for i, w in enumerate(words))
    assert without_invisible(mixed) == "".join(words)


def test_emoji_sequences_keep_their_joiners() -> None:
    for emoji in (
        "👩\u200d💻",
        "👨\u200d👩\u200d👧",
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
    ):
        assert without_invisible(f"\u200fcall mom {emoji}\u200e") == f"call mom {emoji}"


def test_a_hebrew_time_with_direction_marks() -> None:
    assert without_invisible("תזכיר לי ב-\u200f17:00 \u202bלהתקשר\u202c") == "תזכיר לי ב-17:00 להתקשר"


def test_the_input_a_planner_reads_has_none() -> None:
    read = PlannerInput(
        message="remind me to \u200bcall mom\u200f", now=NOW, timezone=TZ, clarification="\u200e5pm"
    )
    assert (read.message, read.clarification) == ("remind me to call mom", "5pm")
