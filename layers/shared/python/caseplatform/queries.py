"""The read side of the platform: one case (read as its adapter's active schema version, with its
history and its standing on the approver policy) and the queries over many cases and events.

Nothing here writes. Page sizes are clamped to `MAX_LIMIT`; the queries that need every match read
the store page by page.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from caseplatform import evolution
from caseplatform.errors import CaseNotFound
from caseplatform.model import (
    OPEN_STATES,
    PRIORITY_RANK,
    Case,
    CaseRecord,
    CaseState,
    Decision,
    Event,
    EventType,
    Page,
    Ref,
    SchemaRecord,
)
from caseplatform.ports import CaseStore, Clock
from caseplatform.redaction import apply_redactions
from caseplatform.registry import SchemaRegistry

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


@dataclass(frozen=True)
class CaseView:
    """A case as read: the payload interpreted as the adapter's active schema version (read-time upcast)."""

    record: CaseRecord
    refs: list[Ref]
    payload: dict[str, Any]
    read_as_schema_version: int
    # What the read-as version's schema finds wrong with the payload read from an older version
    # (`[{path, message}]`; empty when it is valid, or read as the version it was submitted under).
    payload_problems: tuple[dict[str, str], ...] = ()


@dataclass(frozen=True)
class ApprovalStatus:
    """Where a case stands on its adapter's multi-approver policy: the approvals needed and the votes
    recorded so far (each `approval_vote` event, oldest first)."""

    required_approvers: int
    votes: list[Event]


@dataclass(frozen=True)
class CaseDetail:
    """A case as read with its history and its standing on the approver policy, from one read each."""

    view: CaseView
    history: list[Event]
    status: ApprovalStatus


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


def clamp_limit(limit: int | None) -> int:
    return DEFAULT_LIMIT if limit is None else max(1, min(MAX_LIMIT, int(limit)))


class CaseQueries:
    def __init__(self, store: CaseStore, registry: SchemaRegistry, clock: Clock) -> None:
        self._store = store
        self._registry = registry
        self._clock = clock

    # ------------------------------------------------------------------ one case
    def get_case(self, case_id: str, *, seen: CaseRecord | None = None) -> CaseView:
        """The case read as its adapter's active schema version. `seen`: the case as read earlier in
        the same request (get_record), not read again."""
        record = self.record(case_id, seen)
        return self.view(record, self._registry.active(record.case.adapter_id), refs=True)

    def get_record(self, case_id: str) -> CaseRecord:
        """The case and its projection as stored (no payload upcast, no refs); raises CaseNotFound."""
        record = self._store.get_case(case_id)
        if record is None:
            raise CaseNotFound(case_id)
        return record

    def get_case_detail(self, case_id: str, *, seen: CaseRecord | None = None) -> CaseDetail:
        """get_case, get_case_history and approval_status of one case, reading each thing once."""
        record = self.record(case_id, seen)
        active = self._registry.active(record.case.adapter_id)
        view = self.view(record, active, refs=True)
        history = self._store.list_events(case_id)
        return CaseDetail(view, history, self.status(record.case, active, history))

    def get_case_history(self, case_id: str) -> list[Event]:
        if self._store.get_case(case_id) is None:
            raise CaseNotFound(case_id)
        return self._store.list_events(case_id)

    def approval_status(self, case_id: str, *, seen: CaseRecord | None = None) -> ApprovalStatus:
        """`seen`: the case as read earlier in the same request; only its envelope (adapter and
        schema version, which never change) is used, the votes are read now."""
        record = self.record(case_id, seen)
        active = self._registry.active(record.case.adapter_id)
        return self.status(record.case, active, self._store.list_events(case_id))

    def record(self, case_id: str, seen: CaseRecord | None) -> CaseRecord:
        """`seen` when it is this case, else the case read now."""
        return seen if seen is not None and seen.case.case_id == case_id else self.get_record(case_id)

    def view(self, record: CaseRecord, active: SchemaRecord | None, *, refs: bool) -> CaseView:
        """The case's payload upcast to the active version (`active` as read by the caller), or to the
        last version before one that declares a migration, and validated against that version."""
        case = record.case
        refs_of = self._store.list_refs(case.case_id) if refs else []
        if record.state.resubmissions:
            # Revised by its submitter: the latest revision, validated on the active version when it
            # was resubmitted, is the payload decided on.
            revised = self.latest_revision(case.case_id)
            if revised is not None:
                return CaseView(record, refs_of, revised, revised_version(case, active))
        newest = max(case.schema_version, active.schema_version if active else 0)
        if newest == case.schema_version:
            return CaseView(record, refs_of, dict(case.payload), case.schema_version)
        versions = self._registry.documents(case.adapter_id, range(case.schema_version + 1, newest + 1))
        read_as = evolution.read_as_version(case.schema_version, versions, newest)
        payload = evolution.upcast(case.payload, case.schema_version, versions, read_as)
        problems: tuple[dict[str, str], ...] = ()
        if read_as > case.schema_version and read_as in versions:
            problems = tuple(self._registry.problems(case.adapter_id, read_as, versions[read_as], payload))
        return CaseView(record, refs_of, payload, read_as, problems)

    def latest_revision(self, case_id: str) -> dict[str, Any] | None:
        """The payload of the case's latest `resubmitted` event, with the case's redactions applied
        (None when it has none)."""
        events = self._store.list_events(case_id)
        revisions = [e for e in events if e.event_type == "resubmitted"]
        # Redacted after it was resubmitted: the revision as read has the fields blanked too.
        return apply_redactions(revisions[-1].revised_payload, events) if revisions else None

    def status(self, case: Case, active: SchemaRecord | None, events: list[Event]) -> ApprovalStatus:
        """The approver policy's count and the votes among `events` (the case's history)."""
        policy = self._registry.policy_of(active, case.adapter_id, case.schema_version)
        return ApprovalStatus(
            policy.required_approvers, [e for e in events if e.event_type == "approval_vote"]
        )

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
        return self._store.list_cases(
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
        page = self._store.list_events_by_type(
            "decision_recorded",
            from_ms=from_ms,
            to_ms=self._until(to_ms),
            decision=decision,
            limit=clamp_limit(limit),
            cursor=cursor,
        )
        items = []
        for event in page.items:
            record = self._store.get_case(event.case_id)
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
        return self._store.list_events_by_principal(
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
        return self._store.list_events_by_type(
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
        return self._store.cases_by_ref(
            Ref(ref_type, ref_key, ref_value), limit=clamp_limit(limit), cursor=cursor
        )

    def cases_by_payload_field(
        self, adapter_id: str, field: str, value: Any, *, limit: int | None = None, cursor: str | None = None
    ) -> Page[CaseRecord]:
        """Cases of an adapter whose payload (read as the active version) has `field` == `value`.
        `field` is a dotted path. Reads the adapter's cases page by page (no payload index), in the
        order of `list_cases`; `next_cursor` is that listing's own cursor just after the last case
        returned, so the next call goes on from there (a case listed meanwhile is not skipped
        because of a position inside a page)."""
        wanted = clamp_limit(limit)
        found: list[CaseRecord] = []
        at = cursor
        while True:
            page = self._store.list_cases(limit=MAX_LIMIT, cursor=at, adapter_id=adapter_id)
            for index, record in enumerate(page.items):
                if _lookup(self.get_case(record.case.case_id).payload, field) != value:
                    continue
                found.append(record)
                if len(found) < wanted:
                    continue
                if index + 1 < len(page.items):
                    # The listing's cursor just after this case: the same page read up to it.
                    after = self._store.list_cases(limit=index + 1, cursor=at, adapter_id=adapter_id)
                    return Page(found, after.next_cursor)
                return Page(found, page.next_cursor)
            if page.next_cursor is None:
                return Page(found, None)
            at = page.next_cursor

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
        return self._store.escalation_due(self._clock() + within_ms, limit=clamp_limit(limit), cursor=cursor)

    # ------------------------------------------------------------------ paging helpers
    def _all_cases(self, **filters: str | None) -> Iterator[CaseRecord]:
        cursor: str | None = None
        while True:
            page = self._store.list_cases(limit=MAX_LIMIT, cursor=cursor, **filters)
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def _all_events(self, event_type: EventType, from_ms: int, to_ms: int) -> Iterator[Event]:
        cursor: str | None = None
        while True:
            page = self._store.list_events_by_type(
                event_type, from_ms=from_ms, to_ms=to_ms, limit=MAX_LIMIT, cursor=cursor
            )
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def _until(self, to_ms: int | None) -> int:
        return self._clock() + 1 if to_ms is None else to_ms


def _lookup(payload: Any, dotted: str) -> Any:
    value = payload
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def revised_version(case: Case, active: SchemaRecord | None) -> int:
    """The schema version a revised payload reads as: the active one it was validated on."""
    return active.schema_version if active is not None else case.schema_version
