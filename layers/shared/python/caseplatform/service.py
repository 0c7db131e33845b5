"""The case service: every command and query of the platform, over a `CaseStore` and a clock.

Commands validate the envelope and the adapter payload, apply the redaction hook, then let the
store write the event and the projection atomically (the transition itself is decided inside the
store's transaction, on the snapshot it read). Domain errors are raised; `answers` maps them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

from jsonschema import Draft202012Validator

from caseplatform import schemas, statemachine
from caseplatform.errors import (
    AdapterNotFound,
    AlreadyTerminal,
    AnswerRequired,
    CaseNotFound,
    DuplicateApprover,
    EnvelopeInvalid,
    EscalationNotDue,
    IdempotencyConflict,
    InvalidStateTransition,
    PayloadInvalid,
    QuestionRequired,
    SchemaInvalid,
    SchemaVersionNotFound,
)
from caseplatform.model import (
    OPEN_STATES,
    PRIORITY_RANK,
    TERMINAL_STATES,
    Case,
    CaseRecord,
    CaseState,
    Decision,
    Event,
    EventType,
    NewCase,
    Page,
    Principal,
    Recorded,
    Ref,
    SchemaRecord,
    canonical_json,
    sha256_hex,
)
from caseplatform.ports import CaseListener, CaseSnapshot, CaseStore, Clock, Transition, system_clock
from caseplatform.redaction import Redactor, no_redaction, redact_tree
from caseplatform.validation import (
    MAX_PAYLOAD_BYTES,
    MAX_SCHEMA_BYTES,
    SUBMIT_SCHEMA,
    check_action,
    check_submit,
    error_details,
)

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
SYSTEM_ACTOR = Principal(kind="system", name="hitl-escalation-sweep", role="system", id="system:escalation")


@dataclass(frozen=True)
class CaseView:
    """A case as read: the payload interpreted as the adapter's active schema version (read-time upcast)."""

    record: CaseRecord
    refs: list[Ref]
    payload: dict[str, Any]
    read_as_schema_version: int


@dataclass(frozen=True)
class ApprovalStatus:
    """Where a case stands on its adapter's multi-approver policy: the approvals needed and the votes
    recorded so far (each `approval_vote` event, oldest first)."""

    required_approvers: int
    votes: list[Event]


@dataclass(frozen=True)
class Approval:
    """An approval as recorded: its event (a vote or the completing decision) and where the case
    stands on the approver policy right after it."""

    event: Event
    status: ApprovalStatus


@dataclass(frozen=True)
class CaseDetail:
    """A case as read with its history and its standing on the approver policy, from one read each."""

    view: CaseView
    history: list[Event]
    status: ApprovalStatus


@dataclass(frozen=True)
class DriftReport:
    live_hash: str
    recomputed_hash: str
    drifted_case_ids: list[str]
    cases: int

    @property
    def drifted(self) -> bool:
        return self.live_hash != self.recomputed_hash


@dataclass(frozen=True)
class Bucket:
    start_ms: int
    submitted: int
    approved: int
    rejected: int

    @property
    def decided(self) -> int:
        return self.approved + self.rejected

    @property
    def approval_rate(self) -> float | None:
        return None if self.decided == 0 else self.approved / self.decided


def projection_hash(states: list[CaseState]) -> str:
    rows = sorted((s.to_dict() for s in states), key=lambda row: str(row["case_id"]))
    return sha256_hex(canonical_json(rows))


def clamp_limit(limit: int | None) -> int:
    return DEFAULT_LIMIT if limit is None else max(1, min(MAX_LIMIT, int(limit)))


class CaseService:
    def __init__(
        self,
        store: CaseStore,
        *,
        clock: Clock = system_clock,
        redactor: Redactor = no_redaction,
        new_id: Callable[[], str] = lambda: str(uuid4()),
        listeners: Sequence[CaseListener] = (),
    ) -> None:
        self.store = store
        self._clock = clock
        self._redact = redactor
        self._new_id = new_id
        self._listeners = tuple(listeners)
        # Schema documents by adapter and version. A registered version never changes (put_schema
        # refuses a different document under an existing version), so they are kept for the life of
        # the service; which version is active can change from any process and is always read.
        self._documents: dict[str, dict[int, dict[str, Any]]] = {}

    def clock(self) -> int:
        return self._clock()

    # ------------------------------------------------------------------ adapter schema registry
    def register_adapter_schema(self, adapter_id: str, schema_version: int, schema_json: Any) -> SchemaRecord:
        details = _check_adapter_id(adapter_id)
        if not isinstance(schema_version, int) or isinstance(schema_version, bool) or schema_version < 1:
            details.append({"path": "$.schema_version", "message": "schema_version must be an integer >= 1"})
        if details:
            raise EnvelopeInvalid(details)
        schema = schema_json
        if isinstance(schema_json, str):
            if len(schema_json.encode("utf-8")) > MAX_SCHEMA_BYTES:
                raise SchemaInvalid(
                    [{"path": "$", "message": f"schema is larger than {MAX_SCHEMA_BYTES} bytes"}]
                )
            schema = _parse_json(schema_json)
        problems = schemas.check_schema_document(schema)
        if problems:
            raise SchemaInvalid(problems)
        self._documents.pop(adapter_id, None)
        return self.store.put_schema(
            SchemaRecord(adapter_id, schema_version, schema, is_active=False, updated_at_ms=self._clock())
        )

    def activate_adapter_schema(
        self, adapter_id: str, schema_version: int
    ) -> tuple[SchemaRecord, int | None]:
        previous = self.store.activate_schema(adapter_id, schema_version, self._clock())
        self._documents.pop(adapter_id, None)
        record = self.store.get_schema(adapter_id, schema_version)
        if record is None:  # activate_schema checked it; a concurrent writer cannot delete versions
            raise SchemaVersionNotFound(adapter_id, schema_version)
        return record, previous

    def ensure_default_adapters(self) -> list[str]:
        """Register and activate version 1 of each built-in adapter that has no active schema yet."""
        added = []
        for adapter_id, schema in sorted(schemas.default_adapter_schemas().items()):
            if self.store.active_schema(adapter_id) is None:
                if self.store.get_schema(adapter_id, 1) is None:
                    self.register_adapter_schema(adapter_id, 1, schema)
                self.store.activate_schema(adapter_id, 1, self._clock())
                added.append(adapter_id)
        return added

    def _policy(self, adapter_id: str, fallback_version: int) -> schemas.AdapterPolicy:
        return self._policy_of(self.store.active_schema(adapter_id), adapter_id, fallback_version)

    def _policy_of(
        self, active: SchemaRecord | None, adapter_id: str, fallback_version: int
    ) -> schemas.AdapterPolicy:
        """The policy of the active schema (as read by the caller), else of the case's own version."""
        if active is not None:
            return schemas.policy_of(active.schema)
        return schemas.policy_of(
            self._documents_of(adapter_id, (fallback_version,)).get(fallback_version, {})
        )

    def _documents_of(self, adapter_id: str, needed: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The adapter's schema documents by version, read from the store only when one of `needed`
        is not known yet (a version missing from the store is read again next time)."""
        known = self._documents.get(adapter_id)
        if known is None or any(version not in known for version in needed):
            known = {r.schema_version: r.schema for r in self.store.list_schemas(adapter_id)}
            self._documents[adapter_id] = known
        return known

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
        details = check_submit(arguments)
        if details:
            payload_details = [d for d in details if d["path"].startswith("$.payload")]
            if payload_details == details:
                raise PayloadInvalid(details)
            raise EnvelopeInvalid(details)
        request_hash = _intent_hash(arguments, "submit_case")
        active = self.store.active_schema(adapter_id)
        if active is None:
            raise AdapterNotFound(adapter_id)
        clean_payload = redact_tree(payload, self._redact)
        schemas.validate_payload(active.schema, clean_payload)
        now = self._clock()
        case_id = f"HITL-{self._new_id()}"
        person = Principal(
            kind="agent",
            name=submitter["name"],
            role=submitter["role"],
            id=submitter.get("id"),
            team=submitter.get("team"),
        )
        case = Case(
            case_id=case_id,
            schema_version=active.schema_version,
            adapter_id=adapter_id,
            case_type=case_type,
            title=self._redact(title),
            summary=self._redact(summary),
            payload=clean_payload,
            payload_hash_sha256=sha256_hex(canonical_json(clean_payload)),
            submitter=person,
            priority=priority,  # type: ignore[arg-type]  # checked by check_submit
            confidence=confidence,  # type: ignore[arg-type]
            created_at_ms=now,
            updated_at_ms=now,
        )
        event = Event(
            event_id=f"HEV-{self._new_id()}",
            case_id=case_id,
            event_type="submitted",
            notes="",
            actor=person,
            created_at_ms=now,
            state_after="pending",
            request_id=request_id,
            request_hash=request_hash,
        )
        unique_refs = tuple(
            dict.fromkeys(Ref(r["ref_type"], r["ref_key"], r["ref_value"]) for r in refs or [])
        )
        recorded = self.store.create_case(NewCase(case, event, statemachine.apply(None, event), unique_refs))
        if recorded.replayed:
            if recorded.event.request_hash != request_hash:
                raise IdempotencyConflict(request_id)
            stored = self.store.get_case(recorded.event.case_id)
            if stored is None:  # the store returned its event, so the envelope exists
                raise CaseNotFound(recorded.event.case_id)
            return recorded.event, stored.case
        return recorded.event, case

    def get_case(self, case_id: str, *, seen: CaseRecord | None = None) -> CaseView:
        """The case read as its adapter's active schema version. `seen`: the case as read earlier in
        the same request (get_record), not read again."""
        record = self._record(case_id, seen)
        return self._view(record, self.store.active_schema(record.case.adapter_id), refs=True)

    def get_record(self, case_id: str) -> CaseRecord:
        """The case and its projection as stored (no payload upcast, no refs); raises CaseNotFound."""
        record = self.store.get_case(case_id)
        if record is None:
            raise CaseNotFound(case_id)
        return record

    def get_case_detail(self, case_id: str, *, seen: CaseRecord | None = None) -> CaseDetail:
        """get_case, get_case_history and approval_status of one case, reading each thing once."""
        record = self._record(case_id, seen)
        active = self.store.active_schema(record.case.adapter_id)
        view = self._view(record, active, refs=True)
        history = self.store.list_events(case_id)
        return CaseDetail(view, history, self._status(record.case, active, history))

    def _record(self, case_id: str, seen: CaseRecord | None) -> CaseRecord:
        return seen if seen is not None and seen.case.case_id == case_id else self.get_record(case_id)

    def _view(self, record: CaseRecord, active: SchemaRecord | None, *, refs: bool) -> CaseView:
        case = record.case
        read_as = max(case.schema_version, active.schema_version if active else 0)
        payload = case.payload
        if read_as > case.schema_version:
            versions = self._documents_of(case.adapter_id, range(case.schema_version + 1, read_as + 1))
            payload = schemas.upcast(case.payload, case.schema_version, versions, read_as)
        else:
            payload = dict(payload)
        return CaseView(record, self.store.list_refs(case.case_id) if refs else [], payload, read_as)

    def get_case_history(self, case_id: str) -> list[Event]:
        if self.store.get_case(case_id) is None:
            raise CaseNotFound(case_id)
        return self.store.list_events(case_id)

    def list_cases(
        self,
        *,
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[CaseRecord]:
        return self.store.list_cases(
            state=state, adapter_id=adapter_id, priority=priority, limit=clamp_limit(limit), cursor=cursor
        )

    def list_review_queue(
        self,
        *,
        adapter_id: str | None = None,
        priority: str | None = None,
        state: str | None = None,
        limit: int | None = None,
    ) -> list[CaseRecord]:
        """Open cases most urgent first: priority (critical first), then oldest first."""
        states = (state,) if state else OPEN_STATES
        found: list[CaseRecord] = []
        for name in states:
            found.extend(self._all_cases(state=name, adapter_id=adapter_id, priority=priority))
        found.sort(key=lambda r: (PRIORITY_RANK[r.case.priority], r.case.created_at_ms, r.case.case_id))
        return found[: clamp_limit(limit)]

    def _all_cases(self, **filters: str | None) -> Iterator[CaseRecord]:
        cursor: str | None = None
        while True:
            page = self.store.list_cases(limit=MAX_LIMIT, cursor=cursor, **filters)
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

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
        person = self._check_action(args, default_kind="agent")
        request_hash = _intent_hash(args, "request_clarification")
        clean_question = self._redact(question)

        def decide(snap: CaseSnapshot) -> Transition:
            current = snap.state.current_state
            target = statemachine.target_state(current, "request_clarification")
            if current == "needs_clarification" and snap.open_question == clean_question:
                raise InvalidStateTransition(from_state=current, requested_action="request_clarification")
            now = self._now(snap)
            due = None
            if current == "pending":
                due = self._policy(snap.case.adapter_id, snap.case.schema_version).due_at(now)
            return self._transition(
                snap,
                "needs_clarification",
                target,
                now,
                person,
                notes,
                (request_id, request_hash),
                question=clean_question,
                escalation_due_at_ms=due,
            )

        return self._append(case_id, request_id, request_hash, decide, seen).event

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
        person = self._check_action(args, default_kind="agent")
        request_hash = _intent_hash(args, "provide_clarification")
        clean_answer = self._redact(answer)

        def decide(snap: CaseSnapshot) -> Transition:
            target = statemachine.target_state(snap.state.current_state, "provide_clarification")
            return self._transition(
                snap,
                "clarification_provided",
                target,
                self._now(snap),
                person,
                notes,
                (request_id, request_hash),
                answer=clean_answer,
            )

        return self._append(case_id, request_id, request_hash, decide, seen).event

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
        person = self._check_action(args, default_kind="operator")
        request_hash = _intent_hash(args, "record_decision")
        outcome: Decision = "approved" if decision == "approved" else "rejected"

        def decide(snap: CaseSnapshot) -> Transition:
            state = snap.state
            _refuse_terminal(state)
            target = statemachine.target_state(state.current_state, "record_decision", outcome)
            return self._transition(
                snap,
                "decision_recorded",
                target,
                self._now(snap),
                person,
                notes,
                (request_id, request_hash),
                decision_outcome=outcome,
            )

        return self._append_decision(case_id, request_id, request_hash, decide, seen).event

    def _append_decision(
        self,
        case_id: str,
        request_id: str,
        request_hash: str,
        decide: Callable[[CaseSnapshot], Transition],
        seen: CaseRecord | None = None,
    ) -> Recorded:
        try:
            return self._append(case_id, request_id, request_hash, decide, seen)
        except AlreadyTerminal as exc:
            # The first terminal decision wins: answer with its full event (who, what, when).
            winner = next(
                (e for e in self.store.list_events(case_id) if e.event_id == exc.existing["event_id"]), None
            )
            if winner is None:
                raise
            raise AlreadyTerminal(case_id, _decision_summary(winner)) from exc

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
        person = self._check_action(args, default_kind="operator")
        if person.kind != "operator":
            raise EnvelopeInvalid([{"path": "$.actor.kind", "message": "only an operator approves"}])
        record = self._record(case_id, seen)
        active = self.store.active_schema(record.case.adapter_id)
        view = self._view(record, active, refs=False)
        edited = None
        if edited_payload is not None:
            edited = self._checked_edit(view, active, edited_payload)
        approved_hash = sha256_hex(canonical_json(view.payload if edited is None else edited))
        request_hash = _intent_hash({**args, "edited_payload": edited_payload}, "record_approval")
        # The envelope (adapter, schema version) never changes, so neither does the policy read here.
        required = self._policy_of(
            active, record.case.adapter_id, record.case.schema_version
        ).required_approvers
        read: list[list[Event]] = []  # the events the last decide read

        def approved_hash_of(vote: Event) -> str:
            return sha256_hex(canonical_json(vote.approved_payload or view.payload))

        def decide(snap: CaseSnapshot) -> Transition:
            state = snap.state
            _refuse_terminal(state)
            # Read inside the store's write: SQLite holds the write lock; on DynamoDB a vote written
            # meanwhile bumps the case version, the transaction is cancelled and this runs again.
            events = self.store.list_events(case_id)
            read[:] = [events]
            voters = {
                vote.actor.principal
                for vote in events
                if vote.event_type == "approval_vote" and approved_hash_of(vote) == approved_hash
            }
            if person.principal in voters:
                raise DuplicateApprover(case_id, person.principal, len(voters), required)
            now = self._now(snap)
            request = (request_id, request_hash)
            if len(voters) + 1 >= required:
                target = statemachine.target_state(state.current_state, "record_decision", "approved")
                return self._transition(
                    snap,
                    "decision_recorded",
                    target,
                    now,
                    person,
                    notes,
                    request,
                    decision_outcome="approved",
                    approved_payload=edited,
                )
            target = statemachine.target_state(state.current_state, "record_approval_vote")
            return self._transition(
                snap, "approval_vote", target, now, person, notes, request, approved_payload=edited
            )

        recorded = self._append_decision(case_id, request_id, request_hash, decide, record)
        if recorded.replayed or not read:
            # An earlier request's event: where the case stands now, read as approval_status does.
            return Approval(
                recorded.event, self._status(record.case, active, self.store.list_events(case_id))
            )
        # Written now, on the events this decide read (unchanged since: the write was guarded).
        votes = [e for e in read[0] if e.event_type == "approval_vote"]
        if recorded.event.event_type == "approval_vote":
            votes.append(recorded.event)
        return Approval(recorded.event, ApprovalStatus(required, votes))

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
        schemas.validate_payload(active.schema, clean)
        return None if canonical_json(clean) == canonical_json(view.payload) else clean

    def approval_status(self, case_id: str, *, seen: CaseRecord | None = None) -> ApprovalStatus:
        """`seen`: the case as read earlier in the same request; only its envelope (adapter and
        schema version, which never change) is used, the votes are read now."""
        record = self._record(case_id, seen)
        active = self.store.active_schema(record.case.adapter_id)
        return self._status(record.case, active, self.store.list_events(case_id))

    def _status(self, case: Case, active: SchemaRecord | None, events: list[Event]) -> ApprovalStatus:
        policy = self._policy_of(active, case.adapter_id, case.schema_version)
        return ApprovalStatus(
            policy.required_approvers, [e for e in events if e.event_type == "approval_vote"]
        )

    # ------------------------------------------------------------------ escalation
    def escalate(self, state: CaseState, now_ms: int) -> Event | None:
        """Append an escalation event to one due case; None when it is no longer due (a racing sweep or
        an operator got there first). Idempotent per (case, due time)."""
        due = state.escalation_due_at_ms
        if due is None:
            return None
        request_id = f"escalation:{due}"
        request_hash = _intent_hash({"case_id": state.case_id, "escalation_due_at_ms": due}, "escalate")

        def decide(snap: CaseSnapshot) -> Transition:
            live = snap.state
            if (
                live.current_state != "needs_clarification"
                or live.escalation_due_at_ms != due
                or due > now_ms
            ):
                raise EscalationNotDue(state.case_id)
            target = statemachine.target_state(live.current_state, "escalate")
            now = max(now_ms, live.updated_at_ms)
            policy = self._policy(snap.case.adapter_id, snap.case.schema_version)
            return self._transition(
                snap,
                "escalated",
                target,
                now,
                SYSTEM_ACTOR,
                f"needs_clarification past its SLA (due {due}); escalated to {policy.escalation_target}",
                (request_id, request_hash),
                escalation_due_at_ms=policy.next_escalation_at(now),
                escalation_target=policy.escalation_target,
            )

        try:
            recorded = self._append(state.case_id, request_id, request_hash, decide)
        except EscalationNotDue:
            return None
        return None if recorded.replayed else recorded.event

    # ------------------------------------------------------------------ internals of commands
    def _check_action(self, args: dict[str, Any], default_kind: str) -> Principal:
        details = check_action(args)
        if details:
            raise EnvelopeInvalid(details)
        actor = args["actor"]
        return Principal(
            kind=actor.get("kind", default_kind),
            name=actor["name"],
            role=actor["role"],
            id=actor.get("id"),
            team=actor.get("team"),
        )

    def _now(self, snap: CaseSnapshot) -> int:
        # Events of a case never go back in time, so append order and time order agree.
        return max(self._clock(), snap.state.updated_at_ms)

    def _transition(
        self,
        snap: CaseSnapshot,
        event_type: EventType,
        target: Any,
        now: int,
        actor: Principal,
        notes: str,
        request: tuple[str, str],
        **fields: Any,
    ) -> Transition:
        event = Event(
            event_id=f"HEV-{self._new_id()}",
            case_id=snap.case.case_id,
            event_type=event_type,
            notes=self._redact(notes),
            actor=actor,
            created_at_ms=now,
            state_after=target,
            request_id=request[0],
            request_hash=request[1],
            **fields,
        )
        return Transition(event, statemachine.apply(snap.state, event))

    def _append(
        self,
        case_id: str,
        request_id: str,
        request_hash: str,
        decide: Callable[[CaseSnapshot], Transition],
        seen: CaseRecord | None = None,
    ) -> Recorded:
        if seen is not None and seen.case.case_id != case_id:
            seen = None
        recorded = self.store.append(case_id, request_id, decide, seen=seen)
        if recorded.replayed and recorded.event.request_hash != request_hash:
            raise IdempotencyConflict(request_id)
        self._notify(recorded.event, None if seen is None else seen.case)
        return recorded

    def _notify(self, event: Event, case: Case | None = None) -> None:
        """`case`: the envelope as read earlier in the request (an append never changes it)."""
        if not self._listeners:
            return
        if case is None:
            record = self.store.get_case(event.case_id)
            if record is None:  # the event was just written, so its case exists
                raise CaseNotFound(event.case_id)
            case = record.case
        for listener in self._listeners:
            listener.on_event(case, event)

    # ------------------------------------------------------------------ the minimum queries
    def list_reviewed(
        self,
        *,
        decision: Decision | None = None,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[tuple[Event, CaseRecord]]:
        """Reviewed cases by terminal decision and decision date range, newest decision first."""
        page = self.store.list_events_by_type(
            "decision_recorded",
            from_ms=from_ms,
            to_ms=self._until(to_ms),
            decision=decision,
            limit=clamp_limit(limit),
            cursor=cursor,
        )
        items = []
        for event in page.items:
            record = self.store.get_case(event.case_id)
            if record is not None:
                items.append((event, record))
        return Page(items, page.next_cursor)

    def list_by_principal(
        self,
        principal: str,
        *,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Event]:
        """Everything an operator or agent did (by principal id, else display name) in a date range."""
        return self.store.list_events_by_principal(
            principal, from_ms=from_ms, to_ms=self._until(to_ms), limit=clamp_limit(limit), cursor=cursor
        )

    def audit_decisions(
        self,
        *,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Event]:
        """Who decided what and when: decision events with their actors, newest first."""
        return self.store.list_events_by_type(
            "decision_recorded",
            from_ms=from_ms,
            to_ms=self._until(to_ms),
            limit=clamp_limit(limit),
            cursor=cursor,
        )

    def cases_by_ref(
        self,
        ref_type: str,
        ref_key: str,
        ref_value: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[str]:
        return self.store.cases_by_ref(
            Ref(ref_type, ref_key, ref_value), limit=clamp_limit(limit), cursor=cursor
        )

    def cases_by_payload_field(
        self, adapter_id: str, field: str, value: Any, *, limit: int | None = None
    ) -> list[CaseRecord]:
        """Cases of an adapter whose payload (read as the active version) has `field` == `value`.
        `field` is a dotted path. Reads the adapter's cases page by page (no payload index)."""
        wanted = clamp_limit(limit)
        found = []
        for record in self._all_cases(adapter_id=adapter_id):
            if _lookup(self.get_case(record.case.case_id).payload, field) == value:
                found.append(record)
                if len(found) >= wanted:
                    break
        return found

    def decision_stats(self, *, from_ms: int, to_ms: int, bucket_ms: int = 24 * 3600 * 1000) -> list[Bucket]:
        """Throughput (submitted, decided) and approval/rejection counts per time bucket."""
        if bucket_ms <= 0 or to_ms <= from_ms:
            return []
        count = (to_ms - from_ms + bucket_ms - 1) // bucket_ms
        submitted = [0] * count
        approved = [0] * count
        rejected = [0] * count
        for event in self._all_events("submitted", from_ms, to_ms):
            submitted[(event.created_at_ms - from_ms) // bucket_ms] += 1
        for event in self._all_events("decision_recorded", from_ms, to_ms):
            index = (event.created_at_ms - from_ms) // bucket_ms
            if event.decision_outcome == "approved":
                approved[index] += 1
            else:
                rejected[index] += 1
        return [Bucket(from_ms + i * bucket_ms, submitted[i], approved[i], rejected[i]) for i in range(count)]

    def _all_events(self, event_type: EventType, from_ms: int, to_ms: int) -> Iterator[Event]:
        cursor: str | None = None
        while True:
            page = self.store.list_events_by_type(
                event_type, from_ms=from_ms, to_ms=to_ms, limit=MAX_LIMIT, cursor=cursor
            )
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def clarification_backlog(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[tuple[CaseRecord, int]]:
        """needs_clarification cases with their age (ms since the clarification was first asked)."""
        now = self._clock()
        page = self.list_cases(state="needs_clarification", limit=limit, cursor=cursor)
        return Page(
            [(r, now - (r.state.needs_clarification_since_ms or r.state.updated_at_ms)) for r in page.items],
            page.next_cursor,
        )

    def escalations_due(
        self, *, within_ms: int = 0, limit: int | None = None, cursor: str | None = None
    ) -> Page[CaseState]:
        """Cases whose escalation is overdue (due <= now) or due within `within_ms`."""
        return self.store.escalation_due(self._clock() + within_ms, limit=clamp_limit(limit), cursor=cursor)

    def _until(self, to_ms: int | None) -> int:
        return self._clock() + 1 if to_ms is None else to_ms

    # ------------------------------------------------------------------ projection authority
    def recompute_projection(self) -> list[CaseState]:
        states = []
        for case_id in self.store.iter_case_ids():
            state = statemachine.project(self.store.list_events(case_id))
            if state is not None:
                states.append(state)
        return states

    def check_drift(self) -> DriftReport:
        live = self.store.list_states()
        recomputed = self.recompute_projection()
        live_by_id = {s.case_id: s for s in live}
        recomputed_by_id = {s.case_id: s for s in recomputed}
        drifted = sorted(
            case_id
            for case_id in live_by_id.keys() | recomputed_by_id.keys()
            if live_by_id.get(case_id) != recomputed_by_id.get(case_id)
        )
        return DriftReport(projection_hash(live), projection_hash(recomputed), drifted, len(recomputed))

    def rebuild_projection(self) -> DriftReport:
        """Recompute hitl_state from the ordered events and replace it; returns the drift it repaired."""
        before = self.check_drift()
        self.store.replace_states(self.recompute_projection())
        return before


def _refuse_terminal(state: CaseState) -> None:
    if state.current_state in TERMINAL_STATES:
        raise AlreadyTerminal(
            state.case_id,
            {
                "event_id": state.active_terminal_event_id,
                "decision": state.active_decision_outcome,
                "decided_at_ms": state.updated_at_ms,
            },
        )


def _decision_summary(event: Event) -> dict[str, Any]:
    return {
        "event_id": event.event_id,
        "decision": event.decision_outcome,
        "decided_at_ms": event.created_at_ms,
        "actor": event.actor.to_dict(),
        "notes": event.notes,
    }


def _intent_hash(arguments: dict[str, Any], action: str) -> str:
    """The fingerprint of a request's intent (everything but its request_id)."""
    arguments = {k: v for k, v in arguments.items() if k != "request_id"}
    return hashlib.sha256(canonical_json({"action": action, **arguments}).encode("utf-8")).hexdigest()


_ADAPTER_ID_VALIDATOR = Draft202012Validator(SUBMIT_SCHEMA["properties"]["adapter_id"])


def _check_adapter_id(adapter_id: Any) -> list[dict[str, str]]:
    errors = error_details(list(_ADAPTER_ID_VALIDATOR.iter_errors(adapter_id)))
    return [{"path": "$.adapter_id", "message": d["message"]} for d in errors]


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaInvalid(
            [{"path": "$", "message": f"schema_json is not JSON: {exc.msg} at {exc.pos}"}]
        ) from exc


def _lookup(payload: Any, dotted: str) -> Any:
    value = payload
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value
