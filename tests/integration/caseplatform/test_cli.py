"""The `hitl` command line over a SQLite file and over the DynamoDB table on moto (in-process, plus
one run of the installed script and one of the module against a table behind an endpoint)."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

import caseplatform
from caseplatform.cli import main
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import create_cases_table
from tests.integration.caseplatform.motoserver import moto_dynamodb_server
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, lgv_payload, submit


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
    assert done.stderr == f"hitl: created a new case database at {tmp_path / 'x.db'}\n"  # never silently
    # The adapters registered by default: the LGV agent's and Memo's own operations.
    assert [s["adapter_id"] for s in json.loads(done.stdout)["items"]] == [
        "lgv_troubleshooting",
        "memo_operation",
    ]


# ------------------------------------------------------------------ the deployed store: DynamoDB
CLI_TABLE = "hitl-cli"


def _key(case_id: str, sk: str = "CASE") -> dict[str, Any]:
    return {"pk": {"S": f"CASE#{case_id}"}, "sk": {"S": sk}}


def _corrupt(client: Any, waiting: str, decided: str, lost: str) -> None:
    """Three ways a projection goes wrong behind the platform's back: a state altered, a TERMINAL
    guard deleted, a whole case item deleted."""
    client.update_item(
        TableName=CLI_TABLE,
        Key=_key(waiting),
        UpdateExpression="SET current_state = :s",
        ExpressionAttributeValues={":s": {"S": "pending"}},
    )
    client.delete_item(TableName=CLI_TABLE, Key=_key(decided, "TERMINAL"))
    client.delete_item(TableName=CLI_TABLE, Key=_key(lost))


@pytest.fixture
def dynamo_cases(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, list[str]]]:
    """The cases table on moto with a case waiting for an answer, a decided one and a pending one."""
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(client, CLI_TABLE)
        service = CaseService(DynamoCaseStore(CLI_TABLE, client), clock=FakeClock())
        service.ensure_default_adapters()
        waiting, decided, lost = submit(service), submit(service), submit(service)
        service.request_clarification(
            case_id=waiting, question="Which map?", notes="", actor=AGENT, request_id="q"
        )
        service.record_decision(
            case_id=decided, decision="approved", notes="", actor=OPERATOR, request_id="d"
        )
        yield client, [waiting, decided, lost]


def dynamo_hitl(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["--store", f"dynamodb://{CLI_TABLE}", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_drift_and_rebuild_on_the_dynamodb_table(
    capsys: pytest.CaptureFixture[str], dynamo_cases: tuple[Any, list[str]]
) -> None:
    client, (waiting, decided, lost) = dynamo_cases
    assert dynamo_hitl(capsys, "drift")[0] == 0
    _corrupt(client, waiting, decided, lost)
    code, drift = dynamo_hitl(capsys, "drift")
    assert (code, drift["drifted"]) == (2, True)
    assert drift["drifted_case_ids"] == sorted([waiting, decided, lost])

    code, rebuilt = dynamo_hitl(capsys, "rebuild")
    assert (code, rebuilt["drifted"], rebuilt["repaired_case_ids"]) == (
        0,
        False,
        sorted([waiting, decided, lost]),
    )
    assert dynamo_hitl(capsys, "drift") == (
        0,
        {**drift, "drifted": False, "drifted_case_ids": [], "live_hash": drift["recomputed_hash"]},
    )
    code, shown = dynamo_hitl(capsys, "show", lost)  # restored from its events
    assert (code, shown["state"]["current_state"], shown["case"]["payload"]["lgv_id"]) == (
        0,
        "pending",
        "LGV-07",
    )
    assert [c["case_id"] for c in dynamo_hitl(capsys, "queue")[1]["items"]] == sorted([waiting, lost])
    assert client.get_item(TableName=CLI_TABLE, Key=_key(decided, "TERMINAL")).get("Item") is not None


def test_a_breaking_schema_version_is_refused_on_the_dynamodb_table(
    capsys: pytest.CaptureFixture[str], dynamo_cases: tuple[Any, list[str]], tmp_path: Path
) -> None:
    schema = json.loads(
        (Path(caseplatform.__file__).parent / "adapters" / "lgv_troubleshooting.v1.json").read_text()
    )
    schema["required"].append("shift")
    schema["properties"]["shift"] = {"type": "string"}
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(schema))
    code, refused = dynamo_hitl(capsys, "schema", "register", "lgv_troubleshooting", "2", str(path))
    assert (code, refused["code"], [c["change"] for c in refused["changes"]]) == (
        1,
        "SCHEMA_BREAKING_CHANGE",
        ["required_added:shift"],
    )
    schema["x-hitl"]["upcast"] = {"defaults": {"shift": "unknown"}}
    path.write_text(json.dumps(schema))
    assert dynamo_hitl(capsys, "schema", "register", "lgv_troubleshooting", "2", str(path))[0] == 0
    assert dynamo_hitl(capsys, "schema", "activate", "lgv_troubleshooting", "2")[0] == 0
    out = tmp_path / "export"
    assert dynamo_hitl(capsys, "export", "--format", "json", "--out", str(out))[0] == 0
    documents = json.loads((out / "cases.json").read_text())
    assert {(d["schema_version"], d["read_as_schema_version"]) for d in documents} == {(1, 2)}
    assert {d["payload_as_read"]["shift"] for d in documents} == {"unknown"}


def test_a_sqlite_store_url_is_the_same_as_db(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    by_path = hitl(capsys, db, "drift")
    assert main(["--store", f"sqlite://{db}", "drift"]) == 0
    assert json.loads(capsys.readouterr().out) == by_path[1]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--store", "mysql://cases", "drift"], "not a store URL"),
        (["--store", "dynamodb://a b", "drift"], "not a DynamoDB table name"),
        (["--store", "dynamodb://no-such-table", "drift"], "ResourceNotFoundException"),
        (["--store", "sqlite://", "drift"], "names no file"),
        (["--db", "x.db", "--store", "sqlite://y.db", "drift"], "not allowed with argument"),
    ],
)
def test_a_store_that_cannot_be_opened_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], dynamo_cases: tuple[Any, list[str]], argv: list[str], said: str
) -> None:
    with pytest.raises(SystemExit) as usage:
        main(argv)
    captured = capsys.readouterr()
    assert (usage.value.code, captured.out) == (2, "")
    assert said in captured.err


@pytest.mark.slow
def test_the_command_line_drifts_and_rebuilds_a_table_behind_an_endpoint(tmp_path: Path) -> None:
    """As an operator runs it: a separate process, the table named by URL, the endpoint and region
    from the AWS environment."""
    with moto_dynamodb_server() as endpoint:
        client = boto3.client(
            "dynamodb",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id="k",
            aws_secret_access_key="s",
        )
        create_cases_table(client, CLI_TABLE)
        service = CaseService(DynamoCaseStore(CLI_TABLE, client), clock=FakeClock())
        service.ensure_default_adapters()
        case_id = submit(service)
        client.delete_item(TableName=CLI_TABLE, Key=_key(case_id))
        env = {
            **os.environ,
            "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "k",
            "AWS_SECRET_ACCESS_KEY": "s",
        }

        def run(*argv: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "caseplatform.cli", "--store", f"dynamodb://{CLI_TABLE}", *argv],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
                env=env,
                cwd=tmp_path,
            )

        drift = run("drift")
        assert (drift.returncode, json.loads(drift.stdout)["drifted_case_ids"]) == (2, [case_id]), (
            drift.stderr
        )
        rebuilt = run("rebuild")
        assert (rebuilt.returncode, json.loads(rebuilt.stdout)["repaired_case_ids"]) == (0, [case_id])
        assert run("drift").returncode == 0


@pytest.mark.parametrize(
    "command", [["queue"], ["show", "HITL-1"], ["drift"], ["export", "--format", "json", "--out", "x"]]
)
def test_a_read_of_a_database_that_does_not_exist_is_refused_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    missing = tmp_path / "typo" / "hitl.db"
    with pytest.raises(SystemExit) as exit_:
        main(["--db", str(missing), *command])
    assert exit_.value.code == 2
    assert f"no case database at {missing}: nothing to read" in capsys.readouterr().err
    assert not missing.exists() and not missing.parent.exists()


def test_a_case_sent_back_and_revised_shows_and_exports_every_round(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "rounds.db"
    store = SqliteCaseStore(db)
    service = CaseService(store, clock=FakeClock())
    service.ensure_default_adapters()
    case_id = submit(service)
    edit = {"decision": "edit", "feedback": "Name the map version", "answers": ["map version"]}
    service.decide(case_id=case_id, actor=OPERATOR, request_id="e1", **edit)  # type: ignore[arg-type]
    store.close()

    code, waiting = hitl(
        capsys,
        db,
        "export",
        "--format",
        "json",
        "--out",
        str(tmp_path / "sent-back"),
        "--state",
        "changes_requested",
    )
    assert (code, waiting["manifest"]["cases"]) == (0, 1)
    assert hitl(capsys, db, "queue")[1]["items"] == []  # it waits on its submitter, not on a reviewer
    store = SqliteCaseStore(db)
    service = CaseService(store, clock=FakeClock())
    revised = {**lgv_payload(), "missing_data": []}
    service.resubmit_case(case_id=case_id, payload=revised, notes="", actor=AGENT, request_id="r1")
    store.close()

    code, shown = hitl(capsys, db, "show", case_id)
    assert code == 0 and shown["case"]["payload"] == revised
    assert [(e["event_type"], e.get("feedback")) for e in shown["history"]] == [
        ("submitted", None),
        ("changes_requested", "Name the map version"),
        ("resubmitted", None),
    ]
    assert shown["history"][2]["revised_payload"] == revised
    assert hitl(capsys, db, "drift")[0] == 0
