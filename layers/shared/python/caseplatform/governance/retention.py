"""Retention of decided cases, per adapter. An adapter sets it in its schema's `x-hitl`:

    "retention": {"after_days": 90, "purge_fields": ["site", "contact.phone"]}
    "retention": {"after_days": 365, "archive": true}

Once a decided case (approved or rejected) has not changed for `after_days` (its decision, or a
later redaction), `purge_fields` are blanked; with `archive`, the whole case (its row, payloads,
refs and events: the export's JSON document) is written to the archive first (a directory for
SQLite, an S3 bucket for DynamoDB) and then every top-level field of its payload is blanked. Either
is recorded as a `redacted` event of the system actor (`caseplatform.commands.redact`): the events
and their hashes stay. Open cases are never touched, and a case whose payload has nothing left to
purge is skipped without a write, so a run repeated is a no-op.

A run is bounded like the projection jobs: at most `max_cases` decided cases checked, no new page
once `time_left()` is False, resumed after the `next_cursor` it answers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from caseplatform.errors import InvalidCursor
from caseplatform.export import case_document
from caseplatform.model import CaseRecord, SchemaRecord, canonical_json
from caseplatform.queries import MAX_LIMIT
from caseplatform.redaction import blank_fields
from caseplatform.service import CaseService

DAY_MS = 24 * 3600 * 1000
DECIDED = ("approved", "rejected")


@dataclass(frozen=True)
class RetentionPolicy:
    after_days: float
    purge_fields: tuple[str, ...] = ()
    archive: bool = False

    def due(self, record: CaseRecord, now_ms: int) -> bool:
        return record.state.updated_at_ms + int(self.after_days * DAY_MS) <= now_ms

    def fields(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """What to blank: every top-level field when archiving, else the purge fields."""
        return tuple(payload) if self.archive else self.purge_fields


def retention_policy(active: SchemaRecord | None) -> RetentionPolicy | None:
    """The adapter's retention (validated with the rest of `x-hitl`); None: cases are kept as they are."""
    raw = (active.schema.get("x-hitl") or {}).get("retention") if active is not None else None
    if not raw:
        return None
    return RetentionPolicy(raw["after_days"], tuple(raw.get("purge_fields", ())), bool(raw.get("archive")))


class Archive(Protocol):
    """Where an archived case goes; `put` answers where it went."""

    def put(self, key: str, document: dict[str, Any]) -> str: ...


class DirectoryArchive:
    """One JSON file per case under `root` (`<adapter>/<case id>.json`), for the SQLite store."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def put(self, key: str, document: dict[str, Any]) -> str:
        path = self._root / key
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(canonical_json(document), encoding="utf-8")
        return str(path)


@dataclass
class RetentionReport:
    checked: int = 0
    purged_case_ids: list[str] = field(default_factory=list)
    archived: dict[str, str] = field(default_factory=dict)
    # Due for archiving, but no archive is configured: nothing written.
    unarchived_case_ids: list[str] = field(default_factory=list)
    next_cursor: str | None = None
    stopped_by: str | None = None

    @property
    def complete(self) -> bool:
        return self.next_cursor is None


def run_retention(
    service: CaseService,
    *,
    now_ms: int,
    archive: Archive | None,
    max_cases: int,
    cursor: str | None = None,
    time_left: Callable[[], bool] = lambda: True,
) -> RetentionReport:
    """Apply each adapter's retention to the decided cases, page by page from `cursor` (a cursor
    this run answered, else INVALID_CURSOR)."""
    report = RetentionReport()
    state, inner = _resume(cursor)
    policies: dict[str, RetentionPolicy | None] = {}
    while state is not None:
        if report.checked >= max_cases or not time_left():
            report.next_cursor = f"{state}:{inner or ''}"
            report.stopped_by = "max_cases" if report.checked >= max_cases else "time"
            return report
        limit = min(MAX_LIMIT, max_cases - report.checked)
        page = service.list_cases(state=state, limit=limit, cursor=inner)
        for record in page.items:
            report.checked += 1
            adapter = record.case.adapter_id
            if adapter not in policies:
                policies[adapter] = retention_policy(service.store.active_schema(adapter))
            policy = policies[adapter]
            if policy is not None and policy.due(record, now_ms):
                _retain(service, record, policy, archive, report)
        inner = page.next_cursor
        if inner is None:
            state = _next_state(state)
    return report


def _resume(cursor: str | None) -> tuple[str | None, str | None]:
    if cursor is None:
        return DECIDED[0], None
    state, sep, inner = cursor.partition(":")
    if not sep or state not in DECIDED:
        raise InvalidCursor(cursor)
    return state, inner or None


def _next_state(state: str) -> str | None:
    index = DECIDED.index(state) + 1
    return DECIDED[index] if index < len(DECIDED) else None


def _retain(
    service: CaseService,
    record: CaseRecord,
    policy: RetentionPolicy,
    archive: Archive | None,
    report: RetentionReport,
) -> None:
    """Purge (after archiving, when the policy says so) what is left to purge of one decided case."""
    case = record.case
    fields = policy.fields(case.payload)
    if blank_fields(case.payload, fields) == case.payload:
        return  # purged already (or none of the fields is there): no write
    reason = f"retention: {policy.after_days:g} days after the case was decided"
    if policy.archive:
        if archive is None:
            report.unarchived_case_ids.append(case.case_id)
            return
        view = service.get_case(case.case_id, seen=record)
        document = case_document(service, view, service.store.list_events(case.case_id))
        report.archived[case.case_id] = archive.put(f"{case.adapter_id}/{case.case_id}.json", document)
        reason += f"; archived to {report.archived[case.case_id]}"
    digest = hashlib.sha256(canonical_json(sorted(fields)).encode()).hexdigest()[:16]
    service.purge_case(
        case_id=case.case_id, fields=list(fields), reason=reason, request_id=f"retention:{digest}"
    )
    report.purged_case_ids.append(case.case_id)
