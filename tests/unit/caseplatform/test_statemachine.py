"""The transition matrix and the projection fold.

Every (state, action) pair is either one of the allowed moves, with its target state, or refused
with INVALID_STATE_TRANSITION naming the state and the action; the fold of a case's events is the
projection the queue shows, and it is pure (the same events always give the same state).
"""

from __future__ import annotations

from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.answers import error_answer
from caseplatform.errors import InvalidStateTransition
from caseplatform.model import Action, CaseState, Decision, Event, Principal
from caseplatform.statemachine import apply, project, target_state

STATES = ("pending", "needs_clarification", "changes_requested", "approved", "rejected")
ACTIONS: tuple[Any, ...] = get_args(Action)
DECISIONS: tuple[str, ...] = get_args(Decision)

# The whole matrix, written out: (from_state, action) -> target ("decision": the decision itself).
ALLOWED: dict[tuple[str, str], str] = {
    ("pending", "request_clarification"): "needs_clarification",
    ("pending", "record_decision"): "decision",
    ("pending", "record_approval_vote"): "pending",
    ("needs_clarification", "provide_clarification"): "pending",
    ("needs_clarification", "record_decision"): "decision",
    ("needs_clarification", "request_clarification"): "needs_clarification",
    ("needs_clarification", "escalate"): "needs_clarification",
    ("needs_clarification", "record_approval_vote"): "needs_clarification",
    ("pending", "request_changes"): "changes_requested",
    ("needs_clarification", "request_changes"): "changes_requested",
    ("changes_requested", "resubmit"): "pending",
    ("changes_requested", "record_decision"): "rejection",  # only a rejection: nothing approved unrevised
    ("pending", "add_feedback"): "pending",
    ("needs_clarification", "add_feedback"): "needs_clarification",
    ("changes_requested", "add_feedback"): "changes_requested",
    # A redaction records in every state, decided or not, without moving the case.
    **{(state, "redact"): state for state in STATES},
}

SYSTEM = Principal("hitl", "platform", "system")
T0 = 1_700_000_000_000


@given(
    state=st.sampled_from(STATES),
    action=st.sampled_from(ACTIONS),
    decision=st.none() | st.sampled_from(DECISIONS),
)
def test_every_state_and_action_is_allowed_or_refused_with_its_code(
    state: Any, action: Any, decision: Any
) -> None:
    expected = ALLOWED.get((state, action))
    if (
        expected is None
        or (expected in ("decision", "rejection") and decision is None)
        or (expected == "rejection" and decision != "rejected")
    ):
        with pytest.raises(InvalidStateTransition) as refused:
            target_state(state, action, decision)
        assert error_answer(refused.value) == {
            "status": "error",
            "code": "INVALID_STATE_TRANSITION",
            "message": f"{action} is not allowed from {state}",
            "from_state": state,
            "requested_action": action,
        }
        return
    wanted = decision if expected in ("decision", "rejection") else expected
    assert target_state(state, action, decision) == wanted


@pytest.mark.parametrize("terminal", ["approved", "rejected"])
def test_a_terminal_case_accepts_nothing_but_a_redaction(terminal: Any) -> None:
    assert target_state(terminal, "redact") == terminal
    for action in set(ACTIONS) - {"redact"}:
        with pytest.raises(InvalidStateTransition):
            target_state(terminal, action, "approved")


def _event(event_type: str, at: int, **fields: Any) -> Event:
    return Event(
        event_id=f"HEV-{event_type}-{at}",
        case_id="HITL-1",
        event_type=event_type,  # type: ignore[arg-type]
        notes="",
        actor=SYSTEM,
        created_at_ms=at,
        state_after="pending",
        **fields,
    )


def test_the_fold_of_a_whole_case() -> None:
    events = [
        _event("submitted", T0),
        _event("needs_clarification", T0 + 1, escalation_due_at_ms=T0 + 100),
        _event("needs_clarification", T0 + 2, escalation_due_at_ms=T0 + 999),  # a revised question
        _event("escalated", T0 + 100, escalation_target="tier2", escalation_due_at_ms=T0 + 200),
        _event("clarification_provided", T0 + 150),
        _event("approval_vote", T0 + 160),
        _event("decision_recorded", T0 + 170, decision_outcome="approved"),
    ]
    states = [project(events[: n + 1]) for n in range(len(events))]
    assert states[0] == CaseState("HITL-1", "pending", T0)
    assert states[1] == CaseState(
        "HITL-1",
        "needs_clarification",
        T0 + 1,
        needs_clarification_since_ms=T0 + 1,
        escalation_due_at_ms=T0 + 100,
    )
    # A revision keeps the SLA clock (since and due), only the update time moves.
    assert states[2] == CaseState(
        "HITL-1",
        "needs_clarification",
        T0 + 2,
        needs_clarification_since_ms=T0 + 1,
        escalation_due_at_ms=T0 + 100,
    )
    assert states[3] is not None
    assert (states[3].escalated_at_ms, states[3].escalation_target, states[3].escalation_due_at_ms) == (
        T0 + 100,
        "tier2",
        T0 + 200,
    )
    # An answer stops the clock but keeps the record of the escalation.
    assert states[4] == CaseState(
        "HITL-1", "pending", T0 + 150, escalated_at_ms=T0 + 100, escalation_target="tier2"
    )
    assert states[5] == CaseState(
        "HITL-1", "pending", T0 + 160, escalated_at_ms=T0 + 100, escalation_target="tier2"
    )  # a vote does not move the case
    assert states[6] == CaseState(
        "HITL-1",
        "approved",
        T0 + 170,
        active_terminal_event_id=events[6].event_id,
        active_decision_outcome="approved",
        escalated_at_ms=T0 + 100,
        escalation_target="tier2",
    )


def test_a_superseding_decision_names_the_new_winner() -> None:
    decided = project(
        [
            _event("submitted", T0),
            _event("decision_recorded", T0 + 1, decision_outcome="approved"),
            _event("decision_superseded", T0 + 2, decision_outcome="rejected"),
        ]
    )
    assert decided is not None
    assert (decided.current_state, decided.active_decision_outcome, decided.active_terminal_event_id) == (
        "rejected",
        "rejected",
        f"HEV-decision_superseded-{T0 + 2}",
    )


def test_a_question_again_after_an_answer_restarts_the_clock() -> None:
    state = project(
        [
            _event("submitted", T0),
            _event("needs_clarification", T0 + 1, escalation_due_at_ms=T0 + 10),
            _event("escalated", T0 + 10, escalation_target="tier2", escalation_due_at_ms=T0 + 20),
            _event("clarification_provided", T0 + 11),
            _event("needs_clarification", T0 + 12, escalation_due_at_ms=T0 + 50),
        ]
    )
    assert state == CaseState(
        "HITL-1",
        "needs_clarification",
        T0 + 12,
        needs_clarification_since_ms=T0 + 12,
        escalation_due_at_ms=T0 + 50,
    )


def test_no_events_is_no_case() -> None:
    assert project([]) is None


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([_event("decision_recorded", T0, decision_outcome="approved")], "before submitted"),
        ([_event("submitted", T0), _event("decision_recorded", T0 + 1)], "has no decision_outcome"),
        ([_event("submitted", T0), _event("renamed", T0 + 1)], "unknown event type renamed"),
    ],
    ids=["before-submitted", "decision-without-outcome", "unknown-type"],
)
def test_a_history_that_cannot_be_folded_is_refused(events: list[Event], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        project(events)


_HISTORIES = st.lists(
    st.sampled_from(["needs_clarification", "clarification_provided", "escalated", "approval_vote"]),
    max_size=8,
).map(
    lambda kinds: [
        _event("submitted", T0),
        *(_event(kind, T0 + i + 1, escalation_due_at_ms=T0 + 1000 * (i + 1)) for i, kind in enumerate(kinds)),
    ]
)


@given(_HISTORIES)
def test_the_fold_is_pure_and_step_by_step(events: list[Event]) -> None:
    stepwise: CaseState | None = None
    for event in events:
        stepwise = apply(stepwise, event)
    assert project(events) == project(list(events)) == stepwise
    assert stepwise is not None and stepwise.updated_at_ms == events[-1].created_at_ms
