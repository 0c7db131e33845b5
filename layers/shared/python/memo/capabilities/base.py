"""The capability port: what the executor calls to perform one resolved plan step.

Implementations (reminders, notes, lists on DynamoDB) live next to this module; the executor Lambda
only sees `CapabilityExecutor`. Args are the step's *resolved* executor args (entity ids already
chosen by entity resolution); a capability never guesses a target.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from memo.text.language import Language


@runtime_checkable
class FirstWrite(Protocol):
    """A write the executor asks an operation to make in one transaction with its first side effect
    (the step's claim in the ledger, `memo.executor.step`), which saves it a request of its own.

    `entry_for(written)` is that write as one TransactWriteItems entry, for a transaction that writes
    the items `written` (their ids), and None when more transactions follow. An operation whose
    result is known from what its one transaction writes says how (`completed_as`): the entry then
    completes the step too (one request fewer again). The adapter that sends it calls `sent()` once
    the transaction went through, and raises `refused(found)` when this entry's condition failed
    (`found`: the item in its way, or None): then nothing of the transaction happened."""

    def entry_for(self, written: Sequence[str] | None) -> dict[str, Any]: ...

    def completed_as(self, result_of: Callable[[Sequence[str]], ExecutionResult]) -> None: ...

    def sent(self) -> None: ...

    def refused(self, found: dict[str, Any] | None) -> Exception: ...


class ExecutionContext(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    thread_id: str
    trace_id: str
    step_id: str
    timezone: str = "UTC"
    language: Language = "en"
    now: AwareDatetime
    phone_number_id: str | None = None  # the business number the user wrote to (reminders reply from it)
    #: When the approval covering this step was asked (`Approval.asked_at`): a delete leaves alone an
    #: item edited after it, since the person approved it as it was. None: no approval pins it.
    unchanged_since: AwareDatetime | None = None
    #: Set when this run re-does an attempt of the same step that crashed mid-way (when that attempt
    #: started): an operation whose result would depend on what that attempt did raises `RerunUnsafe`.
    rerun_of: AwareDatetime | None = None
    #: The titles the person was shown for the items the args name, by id (an approval's list):
    #: the reply names what was done with them. None: not shown, the reply counts instead.
    titles: dict[str, str] | None = None
    #: Set for an action whose first write carries the step's claim (`memo.executor.step`): that
    #: write must include it, and no side effect may come before it.
    first_write: FirstWrite | None = Field(default=None, exclude=True)


class ExecutionResult(BaseModel):
    """The full result of one step. `data` may hold user content (PII): it travels in the execution
    and is used to word the reply, but never goes into the idempotency ledger."""

    model_config = ConfigDict(frozen=True)

    success: bool
    capability: str
    action: str
    data: dict[str, Any] = Field(default_factory=dict)
    external_ids: dict[str, str | list[str]] = Field(default_factory=dict)
    summary: str = ""  # short, user-facing: what was done ("reminder “call mom”"), for latestActions
    when: AwareDatetime | None = None
    error_code: str | None = None  # e.g. NOT_FOUND, CAPABILITY_UNAVAILABLE, IDEMPOTENCY_MISSING_RESULT
    error: str | None = None


class CapabilityError(Exception):
    """A step that cannot be performed for a reason the user should hear (not a transient fault)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RerunUnsafe(Exception):
    """Raised by an operation run again after a crashed attempt (`ExecutionContext.rerun_of`) when it
    cannot tell the true result from here (a create whose time passed meanwhile: the crashed attempt
    may have set it, and it may even have fired). The executor answers "can't confirm" instead."""


class CapabilityExecutor(Protocol):
    def execute(
        self, capability: str, action: str, args: dict[str, Any], ctx: ExecutionContext
    ) -> ExecutionResult:
        """Perform the side effect once. Transient AWS faults raise (Step Functions retries);
        a user-level failure returns `success=False` with an `error_code`."""


class ReminderScheduler(Protocol):
    """One EventBridge Scheduler schedule per reminder (one-time, or recurring for a series), in the
    user's timezone."""

    def schedule(
        self,
        *,
        reminder_id: str,
        thread_id: str,
        at: datetime,
        timezone: str,
        recurrence: str | None = None,
        not_before: datetime | None = None,
    ) -> str:
        """Create or move the reminder's schedule; returns the schedule name. With `recurrence` (a
        series, `memo.text.recurrence`) it is one recurring schedule instead of a one-time one,
        starting no earlier than the series' next time after `not_before` (a series made again)."""

    def cancel(self, schedule_name: str) -> None:
        """Delete the schedule; deleting one that is already gone is not an error."""
