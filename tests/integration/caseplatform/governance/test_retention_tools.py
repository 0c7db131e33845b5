"""Redaction and retention through their entry points: `hitl redact` and `hitl retention run` on a
SQLite file and on the DynamoDB table (moto), with the export and `verify-export` intact after a
redaction and `hitl rebuild` keeping it; and the `redact_case` tool of the stdio MCP server."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import boto3
import pytest
from mcp import Client, StdioServerParameters
from moto import mock_aws

from caseplatform.cli import main
from caseplatform.ports import CaseStore
from caseplatform.redaction import REDACTED
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import create_cases_table
from tests.unit.caseplatform.factories import DAY_MS, OPERATOR, T0, FakeClock, submit

TABLE = "hitl-retention-cli"


def _seed(store: CaseStore, tmp_path: Path) -> tuple[str, str]:
    """A decided case and an open one; the lgv adapter purges `site` 30 days after a decision."""
    service = CaseService(store, clock=FakeClock())
    service.ensure_default_adapters()
    decided, open_case = submit(service), submit(service)
    service.record_decision(case_id=decided, decision="rejected", notes="", actor=OPERATOR, request_id="d")
    active = store.active_schema("lgv_troubleshooting")
    assert active is not None
    document = {
        **active.schema,
        "x-hitl": {**active.schema["x-hitl"], "retention": {"after_days": 30, "purge_fields": ["site"]}},
    }
    (tmp_path / "v2.json").write_text(json.dumps(document), encoding="utf-8")
    return decided, open_case


def _hitl(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def db(tmp_path: Path) -> tuple[Path, str, str]:
    path = tmp_path / "hitl.db"
    store = SqliteCaseStore(path)
    decided, open_case = _seed(store, tmp_path)
    store.close()
    return path, decided, open_case


def test_redact_then_export_verify_and_rebuild_on_sqlite(
    capsys: pytest.CaptureFixture[str], db: tuple[Path, str, str], tmp_path: Path
) -> None:
    path, decided, _ = db
    where = ["--db", str(path)]
    code, answer = _hitl(
        capsys,
        *where,
        "redact",
        decided,
        "--field",
        "site",
        "--field",
        "lgv_id",
        "--reason",
        "GDPR request 17",
    )
    assert (code, answer["event_type"], answer["redacted_fields"]) == (0, "redacted", ["site", "lgv_id"])
    code, shown = _hitl(capsys, *where, "show", decided)
    assert shown["case"]["payload"]["site"] == REDACTED
    assert shown["history"][-1]["notes"] == "GDPR request 17"
    code, _ = _hitl(capsys, *where, "export", "--format", "json", "--out", str(tmp_path / "out"))
    assert code == 0
    exported_cases = json.loads((tmp_path / "out" / "cases.json").read_text(encoding="utf-8"))
    by_id = {
        c["case_id"]: c
        for c in (exported_cases["cases"] if isinstance(exported_cases, dict) else exported_cases)
    }
    assert (by_id[decided]["payload"]["site"], by_id[decided]["payload_as_read"]["site"]) == (
        REDACTED,
        REDACTED,
    )
    assert by_id[decided]["events"][-1]["event_type"] == "redacted"
    assert _hitl(capsys, *where, "verify-export", str(tmp_path / "out")) == (
        0,
        {"status": "success", "intact": True, "mismatched_files": []},
    )
    code, rebuilt = _hitl(capsys, *where, "rebuild")
    assert (code, rebuilt["drifted"]) == (0, False)
    code, shown = _hitl(capsys, *where, "show", decided)
    assert (shown["case"]["payload"]["site"], shown["case"]["payload"]["lgv_id"]) == (REDACTED, REDACTED)

    code, refused = _hitl(capsys, *where, "redact", decided, "--field", "no.such", "--reason", "x")
    assert (code, refused["code"]) == (1, "ENVELOPE_INVALID")


def test_retention_run_on_sqlite(
    capsys: pytest.CaptureFixture[str], db: tuple[Path, str, str], tmp_path: Path
) -> None:
    path, decided, open_case = db
    where = ["--db", str(path)]
    assert (
        _hitl(capsys, *where, "schema", "register", "lgv_troubleshooting", "2", str(tmp_path / "v2.json"))[0]
        == 0
    )
    assert _hitl(capsys, *where, "schema", "activate", "lgv_troubleshooting", "2")[0] == 0
    code, early = _hitl(capsys, *where, "retention", "run", "--now-ms", str(T0 + 30 * DAY_MS - 1))
    assert (code, early["purged_case_ids"]) == (0, [])
    code, run = _hitl(capsys, *where, "retention", "run", "--now-ms", str(T0 + 30 * DAY_MS))
    assert (code, run["purged_case_ids"], run["complete"]) == (0, [decided], True)
    assert _hitl(capsys, *where, "show", decided)[1]["case"]["payload"]["site"] == REDACTED
    assert _hitl(capsys, *where, "show", open_case)[1]["case"]["payload"]["site"] == "Plant Haifa"


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[str, str]]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(client, TABLE)
        yield _seed(DynamoCaseStore(TABLE, client), tmp_path)


def test_redact_and_retention_on_the_dynamodb_table(
    capsys: pytest.CaptureFixture[str], table: tuple[str, str], tmp_path: Path
) -> None:
    decided, open_case = table
    where = ["--store", f"dynamodb://{TABLE}"]
    code, answer = _hitl(capsys, *where, "redact", open_case, "--field", "lgv_id", "--reason", "asked")
    assert (code, answer["redacted_fields"]) == (0, ["lgv_id"])
    assert _hitl(capsys, *where, "show", open_case)[1]["case"]["payload"]["lgv_id"] == REDACTED
    assert (
        _hitl(capsys, *where, "schema", "register", "lgv_troubleshooting", "2", str(tmp_path / "v2.json"))[0]
        == 0
    )
    assert _hitl(capsys, *where, "schema", "activate", "lgv_troubleshooting", "2")[0] == 0
    code, run = _hitl(
        capsys,
        *where,
        "retention",
        "run",
        "--now-ms",
        str(T0 + 31 * DAY_MS),
        "--archive-dir",
        str(tmp_path / "a"),
    )
    assert (code, run["purged_case_ids"]) == (0, [decided])
    assert _hitl(capsys, *where, "show", decided)[1]["case"]["payload"]["site"] == REDACTED
    assert _hitl(capsys, *where, "drift")[1]["drifted"] is False


@pytest.mark.slow
def test_redact_case_over_stdio(db: tuple[Path, str, str]) -> None:
    path, decided, _ = db
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "caseplatform.mcp_server", "--db", str(path), "--actor", "op:dana"],
        env={**os.environ},
    )

    async def scenario() -> None:
        async with Client(params) as client:
            result = await client.call_tool(
                "redact_case", {"case_id": decided, "fields": ["site"], "reason": "asked", "request_id": "r1"}
            )
            assert not result.is_error
            answer = result.structured_content or {}
            assert (answer["event_type"], answer["redacted_fields"]) == ("redacted", ["site"])
            refused = await client.call_tool(
                "redact_case", {"case_id": decided, "fields": ["nope"], "reason": "asked", "request_id": "r2"}
            )
            assert refused.is_error and (refused.structured_content or {})["code"] == "ENVELOPE_INVALID"
            shown = await client.call_tool("get_case", {"case_id": decided})
            assert (shown.structured_content or {})["case"]["payload"]["site"] == REDACTED

    anyio.run(scenario)
