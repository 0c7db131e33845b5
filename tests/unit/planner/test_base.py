"""The planner's input and the risk policy every plan passes through."""

from __future__ import annotations

from datetime import datetime

import pytest
from pydantic import ValidationError

from memo.domain import PlannerOutput, PlanStep
from memo.planner.base import PlannerInput, enforce_risk_policy
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
