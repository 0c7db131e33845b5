"""The review metrics through their entry points: `hitl metrics` on a SQLite file and on the DynamoDB
table (moto), and the `review_metrics` tool of the stdio MCP server (the SDK's client, a process)."""

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
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import create_cases_table
from tests.unit.caseplatform.factories import AGENT, DAY_MS, OPERATOR, T0, FakeClock, submit

HOUR_MS = 3600 * 1000
TABLE = "hitl-metrics-cli"
WINDOW = ["--from-ms", str(T0), "--to-ms", str(T0 + 2 * DAY_MS)]


def _history(store: CaseStore) -> None:
    """Day one: a case decided after 2 h, one clarified in 3 h and decided after 6 h; day two: a case
    decided after 30 h."""
    clock = FakeClock()
    service = CaseService(store, clock=clock)
    service.ensure_default_adapters()
    quick, clarified, slow = submit(service), submit(service), submit(service)
    service.request_clarification(
        case_id=clarified, question="Which map?", notes="", actor=OPERATOR, request_id="q"
    )
    for hours, case_id in ((2, quick), (3, None), (6, clarified), (30, slow)):
        clock.now = T0 + hours * HOUR_MS
        if case_id is None:
            service.provide_clarification(
                case_id=clarified, answer="v12", notes="", actor=AGENT, request_id="a"
            )
        else:
            service.record_decision(
                case_id=case_id, decision="rejected", notes="", actor=OPERATOR, request_id="d"
            )


def _latencies(answer: dict[str, Any]) -> list[tuple[int, int, int | None, int | None]]:
    return [
        (
            i["period_start_ms"],
            i["review_latency"]["count"],
            i["review_latency"]["median_ms"],
            i["clarification_turnaround"]["median_ms"],
        )
        for i in answer["items"]
    ]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "hitl.db"
    store = SqliteCaseStore(path)
    _history(store)
    store.close()
    return path


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(client, TABLE)
        _history(DynamoCaseStore(TABLE, client))
        yield


def _hitl(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


EXPECTED_BY_DAY = [(T0, 2, 4 * HOUR_MS, 3 * HOUR_MS), (T0 + DAY_MS, 1, 30 * HOUR_MS, None)]


def test_metrics_by_day_on_sqlite(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, answer = _hitl(capsys, "--db", str(db), "metrics", *WINDOW, "--period", "day")
    assert (code, answer["status"], answer["period_ms"]) == (0, "success", DAY_MS)
    assert _latencies(answer) == EXPECTED_BY_DAY
    code, whole = _hitl(capsys, "--db", str(db), "metrics", *WINDOW, "--adapter", "lgv_troubleshooting")
    assert whole["items"][0]["review_latency"] == {
        "count": 3,
        "median_ms": 6 * HOUR_MS,
        "p90_ms": 30 * HOUR_MS,
    }


def test_metrics_by_day_on_the_dynamodb_table(capsys: pytest.CaptureFixture[str], table: None) -> None:
    code, answer = _hitl(capsys, "--store", f"dynamodb://{TABLE}", "metrics", *WINDOW, "--period", "day")
    assert (code, _latencies(answer)) == (0, EXPECTED_BY_DAY)


def test_an_empty_window_a_bad_window_and_an_unknown_adapter(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, empty = _hitl(capsys, "--db", str(db), "metrics", "--from-ms", "0", "--to-ms", str(T0))
    assert (code, empty["count"], empty["items"]) == (0, 0, [])
    code, refused = _hitl(capsys, "--db", str(db), "metrics", "--from-ms", str(T0), "--to-ms", str(T0))
    assert (code, refused["code"], refused["details"][0]["path"]) == (1, "ENVELOPE_INVALID", "$.to_ms")
    with pytest.raises(SystemExit) as usage:
        main(["--db", str(db), "metrics", "--adapter", "payments"])
    assert usage.value.code == 2
    assert capsys.readouterr().out == ""


@pytest.mark.slow
def test_review_metrics_over_stdio(db: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "caseplatform.mcp_server", "--db", str(db), "--actor", "op:dana"],
        env={**os.environ},
    )

    async def scenario() -> None:
        async with Client(params) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert "review_metrics" in tools
            result = await client.call_tool(
                "review_metrics", {"from_ms": T0, "to_ms": T0 + 2 * DAY_MS, "period_ms": DAY_MS}
            )
            assert not result.is_error
            assert _latencies(result.structured_content or {}) == EXPECTED_BY_DAY
            refused = await client.call_tool(
                "review_metrics", {"from_ms": T0, "to_ms": T0 + 2 * DAY_MS, "period_ms": 1}
            )
            assert refused.is_error
            assert (refused.structured_content or {})["code"] == "ENVELOPE_INVALID"

    anyio.run(scenario)
