"""One turn's view of its ports: each list read once, and the LLM asked at most once per message."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest

from memo.conversation.model import ThreadSnapshot, UserProfile
from memo.domain import InterpreterOutput, PendingHITL
from memo.hitl.interpreter import InterpreterInput
from memo.ingress.inbound import InboundMessage
from memo.planner.base import PlannerInput, PlannerResult
from memo.planner.rules import RulePlanner
from memo.turn.outcome import TurnContext
from memo.turn.reads import DecisionPorts, ReadOnce, Turn
from tests.unit.hitl.conftest import NOW, TZ, plan, step

THREAD = "972501234567"


@dataclass
class CountingPlanner:
    calls: int = 0

    def plan(self, inp: PlannerInput) -> PlannerResult:
        self.calls += 1
        return PlannerResult(output=plan(step(action="list")), source="llm")


@dataclass
class CountingInterpreter:
    calls: int = 0

    def interpret(self, inp: InterpreterInput) -> InterpreterOutput:
        self.calls += 1
        return InterpreterOutput(decision="switch_intent")


@dataclass
class CountingRules:
    calls: int = 0
    rules: RulePlanner = field(default_factory=RulePlanner)

    def plan(self, inp: PlannerInput) -> PlannerResult:
        self.calls += 1
        return self.rules.plan(inp)


def turn_with(*, asks_llm: bool) -> tuple[Turn, CountingPlanner, CountingInterpreter, CountingRules]:
    planner, interpreter, rules = CountingPlanner(), CountingInterpreter(), CountingRules()
    message = InboundMessage(
        wamid="wamid.T", thread_id=THREAD, phone_number_id="PNID", timestamp=0, type="text", text="hi"
    )
    ctx = TurnContext(
        message=message,
        trace_id="wamid.T",
        profile=UserProfile(thread_id=THREAD, timezone=TZ, created_at=NOW),
        snapshot=ThreadSnapshot(thread_id=THREAD),
        now=NOW,
    )
    ports = DecisionPorts(
        planner=planner,
        interpreter=interpreter,
        items=None,  # type: ignore[arg-type]
        pending=None,  # type: ignore[arg-type]
        hitl_ttl_seconds=300,
        rules=rules,
        asks_llm=asks_llm,
    )
    return Turn(ctx, ports), planner, interpreter, rules


def planner_input() -> PlannerInput:
    return PlannerInput(message="what's on my shopping list", now=NOW, timezone=TZ, language="en")


def interpreter_input() -> InterpreterInput:
    pending = PendingHITL.model_validate(
        {
            "hitlId": "h1",
            "kind": "approval",
            "source": "planner",
            "reason": "needs_approval",
            "question": "Delete all?",
            "expectedInput": "yes_no",
            "returnTo": {"node": "planner", "mode": "continue"},
            "policySource": "planner",
            "createdAt": NOW.isoformat(),
            "expiresAt": (NOW + timedelta(minutes=5)).isoformat(),
            "originStepId": "s1",
        }
    )
    return InterpreterInput(pending=pending, reply="what's on my list", language="en", timezone=TZ, now=NOW)


def test_an_answer_the_llm_read_as_a_new_request_is_planned_by_the_rules() -> None:
    turn, planner, interpreter, rules = turn_with(asks_llm=True)
    turn.interpreter.interpret(interpreter_input())
    turn.planner.plan(planner_input())
    assert (interpreter.calls, planner.calls, rules.calls) == (1, 0, 1)


def test_a_second_plan_in_one_turn_is_the_rules() -> None:
    turn, planner, _, rules = turn_with(asks_llm=True)
    assert turn.planner.plan(planner_input()).source == "llm"
    assert turn.planner.plan(planner_input()).source == "rules"
    assert (planner.calls, rules.calls) == (1, 1)


def test_each_turn_asks_once() -> None:
    first, planner, _, _ = turn_with(asks_llm=True)
    first.planner.plan(planner_input())
    second = Turn(first.ctx, first.ports)
    second.planner.plan(planner_input())
    assert planner.calls == 2


def test_without_an_llm_the_ports_are_used_as_they_are() -> None:
    turn, planner, interpreter, rules = turn_with(asks_llm=False)
    turn.interpreter.interpret(interpreter_input())
    turn.planner.plan(planner_input())
    turn.planner.plan(planner_input())
    assert (interpreter.calls, planner.calls, rules.calls) == (1, 2, 0)


@pytest.mark.parametrize("kind", ["reminders", "notes", "list", "lists"])
def test_read_once_reads_each_kind_once(kind: str) -> None:
    reads: list[str] = []

    class Items:
        def list_upcoming_reminders(self, thread_id: str, now: Any) -> list[Any]:
            reads.append("reminders")
            return []

        def list_notes(self, thread_id: str) -> list[Any]:
            reads.append("notes")
            return []

        def list_items(self, thread_id: str, list_name: str) -> list[Any]:
            reads.append("list")
            return []

        def all_list_items(self, thread_id: str) -> list[Any]:
            reads.append("lists")
            return []

    once = ReadOnce(Items())
    for _ in range(3):
        if kind == "reminders":
            once.list_upcoming_reminders(THREAD, NOW)
        elif kind == "notes":
            once.list_notes(THREAD)
        elif kind == "list":
            once.list_items(THREAD, "shopping")
        else:
            once.all_list_items(THREAD)
    assert reads == [kind]
