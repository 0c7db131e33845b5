"""The executor Lambda's runtime: the ledger on first use; the capabilities given by a test, or built
on DynamoDB and EventBridge Scheduler once both reminder settings are there."""

from __future__ import annotations

import pytest

from memo.capabilities.dispatch import CapabilityDispatcher
from memo.settings import ConfigurationError
from memo.wiring.executor import ExecutorRuntime
from tests.unit.executor.fakes import CountingCapabilities
from tests.unit.wiring.conftest import Calls

TARGET = "arn:aws:lambda:us-east-1:123456789012:function:memo-reminders"
ROLE = "arn:aws:iam::123456789012:role/memo-scheduler"


def test_given_capabilities_are_used_and_nothing_is_built(calls: Calls) -> None:
    fake = CountingCapabilities()
    runtime = ExecutorRuntime(ExecutorRuntime.settings_model.from_env({}), capabilities=fake)
    assert runtime.capabilities is fake
    assert calls.made == []


def test_the_capabilities_are_built_on_dynamodb_and_the_scheduler(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REMINDER_TARGET_ARN", TARGET)
    monkeypatch.setenv("REMINDER_SCHEDULER_ROLE_ARN", ROLE)
    runtime = ExecutorRuntime.current()
    assert isinstance(runtime.capabilities, CapabilityDispatcher)
    assert runtime.capabilities is runtime.capabilities
    assert sorted(calls.made) == ["client:dynamodb", "client:scheduler"]


@pytest.mark.parametrize(
    ("present", "missing"),
    [
        ("REMINDER_TARGET_ARN", "REMINDER_SCHEDULER_ROLE_ARN"),
        ("REMINDER_SCHEDULER_ROLE_ARN", "REMINDER_TARGET_ARN"),
    ],
)
def test_a_missing_reminder_setting_is_named_alone(
    calls: Calls, monkeypatch: pytest.MonkeyPatch, present: str, missing: str
) -> None:
    monkeypatch.setenv(present, "arn:aws:iam::123456789012:role/x")
    with pytest.raises(ConfigurationError) as error:
        _ = ExecutorRuntime.current().capabilities
    assert missing in str(error.value) and present not in str(error.value)
    assert calls.made == []


def test_the_ledger_is_built_once(calls: Calls) -> None:
    runtime = ExecutorRuntime.current()
    assert runtime.ledger is runtime.ledger
    assert calls.made == ["client:dynamodb"]


def test_a_ledger_ttl_under_an_hour_names_its_variable(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMO_LEDGER_TTL_SECONDS", "60")
    with pytest.raises(ConfigurationError, match="MEMO_LEDGER_TTL_SECONDS"):
        ExecutorRuntime.current()
