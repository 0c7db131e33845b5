"""Settings of the executor Lambda (one Step Functions step task), read once from the environment.

The ledger's table and retention, and what the capabilities behind `CapabilityExecutor` need: the
items table and the EventBridge Scheduler group, target (the reminders Lambda) and role.
"""

from __future__ import annotations

import os
from functools import lru_cache

from pydantic import Field

from memo import tables
from memo.settings import AwsSettings, FunctionSettings

SCHEDULE_GROUP_ENV_VAR = "REMINDER_SCHEDULE_GROUP"
SCHEDULE_TARGET_ENV_VAR = "REMINDER_TARGET_ARN"  # the reminders Lambda
SCHEDULE_ROLE_ENV_VAR = "REMINDER_SCHEDULER_ROLE_ARN"  # the role the Scheduler assumes to invoke it

DAY_SECONDS = 24 * 3600
# Step Functions keeps a Standard execution redrivable for 14 days after it started.
DEFAULT_LEDGER_TTL_SECONDS = 14 * DAY_SECONDS


class ExecutorSettings(FunctionSettings):
    aws: AwsSettings
    ledger_table: str = Field(default=tables.LEDGER.default_name, alias="LEDGER_TABLE_NAME", min_length=3)
    items_table: str = Field(default=tables.ITEMS.default_name, alias="ITEMS_TABLE_NAME", min_length=3)
    schedule_group: str = Field(default="memo-reminders", alias=SCHEDULE_GROUP_ENV_VAR, min_length=1)
    schedule_target_arn: str | None = Field(default=None, alias=SCHEDULE_TARGET_ENV_VAR)
    schedule_role_arn: str | None = Field(default=None, alias=SCHEDULE_ROLE_ENV_VAR)
    # The PII-safe ledger entry: how long a re-run (retry, redrive, redelivery) is still recognised.
    ledger_ttl_seconds: int = Field(
        default=DEFAULT_LEDGER_TTL_SECONDS, alias="MEMO_LEDGER_TTL_SECONDS", ge=3600, le=365 * DAY_SECONDS
    )
    # The full result (may hold user content): how long a re-run can still be answered with it.
    # Shorter than the ledger means a late redrive gets a safe IDEMPOTENCY_MISSING_RESULT failure.
    result_ttl_seconds: int = Field(
        default=DEFAULT_LEDGER_TTL_SECONDS,
        alias="MEMO_LEDGER_RESULT_TTL_SECONDS",
        ge=600,
        le=365 * DAY_SECONDS,
    )
    # A claim younger than this may belong to an attempt that is still running: a re-run waits for
    # it (StepInProgress, retried by Step Functions) instead of answering; older means it crashed.
    step_lease_seconds: int = Field(default=90, alias="MEMO_STEP_LEASE_SECONDS", ge=1, le=900)

    @classmethod
    def load(cls) -> ExecutorSettings:
        return _load()


@lru_cache(maxsize=1)
def _load() -> ExecutorSettings:
    return ExecutorSettings.from_env(os.environ)


def reset_executor_settings() -> None:
    """Tests and the local stack change the environment between runs."""
    _load.cache_clear()
