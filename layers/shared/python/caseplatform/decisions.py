"""What each command decides, as pure functions: from the case as read (a `CaseSnapshot`) and the
accepted command (an `Intent`) to the transition to write (the event and the projection after it),
or a domain error.

They read and write nothing. What they cannot know is passed in: the new event's id and the clock
(a `Stamp`, taken per attempt, because a store that loses a race decides again on the new snapshot),
and the reads that only some paths need (the adapter's policy, the votes) as functions called when
the decision gets there, so a command refused early costs no request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from caseplatform import statemachine
from caseplatform.errors import (
    AlreadyTerminal,
    DuplicateApprover,
    EscalationNotDue,
    InvalidStateTransition,
    NotSubmitter,
    SelfApproval,
)
from caseplatform.model import (
    DEFAULT_ASSURANCE,
    TERMINAL_STATES,
    Case,
    CaseState,
    CaseStateName,
    Decision,
    Event,
    EventType,
    NewCase,
    Principal,
    Ref,
    StructuredDecision,
    canonical_json,
    sha256_hex,
)
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.redaction import Redactor
from caseplatform.schemas import AdapterPolicy

SYSTEM_ACTOR = Principal(
    kind="system", name="hitl-escalation-sweep", role="system", id="system:escalation", assurance="system"
)

PolicyOf = Callable[[Case], AdapterPolicy]


@dataclass(frozen=True)
class Intent:
    """A command as accepted: the case, who acts, the notes (redacted) and the request's identity
    (its id and the hash of everything else, for idempotency)."""

    case_id: str
    actor: Principal
    notes: str
    request_id: str
    request_hash: str


@dataclass(frozen=True)
class Verdict:
    """What a reviewer's structured decision records besides the outcome (`{decision, feedback,
    answers}`); empty for callers that record a bare approved/rejected."""

    decision: StructuredDecision | None = None
    feedback: str | None = None
    answers: Any = None

    def fields(self) -> dict[str, Any]:
        return {"decision": self.decision, "feedback": self.feedback, "answers": self.answers}


NO_VERDICT = Verdict()


@dataclass(frozen=True)
class Stamp:
    """Taken once per attempt: the id of the event to write and the clock reading."""

    event_id: str
    clock_ms: int


# ------------------------------------------------------------------ the envelope of a command
_SCALARS = (str, int, float, bool, type(None))
_PAYLOAD_ZERO = ',"payload":0'


def intent_hash(arguments: dict[str, Any], action: str, *, payload_json: str | None = None) -> str:
    """The fingerprint of a request's intent (everything but its request_id). `payload_json`: the
    canonical JSON of `arguments["payload"]` when the caller has it already; it is spliced in where
    the canonical JSON of the whole would have it (keys sorted), so the text hashed is the same."""
    body = {"action": action, **{k: v for k, v in arguments.items() if k != "request_id"}}
    if payload_json is None or "payload" not in body:
        text = canonical_json(body)
    elif all(type(v) in _SCALARS for k, v in body.items() if k < "payload"):
        # The whole is encoded once with 0 for the payload, then the payload's JSON replaces that 0.
        # Only keys before "payload" come before it, and their values are scalars: no nested key can
        # precede it, and inside a JSON string every `"` is escaped, so the first `,"payload":0` of
        # the text is this key's.
        body["payload"] = 0
        text = canonical_json(body)
        at = text.index(_PAYLOAD_ZERO)
        text = text[:at] + ',"payload":' + payload_json + text[at + len(_PAYLOAD_ZERO) :]
    else:
        before = canonical_json({k: v for k, v in body.items() if k < "payload"})
        after = canonical_json({k: v for k, v in body.items() if k > "payload"})
        text = (
            before[:-1]
            + ("," if len(before) > 2 else "")
            + '"payload":'
            + payload_json
            + ("," + after[1:] if len(after) > 2 else "}")
        )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def principal_of(actor: dict[str, Any], default_kind: str) -> Principal:
    """The acting principal of a validated `actor` argument."""
    return Principal(
        kind=actor.get("kind", default_kind),
        name=actor["name"],
        role=actor["role"],
        id=actor.get("id"),
        team=actor.get("team"),
        assurance=actor.get("assurance", DEFAULT_ASSURANCE),
    )


# ------------------------------------------------------------------ capture
def new_case(
    arguments: dict[str, Any],
    *,
    schema_version: int,
    payload: dict[str, Any],
    title: str,
    summary: str,
    case_id: str,
    stamp: Stamp,
    request_hash: str,
    payload_json: str | None = None,
) -> NewCase:
    """The case, its `submitted` event, its first projection and its refs, from validated
    submit_case arguments (`payload`, `title` and `summary` already redacted; `payload_json`: the
    payload's canonical JSON when the caller has it already)."""
    submitter = arguments["submitter"]
    person = Principal(
        kind="agent",
        name=submitter["name"],
        role=submitter["role"],
        id=submitter.get("id"),
        team=submitter.get("team"),
        assurance=submitter.get("assurance", DEFAULT_ASSURANCE),
    )
    now = stamp.clock_ms
    if payload_json is None:
        payload_json = canonical_json(payload)
    case = Case(
        case_id=case_id,
        schema_version=schema_version,
        adapter_id=arguments["adapter_id"],
        case_type=arguments["case_type"],
        title=title,
        summary=summary,
        payload=payload,
        payload_hash_sha256=sha256_hex(payload_json),
        # The envelope's columns; the event records the assurance.
        submitter=Principal(
            kind=person.kind, name=person.name, role=person.role, id=person.id, team=person.team
        ),
        priority=arguments["priority"],
        confidence=arguments["confidence"],
        created_at_ms=now,
        updated_at_ms=now,
    )
    vars(case)["payload_json"] = payload_json  # the cached property, serialized once for hash and row
    event = Event(
        event_id=stamp.event_id,
        case_id=case_id,
        event_type="submitted",
        notes="",
        actor=person,
        created_at_ms=now,
        state_after="pending",
        request_id=arguments["request_id"],
        request_hash=request_hash,
    )
    refs = tuple(dict.fromkeys(Ref(r["ref_type"], r["ref_key"], r["ref_value"]) for r in arguments["refs"]))
    return NewCase(case, event, statemachine.apply(None, event), refs)


# ------------------------------------------------------------------ review and follow-up
def request_clarification(
    snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, question: str, policy: PolicyOf
) -> Transition:
    """Ask (or revise) the open question; the first question starts the clarification SLA clock.
    `question` is redacted already, as the open question it is compared with was."""
    current = snap.state.current_state
    target = statemachine.target_state(current, "request_clarification")
    if current == "needs_clarification" and snap.open_question == question:
        raise InvalidStateTransition(from_state=current, requested_action="request_clarification")
    now = _now(snap, stamp)
    due = policy(snap.case).due_at(now) if current == "pending" else None
    return _transition(
        snap,
        stamp,
        intent,
        "needs_clarification",
        target,
        now,
        question=question,
        escalation_due_at_ms=due,
    )


def provide_clarification(snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, answer: str) -> Transition:
    target = statemachine.target_state(snap.state.current_state, "provide_clarification")
    return _transition(
        snap, stamp, intent, "clarification_provided", target, _now(snap, stamp), answer=answer
    )


def record_decision(
    snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, outcome: Decision, verdict: Verdict = NO_VERDICT
) -> Transition:
    """Approve or reject outright; a decided case is ALREADY_TERMINAL (the first decision wins).
    The case's submitter may not approve it (SELF_APPROVAL)."""
    refuse_terminal(snap.state, snap.winner)
    if outcome == "approved":
        refuse_self_approval(snap.case, intent.actor)
    target = statemachine.target_state(snap.state.current_state, "record_decision", outcome)
    return _transition(
        snap,
        stamp,
        intent,
        "decision_recorded",
        target,
        _now(snap, stamp),
        decision_outcome=outcome,
        **verdict.fields(),
    )


def approve(
    snap: CaseSnapshot,
    stamp: Stamp,
    *,
    intent: Intent,
    payload: dict[str, Any],
    edited: dict[str, Any] | None,
    required: int,
    events: Callable[[], list[Event]],
    verdict: Verdict = NO_VERDICT,
    payload_hash: str | None = None,
) -> Transition:
    """One operator's approval of `edited` (else of the case's `payload` as read now). Approvals of
    the same payload by distinct principals count; the one reaching `required` decides the case
    (approved), the ones before it are votes. The same principal twice is DUPLICATE_APPROVER.
    `events`: the case's history, read only once the case is known to be open."""
    refuse_terminal(snap.state, snap.winner)
    refuse_self_approval(snap.case, intent.actor)
    # `payload_hash`: the hash of `payload` when the caller knows it (the envelope's, when the payload
    # is read as submitted), so it is not serialized again.
    if edited is not None:
        approved_hash = _payload_hash(edited)
    else:
        approved_hash = payload_hash if payload_hash is not None else _payload_hash(payload)
    voters = {
        vote.actor.principal
        for vote in events()
        if vote.event_type == "approval_vote"
        and _payload_hash(vote.approved_payload or payload) == approved_hash
    }
    if intent.actor.principal in voters:
        raise DuplicateApprover(snap.case.case_id, intent.actor.principal, len(voters), required)
    now = _now(snap, stamp)
    current = snap.state.current_state
    if len(voters) + 1 >= required:
        target = statemachine.target_state(current, "record_decision", "approved")
        return _transition(
            snap,
            stamp,
            intent,
            "decision_recorded",
            target,
            now,
            decision_outcome="approved",
            approved_payload=edited,
            **verdict.fields(),
        )
    target = statemachine.target_state(current, "record_approval_vote")
    return _transition(
        snap, stamp, intent, "approval_vote", target, now, approved_payload=edited, **verdict.fields()
    )


# ------------------------------------------------------------------ changes requested
def request_changes(snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, verdict: Verdict) -> Transition:
    """A reviewer's edit without a payload: the case goes back to its submitter with the feedback
    (`changes_requested`); a decided case is ALREADY_TERMINAL."""
    refuse_terminal(snap.state, snap.winner)
    target = statemachine.target_state(snap.state.current_state, "request_changes")
    return _transition(
        snap, stamp, intent, "changes_requested", target, _now(snap, stamp), **verdict.fields()
    )


def resubmit(snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, revised: dict[str, Any]) -> Transition:
    """The submitter's revision of a case sent back to it (`revised`: validated, redacted): the case
    is pending again. Only the case's submitter revises it (NOT_SUBMITTER)."""
    refuse_terminal(snap.state, snap.winner)
    if intent.actor.principal != snap.case.submitter.principal:
        raise NotSubmitter(snap.case.case_id, intent.actor.principal)
    target = statemachine.target_state(snap.state.current_state, "resubmit")
    return _transition(snap, stamp, intent, "resubmitted", target, _now(snap, stamp), revised_payload=revised)


def add_feedback(snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, feedback: str) -> Transition:
    """Feedback left on an open case through the feedback tool: recorded, the case does not move."""
    refuse_terminal(snap.state, snap.winner)
    target = statemachine.target_state(snap.state.current_state, "add_feedback")
    return _transition(snap, stamp, intent, "feedback_added", target, _now(snap, stamp), feedback=feedback)


# ------------------------------------------------------------------ escalation
def escalation_intent(case_id: str, due: int) -> Intent:
    """The platform's own request to escalate a case once per due time (its idempotency key)."""
    request_hash = intent_hash({"case_id": case_id, "escalation_due_at_ms": due}, "escalate")
    return Intent(case_id, SYSTEM_ACTOR, "", f"escalation:{due}", request_hash)


def escalate(
    snap: CaseSnapshot, stamp: Stamp, *, intent: Intent, due: int, policy: PolicyOf, redact: Redactor
) -> Transition:
    """Escalate a case whose clarification is past its SLA (`due`, as the sweep saw it) at
    `stamp.clock_ms`, the sweep's time; ESCALATION_NOT_DUE when the live case no longer is."""
    live = snap.state
    if (
        live.current_state != "needs_clarification"
        or live.escalation_due_at_ms != due
        or due > stamp.clock_ms
    ):
        raise EscalationNotDue(live.case_id)
    target = statemachine.target_state(live.current_state, "escalate")
    now = _now(snap, stamp)
    rules = policy(snap.case)
    notes = f"needs_clarification past its SLA (due {due}); escalated to {rules.escalation_target}"
    return _transition(
        snap,
        stamp,
        replace(intent, notes=redact(notes)),
        "escalated",
        target,
        now,
        escalation_due_at_ms=rules.next_escalation_at(now),
        escalation_target=rules.escalation_target,
    )


# ------------------------------------------------------------------ shared rules
def refuse_terminal(state: CaseState, winner: Event | None = None) -> None:
    """ALREADY_TERMINAL on a decided case, naming the decision that won (in full when the store read
    its event with the case: `winner`)."""
    if state.current_state in TERMINAL_STATES:
        if winner is not None and winner.event_id == state.active_terminal_event_id:
            raise AlreadyTerminal(state.case_id, decision_summary(winner))
        raise AlreadyTerminal(
            state.case_id,
            {
                "event_id": state.active_terminal_event_id,
                "decision": state.active_decision_outcome,
                "decided_at_ms": state.updated_at_ms,
            },
        )


def refuse_self_approval(case: Case, actor: Principal) -> None:
    """SELF_APPROVAL when the approving principal is the one who submitted the case."""
    if actor.principal == case.submitter.principal:
        raise SelfApproval(case.case_id, actor.principal)


def decision_summary(event: Event) -> dict[str, Any]:
    """The winning decision as ALREADY_TERMINAL reports it: who decided what, when and why."""
    return {
        "event_id": event.event_id,
        "decision": event.decision_outcome,
        "decided_at_ms": event.created_at_ms,
        "actor": event.actor.to_dict(),
        "notes": event.notes,
    }


def _now(snap: CaseSnapshot, stamp: Stamp) -> int:
    # Events of a case never go back in time, so append order and time order agree.
    return max(stamp.clock_ms, snap.state.updated_at_ms)


def _payload_hash(payload: dict[str, Any]) -> str:
    return sha256_hex(canonical_json(payload))


def _transition(
    snap: CaseSnapshot,
    stamp: Stamp,
    intent: Intent,
    event_type: EventType,
    target: CaseStateName,
    now: int,
    **fields: Any,
) -> Transition:
    event = Event(
        event_id=stamp.event_id,
        case_id=snap.case.case_id,
        event_type=event_type,
        notes=intent.notes,
        actor=intent.actor,
        created_at_ms=now,
        state_after=target,
        request_id=intent.request_id,
        request_hash=intent.request_hash,
        **fields,
    )
    return Transition(event, statemachine.apply(snap.state, event))
