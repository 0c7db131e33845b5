"""The rules of a request (`memo.hitl.request_rules`), at and past each limit, over a grid."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.domain import PlannerOutput, PlanStep, TurnInput, TurnState
from memo.hitl.request_rules import RequestRules, broken_rule, day_too_far
from tests.support.clock import TEST_NOW


def _state(steps: list[tuple[str, str, dict[str, Any]]]) -> TurnState:
    plan = [PlanStep(id=f"s{i}", capability=c, action=a) for i, (c, a, _) in enumerate(steps, 1)]
    state = TurnState(
        trace_id="t",
        thread_id="972500000000",
        input=TurnInput(message="m", language="en", timezone="UTC"),
        planner_output=PlannerOutput(
            intent_type="operation", confidence=0.9, risk_level="low", needs_approval=False, plan=plan
        ),
    )
    for i, (_, _, args) in enumerate(steps, 1):
        state = state.with_executor_args(f"s{i}", args)
    return state


def _reminders(*offsets: timedelta) -> TurnState:
    return _state(
        [("reminders", "create", {"title": "x", "when": (TEST_NOW + o).isoformat()}) for o in offsets]
    )


@pytest.mark.parametrize("limit", [1, 2, 5])
@pytest.mark.parametrize("spread", [0, 30, 60, 61])
def test_same_minute_at_and_past_the_limit(limit: int, spread: int) -> None:
    rules = RequestRules(same_minute_reminders=limit)
    hour = timedelta(hours=1)
    at_limit = [hour + timedelta(seconds=spread * i // max(limit - 1, 1)) for i in range(limit)]
    assert broken_rule(rules, _reminders(*at_limit), TEST_NOW) is None
    past = [hour + timedelta(seconds=spread * i // limit) for i in range(limit + 1)]
    broken = broken_rule(rules, _reminders(*past), TEST_NOW)
    if spread <= 60:
        assert broken is not None and broken.rule == "same_minute_reminders" and broken.limit == limit
    else:
        assert broken is None  # the first and the last are more than a minute apart


@pytest.mark.parametrize("days", [1, 30, 365])
def test_days_ahead_at_and_past_the_limit(days: int) -> None:
    rules = RequestRules(max_days_ahead=days)
    assert broken_rule(rules, _reminders(timedelta(days=days)), TEST_NOW) is None
    broken = broken_rule(rules, _reminders(timedelta(days=days, seconds=1)), TEST_NOW)
    assert broken is not None and broken.rule == "max_days_ahead"
    assert "up to" in broken.words("en") and "ימים קדימה" in broken.words("he")


@pytest.mark.parametrize(
    ("capability", "action", "args"),
    [
        (
            "reminders",
            "create",
            {"title": "visit the Casino", "when": (TEST_NOW + timedelta(hours=1)).isoformat()},
        ),
        ("notes", "save", {"text": "casino night"}),
        ("lists", "add", {"listName": "shopping", "items": ["milk", "CASINO chips"]}),
    ],
)
def test_blocked_words_in_every_kind_of_text(capability: str, action: str, args: dict[str, Any]) -> None:
    rules = RequestRules(blocked_words=("casino",))
    broken = broken_rule(rules, _state([(capability, action, args)]), TEST_NOW)
    assert broken is not None and broken.rule == "blocked_words" and broken.word == "casino"


def test_a_word_that_only_holds_a_blocked_one_is_not_it() -> None:
    rules = RequestRules(blocked_words=("casino",))
    assert broken_rule(rules, _state([("notes", "save", {"text": "casinos of Macau"})]), TEST_NOW) is None
    assert broken_rule(RequestRules(), _state([("notes", "save", {"text": "casino"})]), TEST_NOW) is None


def _day_only(day: str) -> TurnState:
    """A reminder whose day is known and whose time is still to ask."""
    step = PlanStep(id="s1", capability="reminders", action="create", constraints={"title": "x", "day": day})
    return TurnState(
        trace_id="t",
        thread_id="972500000000",
        input=TurnInput(message="m", language="en", timezone="UTC"),
        planner_output=PlannerOutput(
            intent_type="operation",
            confidence=0.9,
            risk_level="low",
            needs_approval=False,
            missing_fields=["reminder_time_required"],
            plan=[step],
        ),
    )


@given(limit=st.integers(1, 800), past=st.integers(-3, 800))
def test_a_day_alone_breaks_the_rule_only_when_no_time_of_it_could_keep_it(limit: int, past: int) -> None:
    rules = RequestRules(max_days_ahead=limit)
    day = (TEST_NOW + timedelta(days=limit + past)).date()
    broken = day_too_far(rules, _day_only(day.isoformat()), TEST_NOW)
    # Some time of that day is within the limit in some timezone unless the day is over a day past it.
    assert (broken is not None) == (past >= 2)
    if broken is not None:
        assert (broken.rule, broken.limit) == ("max_days_ahead", limit)
