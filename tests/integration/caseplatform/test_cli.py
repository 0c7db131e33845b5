"""The `hitl` command line over a SQLite file (in-process, plus one run of the installed script)."""

from __future__ import annotations

import csv
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from caseplatform.cli import main
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, submit


def hitl(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["--db", str(db), *argv])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "hitl.db"
    store = SqliteCaseStore(path)
    service = CaseService(store, clock=FakeClock())
    service.ensure_default_adapters()
    first = submit(service, priority="low")
    second = submit(service, priority="critical")
    service.request_clarification(case_id=first, question="Which map?", notes="", actor=AGENT, request_id="q")
    service.record_decision(case_id=second, decision="rejected", notes="no", actor=OPERATOR, request_id="d")
    store.close()
    return path


def test_schema_register_activate_and_list(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    schema_file = tmp_path / "it_ops.json"
    schema_file.write_text(json.dumps({"type": "object", "required": ["host"]}))
    code, answer = hitl(capsys, db, "schema", "register", "it_ops", "1", str(schema_file))
    assert (code, answer["status"], answer["is_active"]) == (0, "success", False)
    code, answer = hitl(capsys, db, "schema", "activate", "it_ops", "1")
    assert (code, answer["is_active"]) == (0, True)
    code, answer = hitl(capsys, db, "schema", "list")
    assert {(s["adapter_id"], s["is_active"]) for s in answer["items"]} == {
        ("it_ops", True),
        ("lgv_troubleshooting", True),
        ("memo_operation", True),
    }
    code, answer = hitl(capsys, db, "schema", "activate", "it_ops", "7")
    assert (code, answer["code"]) == (1, "SCHEMA_VERSION_NOT_FOUND")
    code, answer = hitl(capsys, db, "schema", "register", "it_ops", "2", str(tmp_path / "missing.json"))
    assert (code, answer["code"]) == (1, "SCHEMA_INVALID")


def test_queue_show_and_not_found(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, queue = hitl(capsys, db, "queue")
    assert code == 0
    assert [(c["priority"], c["current_state"]) for c in queue["items"]] == [("low", "needs_clarification")]
    case_id = queue["items"][0]["case_id"]
    code, shown = hitl(capsys, db, "show", case_id)
    assert shown["case"]["case_id"] == case_id
    assert [e["event_type"] for e in shown["history"]] == ["submitted", "needs_clarification"]
    code, missing = hitl(capsys, db, "show", "HITL-00000000-0000-4000-8000-000000000000")
    assert (code, missing["status"]) == (1, "not_found")


def test_drift_is_detected_and_rebuild_repairs_it(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert hitl(capsys, db, "drift")[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE hitl_cases SET current_state = 'approved' WHERE current_state = 'needs_clarification'"
        )
    code, drift = hitl(capsys, db, "drift")
    assert code == 2
    assert drift["drifted"] is True
    assert len(drift["drifted_case_ids"]) == 1
    code, rebuilt = hitl(capsys, db, "rebuild")
    assert (code, rebuilt["drifted"], rebuilt["repaired_case_ids"]) == (0, False, drift["drifted_case_ids"])
    assert hitl(capsys, db, "drift")[1]["live_hash"] == drift["recomputed_hash"]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_with_manifest_and_checksums(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path, fmt: str
) -> None:
    out = tmp_path / f"export-{fmt}"
    code, answer = hitl(capsys, db, "export", "--format", fmt, "--out", str(out))
    manifest = answer["manifest"]
    assert code == 0
    assert manifest["cases"] == 2
    assert json.loads((out / "manifest.json").read_text())["files"] == manifest["files"]
    if fmt == "csv":
        rows = list(csv.DictReader((out / "cases.csv").open()))
        assert {r["current_state"] for r in rows} == {"needs_clarification", "rejected"}
        events = list(csv.DictReader((out / "events.csv").open()))
        assert [e["event_type"] for e in events].count("decision_recorded") == 1
        assert next(e for e in events if e["event_type"] == "decision_recorded")["actor_id"] == "op:dana"
    else:
        documents = json.loads((out / "cases.json").read_text())
        assert [len(d["events"]) for d in documents] == [2, 2]
    again = tmp_path / f"again-{fmt}"
    hitl(capsys, db, "export", "--format", fmt, "--out", str(again))
    assert json.loads((again / "manifest.json").read_text())["files"] == manifest["files"]  # deterministic
    assert hitl(capsys, db, "verify-export", str(out)) == (
        0,
        {"status": "success", "intact": True, "mismatched_files": []},
    )
    first_file = out / manifest["files"][0]["name"]
    first_file.write_text(first_file.read_text().replace("rejected", "approved"))
    code, verdict = hitl(capsys, db, "verify-export", str(out))
    assert (code, verdict["intact"], verdict["mismatched_files"]) == (2, False, [first_file.name])


def test_escalate_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "esc.db"
    clock = FakeClock(1_000_000_000_000)
    store = SqliteCaseStore(path)
    service = CaseService(store, clock=clock)
    service.ensure_default_adapters()
    case_id = submit(service)
    service.request_clarification(case_id=case_id, question="?", notes="", actor=AGENT, request_id="q")
    store.close()
    code, answer = hitl(capsys, path, "escalate")  # the real clock is far past the 30-day SLA
    assert code == 0
    assert [e["case_id"] for e in answer["escalated"]] == [case_id]
    assert answer["escalated"][0]["escalation_target"] == "lgv-support-tier2"
    assert hitl(capsys, path, "escalate")[1]["escalated"] == []


@pytest.mark.slow
def test_installed_script_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "hitl"), "--db", str(tmp_path / "x.db"), "schema", "list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # The adapters registered by default: the LGV agent's and Memo's own operations.
    assert [s["adapter_id"] for s in json.loads(done.stdout)["items"]] == [
        "lgv_troubleshooting",
        "memo_operation",
    ]
