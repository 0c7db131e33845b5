"""The escalation Lambda handler in-process on moto: it sweeps the DynamoDB case table named by
CASES_TABLE_NAME, and with `{"job": "drift"}` / `{"job": "rebuild"}` checks and repairs a corrupted
projection in runs bounded by HITL_PROJECTION_MAX_CASES and the time the invocation has left, each
answering where the next one resumes; `{"job": "retention"}` purges (or archives to the S3 bucket,
then purges) decided cases past their adapter's retention, bounded by HITL_RETENTION_MAX_CASES."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from moto import mock_aws

from caseplatform import projection
from caseplatform.redaction import REDACTED
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.aws.clients import reset_clients
from memo.settings import ConfigurationError, EscalationSettings
from memo.wiring import reset_runtime
from memo.wiring.escalation import EscalationRuntime
from tests.integration.caseplatform.conftest import create_cases_table
from tests.support.clock import TEST_NOW
from tests.unit.caseplatform.factories import AGENT, DAY_MS, OPERATOR, T0, FakeClock, submit

HANDLER = Path(__file__).resolve().parents[3] / "functions" / "escalation" / "handler.py"


def _load_handler() -> ModuleType:
    spec = importlib.util.spec_from_file_location("escalation_handler", HANDLER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Context:
    function_name = "escalation"
    memory_limit_in_mb = 256
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:escalation"
    aws_request_id = "req-1"

    def __init__(self, remaining_ms: int = 300_000) -> None:
        self.remaining_ms = remaining_ms

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms


@pytest.fixture
def handler_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.setenv("CASES_TABLE_NAME", "hitl-cases-lambda")
    with mock_aws():
        module = _load_handler()
        reset_clients()
        reset_runtime(EscalationRuntime)
        yield module
        reset_runtime(EscalationRuntime)
        reset_clients()


def test_handler_escalates_overdue_cases_once(handler_module: ModuleType) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    create_cases_table(client, "hitl-cases-lambda")
    seeding = CaseService(DynamoCaseStore("hitl-cases-lambda", client), clock=FakeClock(1_000_000_000_000))
    seeding.ensure_default_adapters()
    overdue = submit(seeding)
    seeding.request_clarification(
        case_id=overdue, question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    submit(seeding)  # pending: never escalated

    first: dict[str, Any] = handler_module.handler({"source": "aws.events"}, _Context())
    assert (first["checked"], first["escalated"], first["past_sla"]) == (1, [overdue], 1)
    history = seeding.get_case_history(overdue)
    assert history[-1].event_type == "escalated"
    assert history[-1].escalation_target == "lgv-support-tier2"
    second: dict[str, Any] = handler_module.handler({"source": "aws.events"}, _Context())
    assert second["escalated"] == []  # next escalation is due a week after the first


def test_settings_need_the_table_name() -> None:
    with pytest.raises(ConfigurationError, match="CASES_TABLE_NAME"):
        EscalationSettings.from_env({})
    defaults = EscalationSettings.from_env({"CASES_TABLE_NAME": "t-cases"})
    assert (defaults.max_cases, defaults.projection_max_cases, defaults.projection_time_margin_ms) == (
        1000,
        5000,
        30_000,
    )


def _seed_corrupted(client: Any, clock: FakeClock) -> tuple[CaseService, list[str]]:
    """Four cases a day apart, then three projections corrupted behind the platform's back: a state
    altered, a TERMINAL guard deleted, a case item deleted."""
    create_cases_table(client, "hitl-cases-lambda")
    seeding = CaseService(DynamoCaseStore("hitl-cases-lambda", client), clock=clock)
    seeding.ensure_default_adapters()
    ids = []
    for _ in range(4):
        ids.append(submit(seeding))
        clock.advance(DAY_MS)
    seeding.request_clarification(
        case_id=ids[0], question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    seeding.record_decision(case_id=ids[1], decision="rejected", notes="no", actor=OPERATOR, request_id="d")
    key = {"pk": {"S": f"CASE#{ids[0]}"}, "sk": {"S": "CASE"}}
    client.update_item(
        TableName="hitl-cases-lambda",
        Key=key,
        UpdateExpression="SET current_state = :s",
        ExpressionAttributeValues={":s": {"S": "pending"}},
    )
    client.delete_item(
        TableName="hitl-cases-lambda", Key={**key, "pk": {"S": f"CASE#{ids[1]}"}, "sk": {"S": "TERMINAL"}}
    )
    client.delete_item(TableName="hitl-cases-lambda", Key={**key, "pk": {"S": f"CASE#{ids[3]}"}})
    return seeding, ids


def _until_complete(handler_module: ModuleType, job: str, context: _Context) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = []
    while not runs or not runs[-1]["complete"]:
        event: dict[str, Any] = {"job": job}
        if runs:
            event["cursor"] = runs[-1]["next_cursor"]
        runs.append(handler_module.handler(event, context))
        assert len(runs) < 10
    return runs


def test_the_rebuild_job_repairs_a_corrupted_projection_in_resumable_runs(
    handler_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HITL_PROJECTION_MAX_CASES", "3")
    client = boto3.client("dynamodb", region_name="us-east-1")
    seeding, ids = _seed_corrupted(client, FakeClock(T0))
    corrupted = [ids[0], ids[1], ids[3]]

    drift = _until_complete(handler_module, "drift", _Context())
    assert [(r["checked"], r["stopped_by"]) for r in drift] == [(3, "max_cases"), (1, None)]
    assert [c for r in drift for c in r["drifted_case_ids"]] == corrupted
    assert seeding.list_cases().items and ids[3] not in {r.case.case_id for r in seeding.list_cases().items}

    rebuild = _until_complete(handler_module, "rebuild", _Context())
    assert [(r["checked"], r["complete"]) for r in rebuild] == [(3, False), (1, True)]
    assert [c for r in rebuild for c in r["repaired_case_ids"]] == corrupted
    assert all(r["unrepairable_case_ids"] == [] for r in rebuild)

    after = _until_complete(handler_module, "drift", _Context())
    assert [c for r in after for c in r["drifted_case_ids"]] == []
    assert seeding.check_drift().drifted is False
    states = {case_id: seeding.get_record(case_id).state.current_state for case_id in ids}
    assert states == {ids[0]: "needs_clarification", ids[1]: "rejected", ids[2]: "pending", ids[3]: "pending"}


def test_a_run_short_of_time_starts_no_second_page(
    handler_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(projection, "PAGE_SIZE", 2)
    client = boto3.client("dynamodb", region_name="us-east-1")
    _seed_corrupted(client, FakeClock(T0))
    short = _Context(remaining_ms=29_999)  # under HITL_PROJECTION_TIME_MARGIN_MS (30 s)
    runs = _until_complete(handler_module, "rebuild", short)
    assert [(r["checked"], r["stopped_by"]) for r in runs] == [(2, "time"), (2, None)]
    at_margin = _Context(remaining_ms=30_001)
    assert [r["checked"] for r in _until_complete(handler_module, "drift", at_margin)] == [4]


def test_an_unknown_job_runs_nothing(handler_module: ModuleType) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    create_cases_table(client, "hitl-cases-lambda")
    seeding = CaseService(DynamoCaseStore("hitl-cases-lambda", client), clock=FakeClock(1_000_000_000_000))
    seeding.ensure_default_adapters()
    overdue = submit(seeding)
    seeding.request_clarification(
        case_id=overdue, question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    answer = handler_module.handler({"job": "sweep-everything"}, _Context())
    assert (answer["status"], answer["code"]) == ("error", "JOB_INVALID")
    assert seeding.get_case_history(overdue)[-1].event_type == "needs_clarification"  # no sweep ran


@pytest.mark.parametrize(
    ("name", "value", "accepted"),
    [
        ("HITL_PROJECTION_MAX_CASES", "1", True),
        ("HITL_PROJECTION_MAX_CASES", "100000", True),
        ("HITL_PROJECTION_MAX_CASES", "0", False),
        ("HITL_PROJECTION_MAX_CASES", "100001", False),
        ("HITL_PROJECTION_TIME_MARGIN_MS", "0", True),
        ("HITL_PROJECTION_TIME_MARGIN_MS", "900000", True),
        ("HITL_PROJECTION_TIME_MARGIN_MS", "-1", False),
        ("HITL_PROJECTION_TIME_MARGIN_MS", "900001", False),
    ],
)
def test_the_projection_job_limits_are_bounded_settings(name: str, value: str, accepted: bool) -> None:
    env = {"CASES_TABLE_NAME": "t-cases", name: value}
    if accepted:
        settings = EscalationSettings.from_env(env)
        field = "projection_max_cases" if name == "HITL_PROJECTION_MAX_CASES" else "projection_time_margin_ms"
        assert getattr(settings, field) == int(value)
        return
    with pytest.raises(ConfigurationError, match=name):
        EscalationSettings.from_env(env)


def _seed_decided_long_ago(
    client: Any, retention: dict[str, Any], count: int
) -> tuple[CaseService, list[str]]:
    """`count` cases decided 40 days before the process clock, under a lgv adapter with `retention`,
    and one open case (never touched)."""
    create_cases_table(client, "hitl-cases-lambda")
    decided_at = int(TEST_NOW.timestamp() * 1000) - 40 * DAY_MS
    seeding = CaseService(DynamoCaseStore("hitl-cases-lambda", client), clock=FakeClock(decided_at))
    seeding.ensure_default_adapters()
    active = seeding.store.active_schema("lgv_troubleshooting")
    assert active is not None
    seeding.register_adapter_schema(
        "lgv_troubleshooting",
        2,
        {**active.schema, "x-hitl": {**active.schema["x-hitl"], "retention": retention}},
    )
    seeding.activate_adapter_schema("lgv_troubleshooting", 2)
    ids = [submit(seeding) for _ in range(count)]
    for case_id in ids:
        seeding.record_decision(
            case_id=case_id, decision="rejected", notes="", actor=OPERATOR, request_id="d"
        )
    ids.append(submit(seeding))
    return seeding, ids


def test_the_retention_job_purges_decided_cases_in_resumable_runs(
    handler_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HITL_RETENTION_MAX_CASES", "2")
    client = boto3.client("dynamodb", region_name="us-east-1")
    seeding, ids = _seed_decided_long_ago(client, {"after_days": 30, "purge_fields": ["site"]}, 3)
    *decided, open_case = ids
    runs = _until_complete(handler_module, "retention", _Context())
    assert [(r["checked"], r["stopped_by"]) for r in runs] == [(2, "max_cases"), (1, None)]
    assert sorted(c for r in runs for c in r["purged_case_ids"]) == sorted(decided)
    for case_id in decided:
        assert seeding.get_record(case_id).case.payload["site"] == REDACTED
    assert seeding.get_record(open_case).case.payload["site"] == "Plant Haifa"
    again = _until_complete(handler_module, "retention", _Context())
    assert [c for r in again for c in r["purged_case_ids"]] == []  # nothing left: no write
    short = handler_module.handler({"job": "retention"}, _Context(remaining_ms=29_999))
    assert (short["checked"], short["stopped_by"]) == (0, "time")


def test_the_daily_retention_run_resumes_where_the_last_one_stopped(
    handler_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The schedule sends `{"job": "retention"}` alone every day: each run goes on from where the last
    stopped (kept in the cases table), so a bound smaller than the cases never starves the later ones."""
    monkeypatch.setenv("HITL_RETENTION_MAX_CASES", "2")
    client = boto3.client("dynamodb", region_name="us-east-1")
    _seeding, ids = _seed_decided_long_ago(client, {"after_days": 30, "purge_fields": ["site"]}, 5)
    *decided, _open = ids
    days = [handler_module.handler({"job": "retention"}, _Context()) for _ in range(4)]
    assert [(d["checked"], d["complete"]) for d in days] == [(2, False), (2, False), (1, True), (2, False)]
    assert days[0]["resumed_from"] is None and days[1]["resumed_from"] == days[0]["next_cursor"]
    assert days[3]["resumed_from"] is None  # after a complete pass, from the first case again
    assert sorted(c for d in days[:3] for c in d["purged_case_ids"]) == sorted(decided)
    assert days[3]["purged_case_ids"] == []  # purged already: no write
    stored = client.get_item(
        TableName="hitl-cases-lambda", Key={"pk": {"S": "JOB#retention"}, "sk": {"S": "CURSOR"}}
    )["Item"]
    assert stored["cursor"]["S"] == days[3]["next_cursor"]
    # A cursor given by hand wins over the stored one; a stored cursor that no longer reads is dropped.
    client.put_item(
        TableName="hitl-cases-lambda",
        Item={"pk": {"S": "JOB#retention"}, "sk": {"S": "CURSOR"}, "cursor": {"S": "garbage"}},
    )
    fresh = handler_module.handler({"job": "retention"}, _Context())
    assert (fresh["status"], fresh["resumed_from"], fresh["checked"]) == ("success", None, 2)
    by_hand = handler_module.handler({"job": "retention", "cursor": "garbage"}, _Context())
    assert by_hand["code"] == "INVALID_CURSOR"


def test_the_retention_job_archives_to_the_bucket_then_purges(
    handler_module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HITL_ARCHIVE_BUCKET", "hitl-archive-test")
    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket="hitl-archive-test")
    client = boto3.client("dynamodb", region_name="us-east-1")
    seeding, (decided, _) = _seed_decided_long_ago(client, {"after_days": 30, "archive": True}, 1)
    answer = handler_module.handler({"job": "retention"}, _Context())
    key = f"lgv_troubleshooting/{decided}.json"
    assert answer["archived"] == {decided: f"s3://hitl-archive-test/{key}"}
    archived = json.loads(s3.get_object(Bucket="hitl-archive-test", Key=key)["Body"].read())
    assert archived["payload"]["site"] == "Plant Haifa"
    assert set(seeding.get_record(decided).case.payload.values()) == {REDACTED}


def test_the_retention_job_without_a_bucket_leaves_archiving_cases_as_they_are(
    handler_module: ModuleType,
) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    seeding, (decided, _) = _seed_decided_long_ago(client, {"after_days": 30, "archive": True}, 1)
    answer = handler_module.handler({"job": "retention"}, _Context())
    assert (answer["unarchived_case_ids"], answer["purged_case_ids"]) == ([decided], [])
    assert seeding.get_record(decided).case.payload["site"] == "Plant Haifa"
    refused = handler_module.handler({"job": "retention", "cursor": "nowhere"}, _Context())
    assert refused["code"] == "INVALID_CURSOR"
    invalid = handler_module.handler({"job": "retention", "max": 1}, _Context())
    assert invalid["code"] == "JOB_INVALID"


@pytest.mark.parametrize(
    ("value", "accepted"), [("1", True), ("100000", True), ("0", False), ("100001", False)]
)
def test_the_retention_job_limit_is_a_bounded_setting(value: str, accepted: bool) -> None:
    env = {"CASES_TABLE_NAME": "t-cases", "HITL_RETENTION_MAX_CASES": value}
    if accepted:
        assert EscalationSettings.from_env(env).retention_max_cases == int(value)
        return
    with pytest.raises(ConfigurationError, match="HITL_RETENTION_MAX_CASES"):
        EscalationSettings.from_env(env)
