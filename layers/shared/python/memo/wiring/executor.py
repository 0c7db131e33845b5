"""Wiring of the executor Lambda (`memo.wiring` pattern): the ledger and the capabilities,
built on first use. Tests pass a fake `CapabilityExecutor`."""

from __future__ import annotations

from functools import cached_property

from memo.aws.clients import client_for
from memo.aws.ledger_table import DynamoLedger
from memo.capabilities.base import CapabilityExecutor
from memo.clock import Clock, utc_now
from memo.settings import SCHEDULE_ROLE_ENV_VAR, SCHEDULE_TARGET_ENV_VAR, ConfigurationError, ExecutorSettings
from memo.wiring import LambdaRuntime


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
        raise ConfigurationError(f"the executor needs {', '.join(missing)} to schedule reminders")

    from memo.aws.items_table import DynamoItemsRepository
    from memo.aws.scheduler import EventBridgeReminderScheduler
    from memo.capabilities.dispatch import CapabilityDispatcher

    return CapabilityDispatcher(
        DynamoItemsRepository(client_for("dynamodb", settings.aws), settings.items_table),
        EventBridgeReminderScheduler(
            client_for("scheduler", settings.aws),
            group_name=settings.schedule_group,
            target_arn=settings.schedule_target_arn,
            role_arn=settings.schedule_role_arn,
            delivery=settings.schedule_delivery,
        ),
        clock,
        settings.recurrence.limits,
        note_max_chars=settings.texts.note_max_chars,
    )


class ExecutorRuntime(LambdaRuntime[ExecutorSettings]):
    settings_model = ExecutorSettings

    def __init__(
        self,
        settings: ExecutorSettings,
        *,
        capabilities: CapabilityExecutor | None = None,
        clock: Clock = utc_now,
    ) -> None:
        super().__init__(settings, clock=clock)
        self._capabilities = capabilities

    @cached_property
    def ledger(self) -> DynamoLedger:
        return DynamoLedger(
            client_for("dynamodb", self.settings.aws),
            self.settings.ledger_table,
            ttl_seconds=self.settings.ledger_ttl_seconds,
        )

    @cached_property
    def capabilities(self) -> CapabilityExecutor:
        if self._capabilities is not None:
            return self._capabilities
        return build_capabilities(self.settings, self.clock)
