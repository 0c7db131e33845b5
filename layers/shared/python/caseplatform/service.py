"""The case service: the platform's whole API over a `CaseStore` and a clock, in one object.

It composes the parts and adds nothing to them; each method is documented where it is implemented:
    the adapter schema registry    caseplatform.registry.SchemaRegistry
    the commands                   caseplatform.commands.CaseCommands (decisions: caseplatform.decisions)
    the queries                    caseplatform.queries.CaseQueries
    projection drift and repair    caseplatform.projection
Domain errors are raised; `caseplatform.answers` maps them to answers.

Composition roots (the Lambdas' wiring, the CLI, the MCP server) build it with `build_case_service`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from caseplatform import projection
from caseplatform.commands import Approval, CaseCommands
from caseplatform.hooks import normalized
from caseplatform.ids import new_uuid4
from caseplatform.model import Case, CaseRecord, CaseState, Decision, Event, Page, SchemaRecord
from caseplatform.notifications import wait_for_change
from caseplatform.ports import CaseListener, CaseStore, Clock, EditCheck, system_clock
from caseplatform.projection import DriftReport, ScanReport
from caseplatform.queries import ApprovalStatus, Bucket, CaseDetail, CaseQueries, CaseView
from caseplatform.redaction import REDACTORS, Redactor, no_redaction
from caseplatform.registry import SchemaRegistry


class CaseService:
    def __init__(
        self,
        store: CaseStore,
        *,
        clock: Clock = system_clock,
        redactor: Redactor = no_redaction,
        new_id: Callable[[], str] = new_uuid4,
        listeners: Sequence[CaseListener] = (),
        edit_checks: Mapping[str, EditCheck] | None = None,
    ) -> None:
        self.store = store
        self._clock = clock
        self.registry = SchemaRegistry(store, clock)
        self.queries = CaseQueries(store, self.registry, clock)
        self.commands = CaseCommands(
            store,
            self.registry,
            self.queries,
            clock=clock,
            redactor=redactor,
            new_id=new_id,
            listeners=listeners,
            edit_checks=edit_checks,
        )

    def clock(self) -> int:
        return self._clock()

    # ------------------------------------------------------------------ adapter schema registry
    def register_adapter_schema(self, adapter_id: str, schema_version: int, schema_json: Any) -> SchemaRecord:
        return self.registry.register(adapter_id, schema_version, schema_json)

    def activate_adapter_schema(
        self, adapter_id: str, schema_version: int
    ) -> tuple[SchemaRecord, int | None]:
        return self.registry.activate(adapter_id, schema_version)

    def ensure_default_adapters(self) -> list[str]:
        return self.registry.ensure_defaults()

    # ------------------------------------------------------------------ commands
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
        return self.commands.submit_case(
            adapter_id=adapter_id,
            case_type=case_type,
            title=title,
            summary=summary,
            payload=normalized(adapter_id, payload),  # the adapter's hook, before validation
            submitter=submitter,
            request_id=request_id,
            priority=priority,
            confidence=confidence,
            refs=refs,
        )

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
        return self.commands.request_clarification(
            case_id=case_id, question=question, notes=notes, actor=actor, request_id=request_id, seen=seen
        )

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
        return self.commands.provide_clarification(
            case_id=case_id, answer=answer, notes=notes, actor=actor, request_id=request_id, seen=seen
        )

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
        return self.commands.record_decision(
            case_id=case_id, decision=decision, notes=notes, actor=actor, request_id=request_id, seen=seen
        )

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
        return self.commands.decide(
            case_id=case_id,
            decision=decision,
            feedback=feedback,
            answers=answers,
            payload=payload,
            actor=actor,
            request_id=request_id,
            seen=seen,
        )

    def allowed_decisions(self, record: CaseRecord) -> tuple[str, ...]:
        return self.commands.allowed_decisions(record)

    def record_approval(
        self,
        *,
        case_id: str,
        notes: str,
        actor: dict[str, Any],
        request_id: str,
        edited_payload: dict[str, Any] | None = None,
    ) -> Event:
        return self.commands.record_approval(
            case_id=case_id, notes=notes, actor=actor, request_id=request_id, edited_payload=edited_payload
        )

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
        return self.commands.approve(
            case_id=case_id,
            notes=notes,
            actor=actor,
            request_id=request_id,
            edited_payload=edited_payload,
            seen=seen,
        )

    def escalate(self, state: CaseState, now_ms: int) -> Event | None:
        return self.commands.escalate(state, now_ms)

    def resubmit_case(
        self, *, case_id: str, payload: dict[str, Any], notes: str, actor: dict[str, Any], request_id: str
    ) -> Event:
        return self.commands.resubmit_case(
            case_id=case_id, payload=payload, notes=notes, actor=actor, request_id=request_id
        )

    def leave_feedback(self, *, case_id: str, feedback: str, actor: dict[str, Any], request_id: str) -> Event:
        return self.commands.leave_feedback(
            case_id=case_id, feedback=feedback, actor=actor, request_id=request_id
        )

    def redact_case(
        self, *, case_id: str, fields: list[str], reason: str, actor: dict[str, Any], request_id: str
    ) -> Event:
        """Blank payload fields of a case and record a `redacted` event (`commands/redact.py`)."""
        return self.commands.redact_case(
            case_id=case_id, fields=fields, reason=reason, actor=actor, request_id=request_id
        )

    def purge_case(self, *, case_id: str, fields: list[str], reason: str, request_id: str) -> Event:
        """Retention's purge of payload fields, as the platform (`commands/redact.py`)."""
        return self.commands.purge_case(case_id=case_id, fields=fields, reason=reason, request_id=request_id)

    def wait_for_case(
        self,
        case_id: str,
        *,
        since: dict[str, Any] | None,
        timeout_s: float,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> tuple[bool, CaseRecord]:
        """Returns when the case's projection differs from `since` (a `CaseState.to_dict()` the
        caller saw; None: as read now) or after `timeout_s` (at most 300 s): (changed, the case)."""
        first = self.queries.get_record(case_id)
        seen = first.state.to_dict() if since is None else since
        latest = [first]

        def version() -> dict[str, Any]:
            latest[0] = self.queries.get_record(case_id)
            return latest[0].state.to_dict()

        changed, _ = wait_for_change(
            version, since=seen, timeout_s=timeout_s, monotonic=monotonic, sleep=sleep
        )
        return changed, latest[0]

    # ------------------------------------------------------------------ one case
    def get_case(self, case_id: str, *, seen: CaseRecord | None = None) -> CaseView:
        return self.queries.get_case(case_id, seen=seen)

    def get_record(self, case_id: str) -> CaseRecord:
        return self.queries.get_record(case_id)

    def get_case_detail(self, case_id: str, *, seen: CaseRecord | None = None) -> CaseDetail:
        return self.queries.get_case_detail(case_id, seen=seen)

    def get_case_history(self, case_id: str) -> list[Event]:
        return self.queries.get_case_history(case_id)

    def approval_status(self, case_id: str, *, seen: CaseRecord | None = None) -> ApprovalStatus:
        return self.queries.approval_status(case_id, seen=seen)

    # ------------------------------------------------------------------ many cases
    def list_cases(
        self,
        *,
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[CaseRecord]:
        return self.queries.list_cases(
            state=state, adapter_id=adapter_id, priority=priority, limit=limit, cursor=cursor
        )

    def list_review_queue(
        self,
        *,
        adapter_id: str | None = None,
        priority: str | None = None,
        state: str | None = None,
        limit: int | None = None,
    ) -> list[CaseRecord]:
        return self.queries.list_review_queue(
            adapter_id=adapter_id, priority=priority, state=state, limit=limit
        )

    def list_reviewed(
        self,
        *,
        decision: Decision | None = None,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[tuple[Event, CaseRecord]]:
        return self.queries.list_reviewed(
            decision=decision, from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor
        )

    def list_by_principal(
        self,
        principal: str,
        *,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Event]:
        return self.queries.list_by_principal(
            principal, from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor
        )

    def audit_decisions(
        self,
        *,
        from_ms: int = 0,
        to_ms: int | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[Event]:
        return self.queries.audit_decisions(from_ms=from_ms, to_ms=to_ms, limit=limit, cursor=cursor)

    def cases_by_ref(
        self,
        ref_type: str,
        ref_key: str,
        ref_value: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[str]:
        return self.queries.cases_by_ref(ref_type, ref_key, ref_value, limit=limit, cursor=cursor)

    def cases_by_payload_field(
        self, adapter_id: str, field: str, value: Any, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[CaseRecord]:
        return self.queries.cases_by_payload_field(adapter_id, field, value, limit=limit, cursor=cursor)

    def decision_stats(self, *, from_ms: int, to_ms: int, bucket_ms: int = 24 * 3600 * 1000) -> list[Bucket]:
        return self.queries.decision_stats(from_ms=from_ms, to_ms=to_ms, bucket_ms=bucket_ms)

    def clarification_backlog(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[tuple[CaseRecord, int]]:
        return self.queries.clarification_backlog(limit=limit, cursor=cursor)

    def escalations_due(
        self, *, within_ms: int = 0, limit: int | None = None, cursor: str | None = None
    ) -> Page[CaseState]:
        return self.queries.escalations_due(within_ms=within_ms, limit=limit, cursor=cursor)

    # ------------------------------------------------------------------ projection authority
    def recompute_projection(self) -> list[CaseState]:
        return projection.recompute(self.store)

    def check_drift(self) -> DriftReport:
        return projection.check_drift(self.store)

    def rebuild_projection(self) -> DriftReport:
        return projection.rebuild(self.store)

    def scan_projection(
        self,
        *,
        repair: bool,
        max_cases: int,
        cursor: str | None = None,
        time_left: Callable[[], bool] = lambda: True,
    ) -> ScanReport:
        return projection.scan(
            self.store, repair=repair, max_cases=max_cases, cursor=cursor, time_left=time_left
        )


def build_case_service(
    store: CaseStore,
    *,
    redact: str = "none",
    clock: Clock = system_clock,
    listeners: Sequence[CaseListener] = (),
    edit_checks: Mapping[str, EditCheck] | None = None,
) -> CaseService:
    """The case service as a composition root builds it: on its store, with the redaction its
    configuration names (a key of `REDACTORS`; KeyError for any other), its clock (epoch ms), the
    listeners it wires and the edit checks of its adapters (`caseplatform.ports.EditCheck`, by
    adapter id: an operator's edit of such a case is recorded only when its check allows it)."""
    return CaseService(
        store, clock=clock, redactor=REDACTORS[redact], listeners=listeners, edit_checks=edit_checks
    )
