"""`memo.wiring`: one pattern for all seven Lambdas. A runtime is built from its settings and builds
nothing (no AWS client, no secret lookup) until an adapter is first asked for; `current()` reads the
environment once per container; `use_runtime` / `reset_runtime` are how tests and the local stack
install and forget runtimes; a missing setting is a `ConfigurationError` naming the variable."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from memo.aws import clients, secrets
from memo.settings import ConfigurationError, FunctionSettings
from memo.wiring import LambdaRuntime, reset_runtime, use_runtime
from memo.wiring.escalation import EscalationRuntime
from memo.wiring.executor import ExecutorRuntime
from memo.wiring.ingress import IngressRuntime
from memo.wiring.reminders import RemindersRuntime
from memo.wiring.reply import ReplyRuntime
from memo.wiring.review import ReviewRuntime
from memo.wiring.review_submit import ReviewSubmitRuntime
from memo.wiring.webhook import WebhookRuntime

RUNTIMES: list[type[LambdaRuntime[Any]]] = [
    WebhookRuntime,
    ExecutorRuntime,
    ReplyRuntime,
    RemindersRuntime,
    ReviewSubmitRuntime,
    ReviewRuntime,
    EscalationRuntime,
]
# Enough for every Lambda's settings; the secrets would come from Secrets Manager when first needed.
ENV = {
    "CASES_TABLE_NAME": "t-cases",
    "WHATSAPP_SECRET_ID": "memo/whatsapp",
    "OPENAI_SECRET_ID": "memo/openai",
}


class Calls:
    def __init__(self) -> None:
        self.made: list[str] = []


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    """Every AWS client or secret a runtime builds is recorded (and none reaches AWS)."""
    seen = Calls()

    def client(service: str, region: str, endpoint_url: str | None) -> Any:
        seen.made.append(f"client:{service}")
        return object()

    def secret_json(secret_id: str) -> dict[str, str]:
        seen.made.append(f"secret:{secret_id}")
        return {}

    monkeypatch.setattr(clients, "client", client)
    monkeypatch.setattr(secrets, "secret_json", secret_json)
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    reset_runtime()
    yield seen
    reset_runtime()


@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda runtime: runtime.__name__)
def test_a_runtime_builds_nothing_until_an_adapter_is_used(
    runtime: type[LambdaRuntime[Any]], calls: Calls
) -> None:
    built = runtime.current()
    assert isinstance(built.settings, FunctionSettings)
    assert isinstance(built.settings, runtime.settings_model)
    assert calls.made == []


def test_adapters_are_built_on_first_use_and_once(calls: Calls) -> None:
    runtime = ReplyRuntime.current()
    assert runtime.memory is runtime.memory
    assert calls.made == ["client:dynamodb"]
    assert runtime.sender is runtime.sender
    assert calls.made == ["client:dynamodb", "secret:memo/whatsapp"]


def test_current_reads_the_environment_once_per_container(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = EscalationRuntime.current()
    monkeypatch.setenv("CASES_TABLE_NAME", "other-cases")
    assert EscalationRuntime.current() is first
    assert first.settings.cases_table_name == "t-cases"
    reset_runtime(EscalationRuntime)
    assert EscalationRuntime.current().settings.cases_table_name == "other-cases"


def test_use_runtime_installs_one_lambdas_runtime_and_reset_forgets_it(calls: Calls) -> None:
    webhook = WebhookRuntime.current()
    installed = ExecutorRuntime(ExecutorRuntime.settings_model.from_env({}))
    use_runtime(installed)
    assert ExecutorRuntime.current() is installed
    assert WebhookRuntime.current() is webhook
    reset_runtime(ExecutorRuntime)
    assert ExecutorRuntime.current() is not installed
    assert WebhookRuntime.current() is webhook
    reset_runtime()
    assert WebhookRuntime.current() is not webhook


def test_a_missing_required_setting_names_its_variable(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASES_TABLE_NAME")
    with pytest.raises(ConfigurationError, match="CASES_TABLE_NAME"):
        EscalationRuntime.current()
    with pytest.raises(ConfigurationError, match="CASES_TABLE_NAME"):
        ReviewRuntime.current()
    monkeypatch.setenv("REVIEW_STORE", "sqlite")
    assert ReviewRuntime.current().settings.store == "sqlite"


def test_settings_a_runtime_needs_later_are_named_when_first_needed(calls: Calls) -> None:
    webhook = WebhookRuntime.current()
    with pytest.raises(ConfigurationError, match="TURN_QUEUE_URL"):
        _ = IngressRuntime.current().queue
    with pytest.raises(ConfigurationError, match="EXECUTOR_STATE_MACHINE_ARN"):
        webhook.executions.start(object())  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="REMINDER_TARGET_ARN, REMINDER_SCHEDULER_ROLE_ARN"):
        _ = ExecutorRuntime.current().capabilities
