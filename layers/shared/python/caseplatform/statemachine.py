"""The transition matrix and the projection fold.

Allowed:
    pending             --request_clarification-->  needs_clarification
    pending             --record_decision------->  approved | rejected
    needs_clarification --provide_clarification-->  pending
    needs_clarification --record_decision------->  approved | rejected
and two self-loops that always append a new event (so they are never no-op writes):
    needs_clarification --request_clarification-->  needs_clarification   (a new follow-up question
                                                                              revision; the same open
                                                                              question again is refused)
    needs_clarification --escalate-------------->  needs_clarification   (system, SLA passed)
and one event that records without moving the case (multi-approver adapters):
    pending | needs_clarification --record_approval_vote-->  unchanged   (one reviewer's approval
                                                                              while more are needed)
Changes requested (a reviewer's edit without a payload) and the submitter's revision:
    pending | needs_clarification --request_changes-->  changes_requested
    changes_requested            --resubmit--------->  pending           (a revised payload)
    changes_requested            --record_decision-->  rejected          (only a rejection: nothing
                                                                           is approved until revised)
Feedback left through the feedback tool records without moving the case:
    pending | needs_clarification | changes_requested --add_feedback-->  unchanged
A redaction of payload fields records in every state without moving the case:
    any state --redact-->  unchanged
Everything else is INVALID_STATE_TRANSITION, except a second record_decision on a terminal case,
which is ALREADY_TERMINAL (first terminal decision wins).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from caseplatform.errors import InvalidStateTransition
from caseplatform.model import TERMINAL_STATES, Action, CaseState, CaseStateName, Decision, Event

_TRANSITIONS: dict[tuple[str, str], CaseStateName | None] = {
    ("pending", "request_clarification"): "needs_clarification",
    ("pending", "record_decision"): None,  # None: the target is the decision itself
    ("needs_clarification", "provide_clarification"): "pending",
    ("needs_clarification", "record_decision"): None,
    ("needs_clarification", "request_clarification"): "needs_clarification",
    ("needs_clarification", "escalate"): "needs_clarification",
    ("pending", "record_approval_vote"): "pending",
    ("needs_clarification", "record_approval_vote"): "needs_clarification",
    ("pending", "request_changes"): "changes_requested",
    ("needs_clarification", "request_changes"): "changes_requested",
    ("changes_requested", "resubmit"): "pending",
    ("changes_requested", "record_decision"): None,
    ("pending", "add_feedback"): "pending",
    ("needs_clarification", "add_feedback"): "needs_clarification",
    ("changes_requested", "add_feedback"): "changes_requested",
    # A redaction blanks payload fields in any state, open or decided; the case does not move.
    ("pending", "redact"): "pending",
    ("needs_clarification", "redact"): "needs_clarification",
    ("changes_requested", "redact"): "changes_requested",
    ("approved", "redact"): "approved",
    ("rejected", "redact"): "rejected",
}


def target_state(
    from_state: CaseStateName, action: Action, decision: Decision | None = None
) -> CaseStateName:
    """The state `action` leads to from `from_state`, or INVALID_STATE_TRANSITION.

    The caller handles record_decision on a terminal case (ALREADY_TERMINAL) before asking.
    """
    if (from_state, action) not in _TRANSITIONS:
        raise InvalidStateTransition(from_state=from_state, requested_action=action)
    target = _TRANSITIONS[(from_state, action)]
    if target is None:
        if decision is None or (from_state == "changes_requested" and decision != "rejected"):
            raise InvalidStateTransition(from_state=from_state, requested_action=action)
        return decision
    return target


def apply(state: CaseState | None, event: Event) -> CaseState:
    """Fold one event into the projection. Pure: the same events always give the same state."""
    t = event.created_at_ms
    if event.event_type == "submitted":
        return CaseState(case_id=event.case_id, current_state="pending", updated_at_ms=t)
    if state is None:
        raise ValueError(f"event {event.event_id} of type {event.event_type} before submitted")
    if event.event_type == "needs_clarification":
        if state.current_state == "needs_clarification":  # a question revision keeps the SLA clock
            return replace(state, updated_at_ms=t)
        return replace(
            state,
            current_state="needs_clarification",
            needs_clarification_since_ms=t,
            escalation_due_at_ms=event.escalation_due_at_ms,
            escalated_at_ms=None,
            escalation_target=None,
            updated_at_ms=t,
        )
    if event.event_type == "clarification_provided":
        return replace(
            state,
            current_state="pending",
            needs_clarification_since_ms=None,
            escalation_due_at_ms=None,
            updated_at_ms=t,
        )
    if event.event_type in ("decision_recorded", "decision_superseded"):
        if event.decision_outcome is None:
            raise ValueError(f"event {event.event_id} has no decision_outcome")
        # Built directly (not `replace`, which inspects the fields on every call): the decision
        # is on every case's path.
        return CaseState(
            case_id=state.case_id,
            current_state=event.decision_outcome,
            updated_at_ms=t,
            active_terminal_event_id=event.event_id,
            active_decision_outcome=event.decision_outcome,
            needs_clarification_since_ms=None,
            escalation_due_at_ms=None,
            escalated_at_ms=state.escalated_at_ms,
            escalation_target=state.escalation_target,
            resubmissions=state.resubmissions,
        )
    if event.event_type == "redacted" and state.current_state in TERMINAL_STATES:
        return state  # a decided case keeps the time it was decided (retention counts from it)
    if event.event_type in ("approval_vote", "feedback_added", "redacted"):
        return replace(state, updated_at_ms=t)
    if event.event_type in ("changes_requested", "resubmitted"):
        return _revision(state, event)
    if event.event_type == "escalated":
        return replace(
            state,
            escalated_at_ms=t,
            escalation_target=event.escalation_target,
            escalation_due_at_ms=event.escalation_due_at_ms,
            updated_at_ms=t,
        )
    raise ValueError(f"unknown event type {event.event_type}")


def _revision(state: CaseState, event: Event) -> CaseState:
    """Changes requested (the case waits on its submitter, no clarification clock runs) or the
    submitter's revision (pending again, one more resubmission)."""
    t = event.created_at_ms
    if event.event_type == "changes_requested":
        return replace(
            state,
            current_state="changes_requested",
            needs_clarification_since_ms=None,
            escalation_due_at_ms=None,
            updated_at_ms=t,
        )
    return replace(state, current_state="pending", resubmissions=state.resubmissions + 1, updated_at_ms=t)


def project(events: Iterable[Event]) -> CaseState | None:
    state: CaseState | None = None
    for event in events:
        state = apply(state, event)
    return state
