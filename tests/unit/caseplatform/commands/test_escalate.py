"""Escalation of one case: appended once its SLA passed, idempotent per due time, and nothing for a
case that is not due."""

from __future__ import annotations

from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, FakeClock, submit


def test_a_due_case_is_escalated_once(service: CaseService, clock: FakeClock) -> None:
    waiting = submit(service)
    assert service.escalate(service.get_record(waiting).state, clock()) is None  # pending: no SLA
    asked = submit(service)
    service.request_clarification(case_id=asked, question="Which map?", notes="", actor=AGENT, request_id="q")
    state = service.get_record(asked).state
    assert state.escalation_due_at_ms is not None
    assert service.escalate(state, state.escalation_due_at_ms - 1) is None  # not due yet
    event = service.escalate(state, state.escalation_due_at_ms)
    assert event is not None and event.event_type == "escalated"
    assert service.escalate(state, state.escalation_due_at_ms) is None  # the same due time: once
