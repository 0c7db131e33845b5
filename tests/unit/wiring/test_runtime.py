"""`memo.wiring`: one pattern for all seven Lambdas. A runtime is built from its settings and builds
nothing (no AWS client, no secret lookup) until an adapter is first asked for; `current()` reads the
environment once per container; `use_runtime` / `reset_runtime` are how tests and the local stack
install and forget runtimes; a missing setting is a `ConfigurationError` naming the variable."""

from __future__ import annotations

from typing import Any

import pytest

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
from tests.unit.wiring.conftest import Calls

RUNTIMES: list[type[LambdaRuntime[Any]]] = [
    WebhookRuntime,
    ExecutorRuntime,
    ReplyRuntime,
    RemindersRuntime,
    ReviewSubmitRuntime,
    ReviewRuntime,
    EscalationRuntime,
]


@pytest.mark.parametrize("runtime", RUNTIMES, ids=lambda runtime: runtime.__name__)
def test_a_runtime_builds_nothing_until_an_adapter_is_used(
    runtime: type[LambdaRuntime[Any]], calls: Calls
) -> None:
    built = runtime.current()
    assert isinstance(built.settings, FunctionSettings)
    assert isinstance(built.settings, runtime.settings_model)
    assert calls.made == []


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


def test_settings_a_runtime_needs_later_are_named_when_first_needed(calls: Calls) -> None:
    webhook = WebhookRuntime.current()
    with pytest.raises(ConfigurationError, match="TURN_QUEUE_URL"):
        _ = IngressRuntime.current().queue
    with pytest.raises(ConfigurationError, match="EXECUTOR_STATE_MACHINE_ARN"):
        webhook.executions.start(object())  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="REMINDER_TARGET_ARN, REMINDER_SCHEDULER_ROLE_ARN"):
        _ = ExecutorRuntime.current().capabilities
