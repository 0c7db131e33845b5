"""Exports for audit and BI: the filtered cases oldest first with their events, as CSV or JSON, and a
manifest whose checksums find any file changed or lost since."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from caseplatform.export import CASE_COLUMNS, EVENT_COLUMNS, export_cases, verify_export
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, request_id, submit


@pytest.fixture
def cases(service: CaseService, clock: FakeClock) -> list[str]:
    first = submit(service, summary="mail dana@example.com", priority="high")
    clock.advance(1)
    second = submit(service, refs=[{"ref_type": "ticket", "ref_key": "jira", "ref_value": "OPS-1"}])
    service.request_clarification(
        case_id=second, question="Which map?", notes="", actor=AGENT, request_id=request_id()
    )
    clock.advance(1)
    third = submit(service)
    service.record_decision(
        case_id=third, decision="rejected", notes="no", actor=OPERATOR, request_id=request_id()
    )
    return [first, second, third]


def test_csv_has_one_row_per_case_and_per_event(
    service: CaseService, cases: list[str], tmp_path: Path
) -> None:
    manifest = export_cases(service, tmp_path, fmt="csv")
    with (tmp_path / "cases.csv").open(encoding="utf-8") as text:
        rows = list(csv.DictReader(text))
    assert [r["case_id"] for r in rows] == cases  # oldest first
    assert tuple(rows[0]) == CASE_COLUMNS
    assert [r["current_state"] for r in rows] == ["pending", "needs_clarification", "rejected"]
    assert rows[0]["confidence"] == "medium" and rows[0]["active_decision_outcome"] == ""  # None is empty
    assert json.loads(rows[0]["payload_json"])["lgv_id"] == "LGV-07"
    with (tmp_path / "events.csv").open(encoding="utf-8") as text:
        events = list(csv.DictReader(text))
    assert tuple(events[0]) == EVENT_COLUMNS
    assert [(e["case_id"], e["event_type"]) for e in events] == [
        (cases[0], "submitted"),
        (cases[1], "submitted"),
        (cases[1], "needs_clarification"),
        (cases[2], "submitted"),
        (cases[2], "decision_recorded"),
    ]
    assert events[-1]["actor_id"] == "op:dana" and events[-1]["decision_outcome"] == "rejected"
    assert [(f["name"], f["rows"]) for f in manifest["files"]] == [("cases.csv", 3), ("events.csv", 5)]


def test_json_documents_hold_payload_refs_and_events(
    service: CaseService, cases: list[str], tmp_path: Path
) -> None:
    manifest = export_cases(service, tmp_path, fmt="json", state="needs_clarification")
    documents = json.loads((tmp_path / "cases.json").read_text(encoding="utf-8"))
    assert [d["case_id"] for d in documents] == [cases[1]]
    (document,) = documents
    assert "payload_json" not in document and document["payload"]["lgv_id"] == "LGV-07"
    assert document["refs"] == [{"ref_type": "ticket", "ref_key": "jira", "ref_value": "OPS-1"}]
    assert [e["event_type"] for e in document["events"]] == ["submitted", "needs_clarification"]
    assert all("request_hash" not in e for e in document["events"])
    assert manifest["filters"] == {"state": "needs_clarification", "adapter_id": None}
    assert manifest["cases"] == 1


def test_filters_by_adapter(service: CaseService, cases: list[str], tmp_path: Path) -> None:
    assert export_cases(service, tmp_path / "a", fmt="json", adapter_id="lgv_troubleshooting")["cases"] == 3
    assert export_cases(service, tmp_path / "b", fmt="json", adapter_id="memo_operation")["cases"] == 0
    assert json.loads((tmp_path / "b" / "cases.json").read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_same_data_exports_to_the_same_bytes(
    service: CaseService, clock: FakeClock, cases: list[str], tmp_path: Path, fmt: str
) -> None:
    first = export_cases(service, tmp_path / "one", fmt=fmt)  # type: ignore[arg-type]
    clock.advance(60_000)
    second = export_cases(service, tmp_path / "two", fmt=fmt)  # type: ignore[arg-type]
    assert first["generated_at_ms"] != second["generated_at_ms"]
    assert (first["files"], first["manifest_sha256"]) == (second["files"], second["manifest_sha256"])
    written = json.loads((tmp_path / "one" / "manifest.json").read_text(encoding="utf-8"))
    assert written == first


def test_verify_finds_changed_and_missing_files(
    service: CaseService, cases: list[str], tmp_path: Path
) -> None:
    export_cases(service, tmp_path, fmt="csv")
    assert verify_export(tmp_path) == []
    events = tmp_path / "events.csv"
    events.write_bytes(events.read_bytes().replace(b"rejected", b"approved"))  # same size, other bytes
    assert verify_export(tmp_path) == ["events.csv"]
    (tmp_path / "cases.csv").unlink()
    assert verify_export(tmp_path) == ["cases.csv", "events.csv"]
