"""The commands' decisions on a case snapshot, without a store: the transition each one writes, and
the domain errors that refuse it (a refused decision asks for nothing it does not need)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from caseplatform import decisions
from caseplatform.decisions import Intent, Stamp
from caseplatform.errors import AlreadyTerminal, DuplicateApprover, EscalationNotDue, InvalidStateTransition
from caseplatform.model import Case, CaseState, Event, Principal
from caseplatform.ports import CaseSnapshot
from caseplatform.redaction import mask_contacts, no_redaction
from caseplatform.schemas import AdapterPolicy
from caseplatform.statemachine import project
from tests.unit.caseplatform.factories import DAY_MS, T0, lgv_payload

CASE_ID = "HITL-00000000-0000-0000-0000-000000000001"
DANA = Principal(name="Dana Levi", role="site engineer", kind="operator", id="op:dana")
OMER = Principal(name="Omer Cohen", role="site engineer", kind="operator", id="op:omer")
AGENT = Principal(name="lgv-chatbot", role="agent", kind="agent", id="agent:lgv")
POLICY = AdapterPolicy(clarification_sla_days=2, escalation_target="lgv-tier2", reescalation_interval_days=1)


def case() -> Case:
    return Case(
        case_id=CASE_ID,
        schema_version=1,
        adapter_id="lgv_troubleshooting",
        case_type="incident",
        title="LGV-07 navigation fault",
        summary="Reload the reflector map",
        payload=lgv_payload(),
        payload_hash_sha256="",
        submitter=AGENT,
        priority="normal",
        confidence=None,
        created_at_ms=T0,
        updated_at_ms=T0,
    )


def snapshot(state: str = "pending", *, updated_at_ms: int = T0, **fields: Any) -> CaseSnapshot:
    open_question = fields.pop("open_question", None)
    live = CaseState(case_id=CASE_ID, current_state=state, updated_at_ms=updated_at_ms, **fields)  # type: ignore[arg-type]
    return CaseSnapshot(case(), live, open_question)


def intent(actor: Principal = DANA, notes: str = "checked", request_id: str = "r-1") -> Intent:
    return Intent(CASE_ID, actor, notes, request_id, f"hash-of-{request_id}")


def stamp(clock_ms: int = T0 + 1000) -> Stamp:
    return Stamp("HEV-1", clock_ms)


def never(*_: Any) -> Any:
    raise AssertionError("a refused decision must not read this")


def vote(actor: Principal, approved_payload: dict[str, Any] | None = None) -> Event:
    return Event(
        event_id=f"HEV-vote-{actor.principal}",
        case_id=CASE_ID,
        event_type="approval_vote",
        notes="",
        actor=actor,
        created_at_ms=T0 + 10,
        state_after="pending",
        approved_payload=approved_payload,
    )


# ---------------------------------------------------------------------------- every transition
def test_every_transition_is_its_event_folded_into_the_projection() -> None:
    snap = snapshot("pending")
    transition = decisions.record_decision(snap, stamp(), intent=intent(), outcome="rejected")

    assert transition.state.current_state == "rejected"
    assert transition.state.active_terminal_event_id == "HEV-1"
    assert transition.event.state_after == "rejected"
    assert (transition.event.actor, transition.event.notes) == (DANA, "checked")
    assert (transition.event.request_id, transition.event.request_hash) == ("r-1", "hash-of-r-1")


def test_an_event_is_never_older_than_the_case_it_changes() -> None:
    late = snapshot("pending", updated_at_ms=T0 + 5000)

    transition = decisions.record_decision(late, stamp(T0 + 1000), intent=intent(), outcome="approved")

    assert transition.event.created_at_ms == T0 + 5000


# ---------------------------------------------------------------------------- clarification
def test_the_first_question_starts_the_sla_clock_from_the_adapter_policy() -> None:
    transition = decisions.request_clarification(
        snapshot("pending"), stamp(), intent=intent(AGENT), question="Which map?", policy=lambda _: POLICY
    )

    assert transition.event.event_type == "needs_clarification"
    assert transition.event.question == "Which map?"
    assert transition.state.current_state == "needs_clarification"
    assert transition.state.escalation_due_at_ms == T0 + 1000 + 2 * DAY_MS


def test_a_revised_question_keeps_the_clock_and_does_not_read_the_policy() -> None:
    asked = snapshot("needs_clarification", open_question="Which map?", escalation_due_at_ms=T0 + DAY_MS)

    transition = decisions.request_clarification(
        asked, stamp(), intent=intent(AGENT), question="Which map version?", policy=never
    )

    assert transition.event.escalation_due_at_ms is None
    assert transition.state.escalation_due_at_ms == T0 + DAY_MS


def test_the_same_open_question_again_is_refused() -> None:
    asked = snapshot("needs_clarification", open_question="Which map?")

    with pytest.raises(InvalidStateTransition):
        decisions.request_clarification(asked, stamp(), intent=intent(), question="Which map?", policy=never)


def test_an_answer_without_an_open_question_is_refused() -> None:
    with pytest.raises(InvalidStateTransition) as refused:
        decisions.provide_clarification(snapshot("pending"), stamp(), intent=intent(), answer="v12")

    assert refused.value.fields() == {"from_state": "pending", "requested_action": "provide_clarification"}


def test_an_answer_returns_the_case_to_pending_and_stops_the_clock() -> None:
    asked = snapshot("needs_clarification", escalation_due_at_ms=T0 + DAY_MS, needs_clarification_since_ms=T0)

    transition = decisions.provide_clarification(asked, stamp(), intent=intent(), answer="v12")

    assert transition.event.answer == "v12"
    assert transition.state.current_state == "pending"
    assert transition.state.escalation_due_at_ms is None


# ---------------------------------------------------------------------------- decisions
@pytest.mark.parametrize("decide", ["record_decision", "approve"])
def test_a_decided_case_names_the_decision_that_won(decide: str) -> None:
    decided = snapshot("approved", active_terminal_event_id="HEV-first", active_decision_outcome="approved")

    def refused_decision() -> None:
        if decide == "record_decision":
            decisions.record_decision(decided, stamp(), intent=intent(), outcome="rejected")
        else:
            decisions.approve(
                decided,
                stamp(),
                intent=intent(),
                payload=lgv_payload(),
                edited=None,
                required=1,
                events=never,
            )

    with pytest.raises(AlreadyTerminal) as refused:
        refused_decision()

    assert refused.value.existing == {"event_id": "HEV-first", "decision": "approved", "decided_at_ms": T0}


def test_with_one_approver_required_an_approval_decides_the_case() -> None:
    transition = decisions.approve(
        snapshot("pending"),
        stamp(),
        intent=intent(),
        payload=lgv_payload(),
        edited=None,
        required=1,
        events=list,
    )

    assert transition.event.event_type == "decision_recorded"
    assert transition.event.decision_outcome == "approved"
    assert transition.state.current_state == "approved"


def test_an_approval_short_of_the_count_is_a_vote_and_the_case_stays_open() -> None:
    edited = lgv_payload(proposed_next_action="Restart nav-service")

    transition = decisions.approve(
        snapshot("needs_clarification"),
        stamp(),
        intent=intent(),
        payload=lgv_payload(),
        edited=edited,
        required=2,
        events=list,
    )

    assert transition.event.event_type == "approval_vote"
    assert transition.event.approved_payload == edited
    assert transition.state.current_state == "needs_clarification"


def test_the_approval_completing_the_count_of_the_same_payload_decides() -> None:
    votes = [vote(OMER)]

    transition = decisions.approve(
        snapshot("pending"),
        stamp(),
        intent=intent(),
        payload=lgv_payload(),
        edited=None,
        required=2,
        events=lambda: votes,
    )

    assert transition.event.event_type == "decision_recorded"


def test_votes_for_a_different_payload_do_not_count() -> None:
    votes = [vote(OMER, approved_payload=lgv_payload(proposed_next_action="Replace the scanner"))]

    transition = decisions.approve(
        snapshot("pending"),
        stamp(),
        intent=intent(),
        payload=lgv_payload(),
        edited=None,
        required=2,
        events=lambda: votes,
    )

    assert transition.event.event_type == "approval_vote"


def test_the_same_principal_twice_is_not_two_approvers() -> None:
    votes = [vote(DANA)]

    with pytest.raises(DuplicateApprover) as refused:
        decisions.approve(
            snapshot("pending"),
            stamp(),
            intent=intent(),
            payload=lgv_payload(),
            edited=None,
            required=3,
            events=lambda: votes,
        )

    assert refused.value.fields() == {"case_id": CASE_ID, "approvals": 1, "required_approvers": 3}


# ---------------------------------------------------------------------------- escalation
def escalation_snapshot(due: int) -> CaseSnapshot:
    return snapshot("needs_clarification", escalation_due_at_ms=due, needs_clarification_since_ms=T0)


def test_an_overdue_clarification_escalates_to_the_policy_target_and_rearms() -> None:
    due = T0 + 2 * DAY_MS
    now = due + 60_000

    transition = decisions.escalate(
        escalation_snapshot(due),
        stamp(now),
        intent=decisions.escalation_intent(CASE_ID, due),
        due=due,
        policy=lambda _: POLICY,
        redact=no_redaction,
    )

    event = transition.event
    assert (event.event_type, event.actor, event.request_id) == (
        "escalated",
        decisions.SYSTEM_ACTOR,
        f"escalation:{due}",
    )
    assert event.notes == f"needs_clarification past its SLA (due {due}); escalated to lgv-tier2"
    assert transition.state.escalated_at_ms == now
    assert transition.state.escalation_target == "lgv-tier2"
    assert transition.state.escalation_due_at_ms == now + DAY_MS


def test_escalation_notes_go_through_the_redactor() -> None:
    due = T0 + 2 * DAY_MS

    transition = decisions.escalate(
        escalation_snapshot(due),
        stamp(due),
        intent=decisions.escalation_intent(CASE_ID, due),
        due=due,
        policy=lambda _: POLICY,
        redact=mask_contacts,
    )

    assert str(due) not in transition.event.notes


@pytest.mark.parametrize(
    ("live", "now"),
    [
        ("not yet due", T0 + DAY_MS),
        ("answered meanwhile", T0 + 3 * DAY_MS),
        ("re-armed by a racing sweep", T0 + 3 * DAY_MS),
    ],
)
def test_a_case_no_longer_due_is_not_escalated(live: str, now: int) -> None:
    due = T0 + 2 * DAY_MS
    snap = escalation_snapshot(due)
    if live == "answered meanwhile":
        snap = replace(snap, state=replace(snap.state, current_state="pending", escalation_due_at_ms=None))
    if live == "re-armed by a racing sweep":
        snap = replace(snap, state=replace(snap.state, escalation_due_at_ms=due + DAY_MS))

    with pytest.raises(EscalationNotDue):
        decisions.escalate(
            snap,
            stamp(now),
            intent=decisions.escalation_intent(CASE_ID, due),
            due=due,
            policy=never,
            redact=no_redaction,
        )


def test_one_escalation_intent_per_case_and_due_time() -> None:
    first = decisions.escalation_intent(CASE_ID, T0)

    assert decisions.escalation_intent(CASE_ID, T0) == first
    assert decisions.escalation_intent(CASE_ID, T0 + 1).request_hash != first.request_hash


# ---------------------------------------------------------------------------- capture
def test_a_new_case_is_pending_with_its_submitted_event_and_unique_refs() -> None:
    ref = {"ref_type": "neo4j_node", "ref_key": "lgv_id", "ref_value": "LGV-07"}
    arguments = {
        "adapter_id": "lgv_troubleshooting",
        "case_type": "incident",
        "submitter": {"name": "lgv-chatbot", "role": "agent", "id": "agent:lgv"},
        "request_id": "submit-1",
        "priority": "high",
        "confidence": "low",
        "refs": [ref, ref],
    }

    new = decisions.new_case(
        arguments,
        schema_version=3,
        payload=lgv_payload(),
        title="LGV-07",
        summary="Reload",
        case_id=CASE_ID,
        stamp=Stamp("HEV-0", T0),
        request_hash="h",
    )

    assert (new.case.schema_version, new.case.priority, new.case.submitter) == (3, "high", AGENT)
    assert (new.event.event_type, new.event.request_id, new.event.request_hash) == (
        "submitted",
        "submit-1",
        "h",
    )
    assert new.state == project([new.event])
    assert len(new.refs) == 1


def test_the_intent_hash_ignores_the_request_id_only() -> None:
    args = {"case_id": CASE_ID, "notes": "", "request_id": "r-1"}

    assert decisions.intent_hash(args, "record_decision") == decisions.intent_hash(
        {**args, "request_id": "r-2"}, "record_decision"
    )
    assert decisions.intent_hash(args, "record_decision") != decisions.intent_hash(
        args, "request_clarification"
    )
    assert decisions.intent_hash(args, "record_decision") != decisions.intent_hash(
        {**args, "notes": "x"}, "record_decision"
    )
