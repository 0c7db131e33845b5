"""The escalation Lambda handler in-process on moto: it sweeps the DynamoDB case table named by
CASES_TABLE_NAME."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from moto import mock_aws

from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.aws.clients import reset_clients
from memo.settings import ConfigurationError, EscalationSettings
from memo.wiring import reset_runtime
from memo.wiring.escalation import EscalationRuntime
from tests.integration.caseplatform.conftest import create_cases_table
from tests.unit.caseplatform.factories import AGENT, FakeClock, submit

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
    assert EscalationSettings.from_env({"CASES_TABLE_NAME": "t-cases"}).max_cases == 1000
