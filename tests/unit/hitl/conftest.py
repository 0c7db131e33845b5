"""Fixtures for the HITL unit tests: a fixed clock, turn states, and captured log events."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from memo.domain import PlannerOutput, PlanStep, TurnInput, TurnState

TZ = "Asia/Jerusalem"
NOW = datetime(2024, 5, 1, 10, 0, tzinfo=ZoneInfo(TZ))  # a Wednesday


class LogCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.events: list[tuple[str, dict[str, Any]]] = []

    def emit(self, record: logging.LogRecord) -> None:
        fields = {k: v for k, v in record.__dict__.items() if k[:1].islower() and k[0] != "_"}
        self.events.append((str(record.msg), fields))

    def named(self, name: str) -> list[dict[str, Any]]:
        return [fields for event, fields in self.events if event == name]

    def names(self) -> list[str]:
        return [event for event, _ in self.events]


@pytest.fixture
def logs() -> Iterator[LogCapture]:
    handler = LogCapture()
    memo_logger = logging.getLogger("memo")
    memo_logger.addHandler(handler)
    try:
        yield handler
    finally:
        memo_logger.removeHandler(handler)


def make_state(
    output: PlannerOutput | None = None,
    *,
    message: str = "delete all my reminders",
    language: str = "en",
    trace_id: str = "wamid.TRACE1",
) -> TurnState:
    return TurnState(
        trace_id=trace_id,
        thread_id="972501234567",
        input=TurnInput(message=message, language=language, timezone=TZ),
        planner_output=output,
    )


def plan(
    *steps: PlanStep,
    confidence: float = 0.9,
    risk: str = "low",
    approval: bool = False,
    missing: list[str] | None = None,
    intent: str = "operation",
) -> PlannerOutput:
    return PlannerOutput(
        intent_type=intent,
        confidence=confidence,
        risk_level=risk,
        needs_approval=approval,
        missing_fields=missing or [],
        plan=list(steps),
    )


def step(
    capability: str = "reminders",
    action: str = "create",
    step_id: str = "s1",
    constraints: dict[str, Any] | None = None,
    changes: dict[str, Any] | None = None,
) -> PlanStep:
    return PlanStep(
        id=step_id,
        capability=capability,
        action=action,
        constraints=constraints or {},
        changes=changes or {},
    )
