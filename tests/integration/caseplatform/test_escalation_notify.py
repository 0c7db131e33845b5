"""Escalation that reaches someone: the escalation Lambda on moto with the fake clock notifies the
adapter's target once per escalation (the local JSON-lines sink, and the SNS topic deployed), with a
link to the case; again at the re-escalation interval; never for a case answered meanwhile."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import boto3
import pytest
from moto import mock_aws

from caseplatform.escalation import JsonLinesSink
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.aws.clients import reset_clients
from memo.settings import EscalationSettings
from memo.wiring import reset_runtime, use_runtime
from memo.wiring.escalation import EscalationRuntime
from tests.integration.caseplatform.conftest import create_cases_table
from tests.unit.caseplatform.factories import AGENT, DAY_MS, OPERATOR, T0, FakeClock, submit

HANDLER = Path(__file__).resolve().parents[3] / "functions" / "escalation" / "handler.py"
TABLE = "hitl-cases-notify"
REVIEW_URL = "https://api.example.com/review/"


def _load_handler() -> ModuleType:
    spec = importlib.util.spec_from_file_location("escalation_handler_notify", HANDLER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Context:
    function_name = "escalation"
    memory_limit_in_mb = 256
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:escalation"
    aws_request_id = "req-1"

    def get_remaining_time_in_millis(self) -> int:
        return 300_000


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        reset_clients()
        reset_runtime(EscalationRuntime)
        yield
        reset_runtime(EscalationRuntime)
        reset_clients()


def _install(clock: FakeClock, **env: str) -> None:
    settings = EscalationSettings.from_env(
        {"CASES_TABLE_NAME": TABLE, "AWS_DEFAULT_REGION": "us-east-1", **env}
    )
    use_runtime(EscalationRuntime(settings, clock=lambda: datetime.fromtimestamp(clock.now / 1000, tz=UTC)))


def _seed(clock: FakeClock) -> tuple[CaseService, str, str]:
    client = boto3.client("dynamodb", region_name="us-east-1")
    create_cases_table(client, TABLE)
    cases = CaseService(DynamoCaseStore(TABLE, client), clock=clock)
    cases.ensure_default_adapters()
    waiting = submit(cases, title="LGV-07 stops at dock 3")
    cases.request_clarification(
        case_id=waiting, question="Which map?", notes="", actor=AGENT, request_id="q1"
    )
    answered = submit(cases, title="LGV-09 slow turns")
    cases.request_clarification(
        case_id=answered, question="Since when?", notes="", actor=AGENT, request_id="q2"
    )
    return cases, waiting, answered


def test_the_local_sink_gets_one_notice_per_escalation(aws: None, tmp_path: Path) -> None:
    clock = FakeClock(T0)
    cases, waiting, answered = _seed(clock)
    sink = tmp_path / "escalations.jsonl"
    _install(clock, HITL_ESCALATION_SINK=str(sink), REVIEW_URL=REVIEW_URL)
    handler = _load_handler()

    assert handler.handler({}, _Context())["escalated"] == []  # within the SLA (lgv: 30 days)
    assert JsonLinesSink(sink).read() == []

    clock.advance(30 * DAY_MS + 1)
    first = handler.handler({}, _Context())
    assert sorted(first["escalated"]) == sorted([waiting, answered])
    assert first["past_sla"] == 2
    notices = JsonLinesSink(sink).read()
    assert sorted(n["case_id"] for n in notices) == sorted([waiting, answered])
    mine = next(n for n in notices if n["case_id"] == waiting)
    assert mine["target"] == "lgv-support-tier2"
    assert mine["link"] == f"{REVIEW_URL}#case={waiting}"
    assert "LGV-07 stops at dock 3" in mine["text"] and mine["link"] in mine["text"]
    assert mine["subject"].startswith("[HITL normal] escalated: LGV-07")

    # The same sweep again, and an hour later: nothing new is due, nobody is told twice.
    assert handler.handler({}, _Context())["notified"] == []
    clock.advance(3600_000)
    assert handler.handler({}, _Context())["notified"] == []
    assert len(JsonLinesSink(sink).read()) == 2

    # One of them is answered; a week later only the other is escalated (and notified) again.
    cases.provide_clarification(
        case_id=answered, answer="Since Monday", notes="", actor=OPERATOR, request_id="a2"
    )
    clock.advance(7 * DAY_MS)
    again = handler.handler({}, _Context())
    assert again["notified"] == [waiting]
    assert again["past_sla"] == 1
    notices = JsonLinesSink(sink).read()
    assert [n["case_id"] for n in notices].count(waiting) == 2
    assert [n["case_id"] for n in notices].count(answered) == 1
    assert len({n["event_id"] for n in notices}) == 3


def test_the_sns_topic_gets_the_notice_with_the_link(aws: None) -> None:
    clock = FakeClock(T0)
    _cases, waiting, _answered = _seed(clock)
    sns = boto3.client("sns", region_name="us-east-1")
    sqs = boto3.client("sqs", region_name="us-east-1")
    topic = sns.create_topic(Name="hitl-escalations")["TopicArn"]
    queue_url = sqs.create_queue(QueueName="ops-inbox")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=queue_arn)
    _install(clock, ESCALATION_TOPIC_ARN=topic, REVIEW_URL=REVIEW_URL)
    handler = _load_handler()

    clock.advance(30 * DAY_MS + 1)
    handler.handler({}, _Context())
    handler.handler({}, _Context())  # nothing new: no second message
    received = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)["Messages"]
    bodies = [json.loads(m["Body"]) for m in received]
    assert len(bodies) == 2
    text = next(b["Message"] for b in bodies if waiting in b["Message"])
    assert f"{REVIEW_URL}#case={waiting}" in text
    mine = next(b for b in bodies if waiting in b["Message"])
    assert mine["Subject"].startswith("[HITL normal] escalated:")
    assert mine["MessageAttributes"]["target"]["Value"] == "lgv-support-tier2"


def test_the_daily_drift_job_finds_a_tampered_projection(aws: None) -> None:
    clock = FakeClock(T0)
    _cases, waiting, _answered = _seed(clock)
    _install(clock)
    handler = _load_handler()
    assert handler.handler({"job": "drift"}, _Context())["drifted"] is False
    # Someone edits the case item's projection behind the platform's back.
    client = boto3.client("dynamodb", region_name="us-east-1")
    client.update_item(
        TableName=TABLE,
        Key={"pk": {"S": f"CASE#{waiting}"}, "sk": {"S": "CASE"}},
        UpdateExpression="SET current_state = :s",
        ExpressionAttributeValues={":s": {"S": "pending"}},
    )
    report = handler.handler({"job": "drift"}, _Context())
    assert report["drifted"] is True and report["drifted_case_ids"] == [waiting]
