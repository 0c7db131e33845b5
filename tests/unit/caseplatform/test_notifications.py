"""The notification channels: EventBridge on moto, the listener that tells of decisions, questions
and edits and never lets a channel's failure undo a decision, and waiting on a case on an injected
clock (no real waiting). The HTTP callbacks: `test_callbacks.py`."""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest
from hypothesis import given
from hypothesis import strategies as st
from moto import mock_aws

from caseplatform.notifications import (
    MAX_WAIT_SECONDS,
    CaseNotice,
    EventBridgeSink,
    NotifyingListener,
    wait_for_change,
)
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import OPERATOR, FakeClock, submit

NOTICE = CaseNotice(
    case_id="HITL-1",
    adapter_id="lgv_troubleshooting",
    event_id="HEV-1",
    event_type="changes_requested",
    state="changes_requested",
    created_at_ms=1,
    decision="edit",
    feedback="name the map",
)


class FakeTime:
    """A monotonic clock that moves only when slept on."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


# ------------------------------------------------------------------ the listener
def test_the_listener_tells_about_decisions_questions_and_edits_and_survives_a_failing_channel(
    tmp_path: Any,
) -> None:
    sent: list[CaseNotice] = []

    class Broken:
        def send(self, notice: CaseNotice) -> None:
            raise RuntimeError("down")

    class Kept:
        def send(self, notice: CaseNotice) -> None:
            sent.append(notice)

    listener = NotifyingListener([Broken(), Kept()])
    service = CaseService(SqliteCaseStore(tmp_path / "hitl.db"), clock=FakeClock(), listeners=[listener])
    service.ensure_default_adapters()
    case_id = submit(service)
    service.decide(case_id=case_id, decision="edit", feedback="name the map", actor=OPERATOR, request_id="e")
    assert [(n.event_type, n.feedback) for n in sent] == [("changes_requested", "name the map")]
    assert listener.failures == 1  # logged and counted; the decision stands
    assert service.get_record(case_id).state.current_state == "changes_requested"


# ------------------------------------------------------------------ EventBridge
def test_eventbridge_receives_one_event_per_notice() -> None:
    with mock_aws():
        client = boto3.client("events", region_name="us-east-1")
        client.create_event_bus(Name="hitl")
        sqs = boto3.client("sqs", region_name="us-east-1")
        queue_url = sqs.create_queue(QueueName="agent")["QueueUrl"]
        arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        client.put_rule(
            Name="cases", EventBusName="hitl", EventPattern=json.dumps({"source": ["hitl.caseplatform"]})
        )
        client.put_targets(Rule="cases", EventBusName="hitl", Targets=[{"Id": "agent", "Arn": arn}])
        EventBridgeSink(client, "hitl").send(NOTICE)
        [message] = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10)["Messages"]
        event = json.loads(message["Body"])
        assert (event["detail-type"], event["detail"]["case_id"]) == ("HITL case changes_requested", "HITL-1")
        assert event["detail"]["feedback"] == "name the map"


def test_eventbridge_refusing_an_entry_is_an_error() -> None:
    class Refusing:
        def put_events(self, **_: Any) -> dict[str, Any]:
            return {"FailedEntryCount": 1, "Entries": [{"ErrorCode": "x"}]}

    with pytest.raises(RuntimeError):
        EventBridgeSink(Refusing(), "hitl").send(NOTICE)


# ------------------------------------------------------------------ waiting
def test_waiting_returns_as_soon_as_the_case_changes() -> None:
    time = FakeTime()
    versions = iter([1, 1, 1, 2])
    changed, version = wait_for_change(
        lambda: next(versions), since=1, timeout_s=60, monotonic=time.monotonic, sleep=time.sleep
    )
    assert (changed, version, time.slept) == (True, 2, [0.5, 0.5, 0.5])


@given(timeout=st.floats(min_value=-5, max_value=10_000, allow_nan=False))
def test_waiting_is_bounded(timeout: float) -> None:
    time = FakeTime()
    changed, _ = wait_for_change(
        lambda: 1, since=1, timeout_s=timeout, monotonic=time.monotonic, sleep=time.sleep
    )
    assert changed is False
    assert time.now == pytest.approx(min(max(timeout, 0.0), MAX_WAIT_SECONDS))


def test_wait_for_case_on_sqlite_sees_a_decision_without_real_waiting(tmp_path: Any) -> None:
    service = CaseService(SqliteCaseStore(tmp_path / "hitl.db"), clock=FakeClock())
    service.ensure_default_adapters()
    case_id = submit(service)
    seen = service.get_record(case_id).state.to_dict()
    time = FakeTime()

    def sleep(seconds: float) -> None:  # the reviewer decides while the agent waits
        time.sleep(seconds)
        if len(time.slept) == 2:
            service.decide(case_id=case_id, decision="edit", feedback="more", actor=OPERATOR, request_id="e")

    changed, record = service.wait_for_case(
        case_id, since=seen, timeout_s=300, monotonic=time.monotonic, sleep=sleep
    )
    assert (changed, record.state.current_state, len(time.slept)) == (True, "changes_requested", 2)
    unchanged, _ = service.wait_for_case(
        case_id, since=None, timeout_s=3, monotonic=time.monotonic, sleep=time.sleep
    )
    assert unchanged is False
