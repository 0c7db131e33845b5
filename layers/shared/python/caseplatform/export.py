"""Exports of cases for audit and BI: CSV or JSON, with a manifest of checksums. Each case carries
its payload as stored (under the schema version it was submitted with) and as read now (upcast to
the adapter's active version, `read_as_schema_version`).

Files are deterministic for the same data (sorted by creation time then case id, canonical JSON),
so two exports of unchanged data have equal checksums.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from caseplatform.answers import event_dict
from caseplatform.model import CaseRecord, Event, SchemaRecord, canonical_json
from caseplatform.queries import MAX_LIMIT, CaseView
from caseplatform.service import CaseService

CASE_COLUMNS = (
    "case_id",
    "adapter_id",
    "schema_version",
    "case_type",
    "title",
    "summary",
    "priority",
    "confidence",
    "submitter_name",
    "submitter_role",
    "submitter_id",
    "submitter_team",
    "payload_json",
    "payload_hash_sha256",
    "created_at_ms",
    "current_state",
    "active_decision_outcome",
    "active_terminal_event_id",
    "state_updated_at_ms",
    "read_as_schema_version",
    "payload_as_read_json",
)
EVENT_COLUMNS = (
    "event_id",
    "case_id",
    "event_type",
    "decision_outcome",
    "notes",
    "question",
    "answer",
    "actor_kind",
    "actor_name",
    "actor_role",
    "actor_id",
    "actor_team",
    "created_at_ms",
)


@dataclass(frozen=True)
class ExportedFile:
    name: str
    rows: int
    bytes: int
    sha256: str


def _case_row(view: CaseView) -> dict[str, Any]:
    record = view.record
    case, state = record.case, record.state
    return {
        "case_id": case.case_id,
        "adapter_id": case.adapter_id,
        "schema_version": case.schema_version,
        "case_type": case.case_type,
        "title": case.title,
        "summary": case.summary,
        "priority": case.priority,
        "confidence": case.confidence,
        "submitter_name": case.submitter.name,
        "submitter_role": case.submitter.role,
        "submitter_id": case.submitter.id,
        "submitter_team": case.submitter.team,
        "payload_json": case.payload_json,
        "payload_hash_sha256": case.payload_hash_sha256,
        "created_at_ms": case.created_at_ms,
        "current_state": state.current_state,
        "active_decision_outcome": state.active_decision_outcome,
        "active_terminal_event_id": state.active_terminal_event_id,
        "state_updated_at_ms": state.updated_at_ms,
        "read_as_schema_version": view.read_as_schema_version,
        "payload_as_read_json": canonical_json(view.payload),
    }


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else row[k] for k in columns})
    return buffer.getvalue()


def _collect(service: CaseService, state: str | None, adapter_id: str | None) -> list[CaseRecord]:
    records: list[CaseRecord] = []
    cursor: str | None = None
    while True:
        page = service.list_cases(state=state, adapter_id=adapter_id, limit=MAX_LIMIT, cursor=cursor)
        records.extend(page.items)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    return sorted(records, key=lambda r: (r.case.created_at_ms, r.case.case_id))


def case_document(service: CaseService, view: CaseView, history: list[Event]) -> dict[str, Any]:
    """A case as one JSON document: its row with both payloads as objects, its refs and events."""
    document = {
        **_case_row(view),
        "payload": view.record.case.payload,
        "payload_as_read": view.payload,
        **({"payload_problems": list(view.payload_problems)} if view.payload_problems else {}),
        "refs": [ref.to_dict() for ref in service.store.list_refs(view.record.case.case_id)],
        "events": [event_dict(e) for e in history],
    }
    document.pop("payload_json")
    document.pop("payload_as_read_json")
    return document


def _read_now(service: CaseService, records: list[CaseRecord]) -> list[CaseView]:
    """Each case read as its adapter's active schema version (read once per adapter)."""
    active: dict[str, SchemaRecord | None] = {}
    views = []
    for record in records:
        adapter_id = record.case.adapter_id
        if adapter_id not in active:
            active[adapter_id] = service.registry.active(adapter_id)
        views.append(service.queries.view(record, active[adapter_id], refs=False))
    return views


def export_cases(
    service: CaseService,
    out_dir: Path,
    *,
    fmt: Literal["csv", "json"],
    state: str | None = None,
    adapter_id: str | None = None,
) -> dict[str, Any]:
    """Write the cases (and their events) to `out_dir` and a `manifest.json`; returns the manifest."""
    out_dir.mkdir(parents=True, exist_ok=True)
    records = _collect(service, state, adapter_id)
    views = _read_now(service, records)
    events = [(view, service.get_case_history(view.record.case.case_id)) for view in views]
    contents: dict[str, tuple[str, int]] = {}
    if fmt == "csv":
        contents["cases.csv"] = (_csv(CASE_COLUMNS, [_case_row(v) for v in views]), len(records))
        event_rows = []
        for _, history in events:
            for event in history:
                row = event_dict(event)
                actor = row.pop("actor")
                event_rows.append({**row, **{f"actor_{k}": v for k, v in actor.items()}})
        contents["events.csv"] = (_csv(EVENT_COLUMNS, event_rows), len(event_rows))
    else:
        documents = [case_document(service, view, history) for view, history in events]
        contents["cases.json"] = (
            json.dumps(documents, sort_keys=True, indent=1, ensure_ascii=False) + "\n",
            len(documents),
        )
    files = []
    for name, (text, rows) in sorted(contents.items()):
        data = text.encode("utf-8")
        (out_dir / name).write_bytes(data)
        files.append(ExportedFile(name, rows, len(data), hashlib.sha256(data).hexdigest()))
    manifest: dict[str, Any] = {
        "format": fmt,
        "filters": {"state": state, "adapter_id": adapter_id},
        "generated_at_ms": service.clock(),
        "cases": len(records),
        "files": [file.__dict__ for file in files],
    }
    manifest["manifest_sha256"] = hashlib.sha256(
        canonical_json({k: manifest[k] for k in ("format", "filters", "cases", "files")}).encode()
    ).hexdigest()
    (out_dir / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    return manifest


def verify_export(out_dir: Path) -> list[str]:
    """Names of the files whose checksum or size no longer matches the manifest (empty: intact)."""
    manifest = json.loads((out_dir / "manifest.json").read_text(encoding="utf-8"))
    bad = []
    for entry in manifest["files"]:
        path = out_dir / entry["name"]
        data = path.read_bytes() if path.exists() else b""
        if hashlib.sha256(data).hexdigest() != entry["sha256"] or len(data) != entry["bytes"]:
            bad.append(entry["name"])
    return bad
