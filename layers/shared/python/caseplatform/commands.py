"""The write side of the platform: submit a case, then act on it (clarification asked and answered,
decision, approval, escalation).

Every command on an existing case goes through one pipeline:
    accept     check the envelope and the actor, hash the request's intent, redact the notes;
    decide     the store reads the case snapshot and calls the command's pure decision
               (`caseplatform.decisions`), once per attempt;
    append     the store writes the event and the projection atomically (or returns the earlier
               event of the same request_id, which must carry the same intent);
    notify     the listeners hear about the event.
A decision refused as ALREADY_TERMINAL is answered with the decision that won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from caseplatform import decisions, schemas
from caseplatform.decisions import Intent, Stamp, Verdict
from caseplatform.errors import (
    ActiveSchemaChanged,
    AdapterNotFound,
    AlreadyTerminal,
    AnswerRequired,
    CaseNotFound,
    DecisionNotAllowed,
    EnvelopeInvalid,
    EscalationNotDue,
    IdempotencyConflict,
    PayloadInvalid,
    QuestionRequired,
)
from caseplatform.model import (
    STRUCTURED_DECISIONS,
    Case,
    CaseRecord,
    CaseState,
    Event,
    Recorded,
    SchemaRecord,
    canonical_json,
)
from caseplatform.ports import CaseListener, CaseSnapshot, CaseStore, Clock, Transition
from caseplatform.queries import ApprovalStatus, CaseQueries, CaseView
from caseplatform.redaction import Redactor, no_redaction, redact_tree
from caseplatform.registry import SchemaRegistry
from caseplatform.validation import MAX_PAYLOAD_BYTES, check_action, check_submit

Decide = Callable[[CaseSnapshot, Stamp], Transition]
# How many times a submission is validated again because another schema version became active
# between its validation and its write (each time: nothing was written).
MAX_SCHEMA_CHANGES = 3


@dataclass(frozen=True)
class Approval:
    """An approval as recorded: its event (a vote or the completing decision) and where the case
    stands on the approver policy right after it."""

    event: Event
    status: ApprovalStatus


class CaseCommands:
    def __init__(
        self,
        store: CaseStore,
        registry: SchemaRegistry,
        queries: CaseQueries,
        *,
        clock: Clock,
        redactor: Redactor,
        new_id: Callable[[], str],
        listeners: Sequence[CaseListener],
    ) -> None:
        self._store = store
        self._registry = registry
        self._queries = queries
        self._clock = clock
        self._redact = redactor
        self._new_id = new_id
        self._listeners = tuple(listeners)

    # ------------------------------------------------------------------ capture
    def submit_case(
        self,
        *,
        adapter_id: str,
        case_type: str,
        title: str,
        summary: str,
        payload: dict[str, Any],
        submitter: dict[str, Any],
        request_id: str,
        priority: str = "normal",
        confidence: str | None = None,
        refs: list[dict[str, Any]] | None = None,
    ) -> tuple[Event, Case]:
        """Open a case. Idempotent by request_id across all cases (the same intent again answers
        with the case it opened)."""
        arguments: dict[str, Any] = {
            "adapter_id": adapter_id,
            "case_type": case_type,
            "title": title,
            "summary": summary,
            "payload": payload,
            "submitter": submitter,
            "request_id": request_id,
            "priority": priority,
            "confidence": confidence,
            "refs": refs if refs is not None else [],
        }
        # The payload is serialized once: for its size, the intent's hash and (when nothing is
        # redacted) the stored payload_json.
        payload_json = canonical_json(payload) if isinstance(payload, dict) else None
        details = check_submit(arguments, payload_json)
        if details:
            payload_details = [d for d in details if d["path"].startswith("$.payload")]
            if payload_details == details:
                raise PayloadInvalid(details)
            raise EnvelopeInvalid(details)
        request_hash = decisions.intent_hash(arguments, "submit_case", payload_json=payload_json)
        if self._redact is no_redaction:
            clean_payload, clean_json = payload, payload_json
        else:
            clean_payload, clean_json = redact_tree(payload, self._redact), None
        active, live = self._store.decision_schema(adapter_id), False
        for attempt in range(MAX_SCHEMA_CHANGES + 1):
            active = self._valid_for(adapter_id, active, clean_payload, live=live)
            now = self._clock()
            case_id = f"HITL-{self._new_id()}"
            new = decisions.new_case(
                arguments,
                schema_version=active.schema_version,
                payload=clean_payload,
                title=self._redact(title),
                summary=self._redact(summary),
                case_id=case_id,
                stamp=Stamp(f"HEV-{self._new_id()}", now),
                request_hash=request_hash,
                payload_json=clean_json,
            )
            try:
                recorded = self._store.create_case(new)
                break
            except ActiveSchemaChanged:
                # Validated on a version no longer active, nothing written: validate on the new one.
                if attempt == MAX_SCHEMA_CHANGES:
                    raise
                active, live = self._store.active_schema(adapter_id), True
        if recorded.replayed:
            if recorded.event.request_hash != request_hash:
                raise IdempotencyConflict(request_id)
            if recorded.case is not None:
                return recorded.event, recorded.case
            stored = self._store.get_case(recorded.event.case_id)
            if stored is None:  # the store returned its event, so the envelope exists
                raise CaseNotFound(recorded.event.case_id)
            return recorded.event, stored.case
        return recorded.event, new.case

    def _valid_for(
        self, adapter_id: str, active: SchemaRecord | None, payload: dict[str, Any], *, live: bool
    ) -> SchemaRecord:
        """`active` (as the store gave it for a decision; `live`: read just now) once the payload is
        valid for it. A payload refused by a schema the store may have served from its cache is
        checked again on the schema read now, so a refusal is always decided on the live version."""
        if active is None:
            raise AdapterNotFound(adapter_id)
        try:
            self._registry.validator(active).validate(payload)
        except PayloadInvalid:
            if live:
                raise
            current = self._store.active_schema(adapter_id)
            if current is None:
                raise AdapterNotFound(adapter_id) from None
            if current.schema_version == active.schema_version:
                raise
            self._registry.validator(current).validate(payload)
            return current
        return active

    # ------------------------------------------------------------------ review / follow-up
    def request_clarification(
        self,
        *,
        case_id: str,
        question: str | None,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        if question is None or not question.strip():
            raise QuestionRequired("a clarification needs a question")
        args = {
            "case_id": case_id,
            "question": question,
            "notes": notes,
            "actor": actor,
            "request_id": request_id,
        }
        intent = self._accept(args, "request_clarification", default_kind="agent")
        clean_question = self._redact(question)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return decisions.request_clarification(
                snap, stamp, intent=intent, question=clean_question, policy=self._decision_policy
            )

        return self._run(intent, decide, seen).event

    def provide_clarification(
        self,
        *,
        case_id: str,
        answer: str | None,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        if answer is None or not answer.strip():
            raise AnswerRequired("a clarification needs an answer")
        args = {
            "case_id": case_id,
            "answer": answer,
            "notes": notes,
            "actor": actor,
            "request_id": request_id,
        }
        intent = self._accept(args, "provide_clarification", default_kind="agent")
        clean_answer = self._redact(answer)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return decisions.provide_clarification(snap, stamp, intent=intent, answer=clean_answer)

        return self._run(intent, decide, seen).event

    def record_decision(
        self,
        *,
        case_id: str,
        decision: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Event:
        """Approve or reject outright (no approver policy). `seen`: the case as read earlier in the
        same request (get_record); the write is still decided and guarded on the live case."""
        args = {
            "case_id": case_id,
            "decision": decision,
            "notes": notes,
            "actor": actor,
            "request_id": request_id,
        }
        if decision == "approved":
            # Every approval goes through the approver policy (required approvers, no self-approval).
            return self.approve(
                case_id=case_id, notes=notes, actor=actor, request_id=request_id, seen=seen
            ).event
        return self._reject(args, verdict=Verdict("reject"), seen=seen)

    def decide(
        self,
        *,
        case_id: str,
        decision: str,
        feedback: str = "",
        answers: Any = None,
        payload: dict[str, Any] | None = None,
        actor: dict[str, Any],
        request_id: str,
        seen: CaseRecord | None = None,
    ) -> Approval | Event:
        """A reviewer's structured decision `{decision, feedback, answers}` (decision: approve, edit,
        reject, respond), limited to the case's allowed decisions:
            approve   the payload as submitted (the approver policy applies)   -> approved
            edit      an edited `payload`, which must differ and be valid       -> approved
            reject    `feedback` is the reason (required)                       -> rejected
            respond   `feedback` and/or `answers` go back to the submitter; what the case asked for
                      does not run                                             -> rejected
        `feedback` and `answers` are recorded on the event. Returns the Approval for approve/edit."""
        if decision not in STRUCTURED_DECISIONS:
            raise EnvelopeInvalid(
                [
                    {
                        "path": "$.decision",
                        "message": f"decision must be one of {', '.join(STRUCTURED_DECISIONS)}",
                    }
                ]
            )
        verdict = Verdict(decision, feedback or None, answers)  # type: ignore[arg-type]
        if decision in ("approve", "edit"):
            if decision == "edit" and payload is None:
                raise EnvelopeInvalid([{"path": "$.payload", "message": "an edit needs the edited payload"}])
            if decision == "approve" and payload is not None:
                raise EnvelopeInvalid(
                    [{"path": "$.payload", "message": "approve takes no payload; use edit to change it"}]
                )
            return self.approve(
                case_id=case_id,
                notes=feedback,
                actor=actor,
                request_id=request_id,
                edited_payload=payload,
                seen=seen,
                verdict=verdict,
            )
        if payload is not None:
            raise EnvelopeInvalid([{"path": "$.payload", "message": f"{decision} takes no payload"}])
        if decision == "reject" and not feedback.strip():
            raise EnvelopeInvalid([{"path": "$.feedback", "message": "a rejection needs a reason"}])
        if decision == "respond" and not feedback.strip() and not answers:
            raise EnvelopeInvalid([{"path": "$.feedback", "message": "a response needs feedback or answers"}])
        args = {
            "case_id": case_id,
            "decision": "rejected",
            "structured_decision": decision,
            "feedback": feedback,
            "notes": feedback,
            "actor": actor,
            "request_id": request_id,
        }
        if answers is not None:
            args["answers"] = answers
        return self._reject(args, verdict=verdict, seen=seen)

    def _reject(self, args: dict[str, Any], *, verdict: Verdict, seen: CaseRecord | None) -> Event:
        """End the case `rejected` (a rejection or a response), within its allowed decisions."""
        intent = self._accept(args, "record_decision", default_kind="operator")
        wanted = verdict.decision or "reject"

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            # Decided on the case as the store's write reads it: the allowed decisions first.
            allowed = self._decision_policy(snap.case).allowed_for(snap.case.payload)
            if wanted not in allowed:
                raise DecisionNotAllowed(snap.case.case_id, wanted, allowed)
            return decisions.record_decision(snap, stamp, intent=intent, outcome="rejected", verdict=verdict)

        return self._run(intent, decide, seen).event

    def allowed_decisions(self, record: CaseRecord) -> tuple[str, ...]:
        """The structured decisions a reviewer may take on this case."""
        return self._policy(record.case).allowed_for(record.case.payload)

    def _check_allowed(self, record: CaseRecord, decision: str) -> None:
        allowed = self.allowed_decisions(record)
        if decision not in allowed:
            raise DecisionNotAllowed(record.case.case_id, decision, allowed)

    def record_approval(
        self,
        *,
        case_id: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        edited_payload: dict[str, Any] | None = None,
    ) -> Event:
        """An operator approves; see `approve`."""
        return self.approve(
            case_id=case_id, notes=notes, actor=actor, request_id=request_id, edited_payload=edited_payload
        ).event

    def approve(
        self,
        *,
        case_id: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        edited_payload: dict[str, Any] | None = None,
        seen: CaseRecord | None = None,
        verdict: Verdict | None = None,
    ) -> Approval:
        """An operator approves, optionally with an edited payload (validated against the adapter's
        active schema). The adapter's `x-hitl.required_approvers` (default 1) distinct principals must
        approve the same payload: until then each approval is an `approval_vote` event and the case
        stays open; the approval that completes the count is the `decision_recorded` (approved) event,
        carrying `approved_payload` when edited. The same principal twice is DUPLICATE_APPROVER and
        writes nothing. A rejection (record_decision) ends the case whatever the votes.

        Returns the event and where the case stands on the policy right after it. `seen`: the case
        as read earlier in the same request (get_record); the write is still decided and guarded on
        the live case. The active schema is read once and serves the payload, the edit and the policy."""
        args = {"case_id": case_id, "notes": notes, "actor": actor, "request_id": request_id}
        intent = self._accept(
            args,
            "record_approval",
            default_kind="operator",
            hashed={**args, "edited_payload": edited_payload},
        )
        if intent.actor.kind != "operator":
            raise EnvelopeInvalid([{"path": "$.actor.kind", "message": "only an operator approves"}])
        decided: list[tuple[int, list[Event]]] = []  # the policy's count and the votes the decision read

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            # Everything is decided on the case as the store's write reads it (SQLite: under the write
            # lock; DynamoDB: guarded by the case's version and the active schema's), so a stale read
            # can never win: the payload as the active schema reads it, the edit, the policy, the votes.
            case = snap.case
            active = self._store.decision_schema(case.adapter_id)
            view = self._queries.view(CaseRecord(case, snap.state), active, refs=False)
            edited = None if edited_payload is None else self._checked_edit(view, active, edited_payload)
            policy = self._registry.policy_of(active, case.adapter_id, case.schema_version)
            allowed = policy.allowed_for(case.payload)
            chosen = verdict or Verdict("approve" if edited is None else "edit")
            if chosen.decision == "edit" and edited is None:
                raise DecisionNotAllowed(
                    case_id, "edit", allowed, "the edit changes nothing; approve instead"
                )
            if chosen.decision not in allowed:
                raise DecisionNotAllowed(case_id, chosen.decision or "approve", allowed)

            def events() -> list[Event]:
                # The votes as read with the case, else the history read now (inside the store's write).
                votes = list(snap.votes) if snap.votes is not None else self._store.list_events(case_id)
                decided[:] = [(policy.required_approvers, votes)]
                return votes

            return decisions.approve(
                snap,
                stamp,
                intent=intent,
                payload=view.payload,
                edited=edited,
                required=policy.required_approvers,
                events=events,
                verdict=chosen,
                payload_hash=case.payload_hash_sha256
                if view.read_as_schema_version == case.schema_version
                else None,
            )

        recorded = self._run(intent, decide, seen)
        if recorded.replayed or not decided:
            # An earlier request's event: where the case stands now, as approval_status reads it.
            return Approval(recorded.event, self._replay_status(recorded, seen))
        # Written now, on the votes this decision read (unchanged since: the write was guarded).
        required, read = decided[0]
        votes = [e for e in read if e.event_type == "approval_vote"]
        if recorded.event.event_type == "approval_vote":
            votes.append(recorded.event)
        return Approval(recorded.event, ApprovalStatus(required, votes))

    def _replay_status(self, recorded: Recorded, seen: CaseRecord | None) -> ApprovalStatus:
        """Where a case stands after a replayed approval: from what the store read with the earlier
        event when it could, else read now."""
        case = recorded.case
        if case is None:
            case = self._queries.record(recorded.event.case_id, seen).case
        active = self._store.decision_schema(case.adapter_id)
        if recorded.votes is not None:
            required = self._registry.policy_of(
                active, case.adapter_id, case.schema_version
            ).required_approvers
            return ApprovalStatus(required, list(recorded.votes))
        return self._queries.status(case, active, self._store.list_events(case.case_id))

    # ------------------------------------------------------------------ escalation
    def escalate(self, state: CaseState, now_ms: int) -> Event | None:
        """Append an escalation event to one due case; None when it is no longer due (a racing sweep or
        an operator got there first). Idempotent per (case, due time)."""
        due = state.escalation_due_at_ms
        if due is None:
            return None
        intent = decisions.escalation_intent(state.case_id, due)

        def decide(snap: CaseSnapshot, stamp: Stamp) -> Transition:
            return decisions.escalate(
                snap, stamp, intent=intent, due=due, policy=self._decision_policy, redact=self._redact
            )

        try:
            recorded = self._run(intent, decide, clock=lambda: now_ms)
        except EscalationNotDue:
            return None
        return None if recorded.replayed else recorded.event

    # ------------------------------------------------------------------ the pipeline
    def _accept(
        self, args: dict[str, Any], action: str, *, default_kind: str, hashed: dict[str, Any] | None = None
    ) -> Intent:
        """The prologue: `args` checked against the action envelope, the actor, the intent's hash
        (of `hashed` when the intent carries more than the envelope), the notes redacted."""
        details = check_action(args)
        if details:
            raise EnvelopeInvalid(details)
        return Intent(
            case_id=args["case_id"],
            actor=decisions.principal_of(args["actor"], default_kind),
            notes=self._redact(args["notes"]),
            request_id=args["request_id"],
            request_hash=decisions.intent_hash(args if hashed is None else hashed, action),
        )

    def _run(
        self, intent: Intent, decide: Decide, seen: CaseRecord | None = None, *, clock: Clock | None = None
    ) -> Recorded:
        """Decide on the case snapshot and append, as one atomic step of the store; then notify.
        `seen`: the case as read earlier in the same request (the store still guards the write on
        the live case). `clock`: the time the decision is taken at, when not the service's."""
        case_id = intent.case_id
        tick = self._clock if clock is None else clock
        if seen is not None and seen.case.case_id != case_id:
            seen = None

        envelope: list[Case] = [] if seen is None else [seen.case]

        def attempt(snap: CaseSnapshot) -> Transition:
            envelope[:] = [snap.case]
            return decide(snap, Stamp(f"HEV-{self._new_id()}", tick()))

        try:
            recorded = self._store.append(case_id, intent.request_id, attempt, seen=seen)
        except AlreadyTerminal as exc:
            # The first terminal decision wins: answer with its full event (who, what, when), as
            # read with the case when the store could, else read now.
            if "actor" in exc.existing:
                raise
            winner = next(
                (e for e in self._store.list_events(case_id) if e.event_id == exc.existing["event_id"]), None
            )
            if winner is None:
                raise
            raise AlreadyTerminal(case_id, decisions.decision_summary(winner)) from exc
        if recorded.replayed and recorded.event.request_hash != intent.request_hash:
            raise IdempotencyConflict(intent.request_id)
        if recorded.case is not None:
            envelope[:] = [recorded.case]
        self._notify(recorded.event, envelope[0] if envelope else None)
        return recorded

    def _notify(self, event: Event, case: Case | None = None) -> None:
        """`case`: the envelope as read earlier in the request (an append never changes it)."""
        if not self._listeners:
            return
        if case is None:
            record = self._store.get_case(event.case_id)
            if record is None:  # the event was just written, so its case exists
                raise CaseNotFound(event.case_id)
            case = record.case
        for listener in self._listeners:
            listener.on_event(case, event)

    def _policy(self, case: Case) -> schemas.AdapterPolicy:
        return self._registry.policy(case.adapter_id, case.schema_version)

    def _decision_policy(self, case: Case) -> schemas.AdapterPolicy:
        """The policy a command decides on inside the store's write (see `CaseStore.decision_schema`)."""
        return self._registry.policy_of(
            self._store.decision_schema(case.adapter_id), case.adapter_id, case.schema_version
        )

    def _checked_edit(
        self, view: CaseView, active: SchemaRecord | None, edited_payload: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The edited payload, redacted and valid for the adapter's active schema; None when the edit
        changes nothing."""
        if not isinstance(edited_payload, dict):
            raise PayloadInvalid([{"path": "$.payload", "message": "the edited payload must be an object"}])
        size = len(canonical_json(edited_payload).encode("utf-8"))
        if size > MAX_PAYLOAD_BYTES:
            raise PayloadInvalid(
                [
                    {
                        "path": "$.payload",
                        "message": f"payload is {size} bytes; the limit is {MAX_PAYLOAD_BYTES}",
                    }
                ]
            )
        if active is None:
            raise AdapterNotFound(view.record.case.adapter_id)
        clean = redact_tree(edited_payload, self._redact)
        self._registry.validator(active).validate(clean)
        return None if canonical_json(clean) == canonical_json(view.payload) else clean
