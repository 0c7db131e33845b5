"""The escalation Lambda's runtime: where its notices go (the SNS topic deployed, a JSON-lines file
locally, nowhere without either), the reviewer page's link, and its one required setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.escalation import JsonLinesSink
from memo.aws.notifications import SnsEscalationNotifier
from memo.settings import ConfigurationError
from memo.wiring import reset_runtime
from memo.wiring.escalation import EscalationRuntime
from tests.unit.wiring.conftest import Calls

TOPIC = "arn:aws:sns:us-east-1:123456789012:memo-escalations"


def test_the_topic_is_the_channel_when_deployed(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ESCALATION_TOPIC_ARN", TOPIC)
    monkeypatch.setenv("HITL_ESCALATION_SINK", "/tmp/never-written.jsonl")
    runtime = EscalationRuntime.current()
    assert isinstance(runtime.notifier, SnsEscalationNotifier)
    assert runtime.notifier is runtime.notifier
    assert calls.made == ["client:sns"]


def test_a_json_lines_file_is_the_channel_locally(
    calls: Calls, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HITL_ESCALATION_SINK", str(tmp_path / "escalations.jsonl"))
    notifier = EscalationRuntime.current().notifier
    assert isinstance(notifier, JsonLinesSink) and notifier.path == tmp_path / "escalations.jsonl"
    assert calls.made == []


def test_without_a_topic_or_a_file_nothing_is_notified(calls: Calls) -> None:
    assert EscalationRuntime.current().notifier is None


def test_the_link_opens_the_case_on_the_reviewer_page(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    assert EscalationRuntime.current().link("case-1") is None
    monkeypatch.setenv("REVIEW_URL", "https://review.example.com/")
    reset_runtime(EscalationRuntime)
    assert EscalationRuntime.current().link("case-1") == "https://review.example.com/#case=case-1"


def test_the_cases_are_on_the_configured_table_built_once(calls: Calls) -> None:
    runtime = EscalationRuntime.current()
    assert runtime.cases is runtime.cases
    assert calls.made == ["client:dynamodb"]


def test_the_cases_table_is_required(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASES_TABLE_NAME")
    with pytest.raises(ConfigurationError, match="CASES_TABLE_NAME"):
        EscalationRuntime.current()
