"""Wiring of the executor Lambda: adapters built lazily from `ExecutorSettings`, once per process.

The handler asks `ExecutorRuntime.current()`. Tests and the local stack build their own runtime
(with a fake `CapabilityExecutor`, a fixed clock) and install it with `use_runtime`, or call
`reset_runtime()` after changing the environment.
"""

from __future__ import annotations

from functools import cached_property

from memo.aws.clients import client_for
from memo.capabilities.base import CapabilityExecutor
from memo.clock import Clock, utc_now
from memo.errors import MemoError
from memo.executor.contracts import StepOutcome, StepTask
from memo.executor.ledger import DynamoLedger
from memo.executor.settings import SCHEDULE_ROLE_ENV_VAR, SCHEDULE_TARGET_ENV_VAR, ExecutorSettings
from memo.executor.step import run_step


class ExecutorConfigurationError(MemoError):
    code = "CONFIGURATION_ERROR"
    http_status = 500


def build_capabilities(settings: ExecutorSettings, clock: Clock) -> CapabilityExecutor:
    """The DynamoDB-backed capabilities, imported on first use (a replayed step never needs them)."""
    missing = [
        name
        for name, value in (
            (SCHEDULE_TARGET_ENV_VAR, settings.schedule_target_arn),
            (SCHEDULE_ROLE_ENV_VAR, settings.schedule_role_arn),
        )
        if not value
    ]
    if missing or settings.schedule_target_arn is None or settings.schedule_role_arn is None:
        raise ExecutorConfigurationError(f"the executor needs {', '.join(missing)} to schedule reminders")

    from memo.capabilities.dispatch import DynamoCapabilityExecutor
    from memo.capabilities.scheduler import EventBridgeReminderScheduler
    from memo.capabilities.store import DynamoItemsRepository

    return DynamoCapabilityExecutor(
        DynamoItemsRepository(client_for("dynamodb", settings.aws), settings.items_table),
        EventBridgeReminderScheduler(
            client_for("scheduler", settings.aws),
            group_name=settings.schedule_group,
            target_arn=settings.schedule_target_arn,
            role_arn=settings.schedule_role_arn,
        ),
        clock,
    )


class ExecutorRuntime:
    def __init__(
        self,
        settings: ExecutorSettings,
        *,
        capabilities: CapabilityExecutor | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.settings = settings
        self._capabilities = capabilities
        self.clock = clock

    @cached_property
    def ledger(self) -> DynamoLedger:
        return DynamoLedger(
            client_for("dynamodb", self.settings.aws),
            self.settings.ledger_table,
            ttl_seconds=self.settings.ledger_ttl_seconds,
            result_ttl_seconds=self.settings.result_ttl_seconds,
        )

    @cached_property
    def capabilities(self) -> CapabilityExecutor:
        if self._capabilities is not None:
            return self._capabilities
        return build_capabilities(self.settings, self.clock)

    def run(self, task: StepTask) -> StepOutcome:
        return run_step(
            task,
            capabilities=self.capabilities,
            ledger=self.ledger,
            clock=self.clock,
            lease_seconds=self.settings.step_lease_seconds,
        )

    @classmethod
    def current(cls) -> ExecutorRuntime:
        global _current
        if _current is None:
            _current = cls(ExecutorSettings.load())
        return _current


_current: ExecutorRuntime | None = None


def use_runtime(runtime: ExecutorRuntime) -> None:
    global _current
    _current = runtime


def reset_runtime() -> None:
    global _current
    _current = None
