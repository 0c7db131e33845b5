"""The executor's idempotency ledger: its rules and its port.

One entry per operation (operationId = traceId:stepId): capability, argsHash, at, status
(`in_progress` while an attempt holds the claim, then `completed` with the step's replay). `claim` is
exclusive: exactly one attempt of a step ever gets to perform its side effect, and it is the step's
first request (no read before it): a lost claim comes back with the entry that won
(`OperationAlreadyClaimed.entry`), so a re-run learns what happened from the same request. An attempt
that crashed between claim and complete leaves its claim `in_progress`; once its lease has run out,
a re-run of a step that is safe to run again (`memo.executor.reruns`) takes the claim over
(`take_over`: conditional on the crashed attempt's id, so two re-runs never both win; the entry
counts its `reruns`). For some actions the claim is not a request of its own: it goes in the
transaction of the step's first write (`pending_claim`, `memo.executor.step`), and when that one
transaction is all the step writes to the table, the claim goes in completed (`completed_as`).

`complete` marks the entry completed with the step's replay (`replay_of`): what a re-run of the
completed step answers with instead of running again. The full result travels on in the execution
(Step Functions carries it to the responder); the replay keeps none of the user's words: success,
action, the error's code, the ids, the time, the counts, and the end of an undo window (the "Undo"
button). A lost race is a domain error
(`OperationAlreadyClaimed`, `ClaimLost`). The DynamoDB adapter is `memo.aws.ledger_table.DynamoLedger`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from memo.capabilities.base import ExecutionResult
from memo.capabilities.common import UNDO_UNTIL
from memo.errors import MemoError

IN_PROGRESS = "in_progress"
COMPLETED = "completed"

LedgerStatus = Literal["in_progress", "completed"]


def operation_id(trace_id: str, step_id: str) -> str:
    return f"{trace_id}:{step_id}"


def replay_of(result: ExecutionResult) -> ExecutionResult:
    """What the ledger keeps of a step's result for a re-run of the completed step: none of the
    user's words (no texts of its data, no summary or error text), so none stay in the ledger. It
    keeps whether it worked, the error's code, the ids, the time, the counts of its data ("Deleted 3
    reminders.") and the end of an undo window: the replayed reply says what was done (or why not,
    by the code) and still offers the "Undo" it offered the first time."""
    kept: dict[str, Any] = {k: v for k, v in result.data.items() if type(v) is int}
    if UNDO_UNTIL in result.data:
        kept[UNDO_UNTIL] = result.data[UNDO_UNTIL]
    return result.model_copy(update={"data": kept, "summary": "", "error": None})


@dataclass(frozen=True)
class LedgerEntry:
    operation_id: str
    capability: str
    step_id: str
    args_hash: str
    at: datetime
    status: LedgerStatus
    attempt_id: str
    replay: ExecutionResult | None = None  # a completed entry's (`replay_of` its result)
    reruns: int = 0  # how many times a crashed attempt's claim was taken over

    @property
    def success(self) -> bool | None:
        return self.replay.success if self.replay is not None else None


@dataclass(frozen=True)
class Claim:
    """The right of one attempt to perform the operation's side effect, then complete or release it."""

    operation_id: str
    attempt_id: str


class PendingClaim(Protocol):
    """A claim not made yet: the `FirstWrite` (`memo.capabilities.base`) the step's first write
    carries. `was_sent` once that write went through: from then on `claim` is held, and with
    `was_completed` the entry is completed too, with the replay of the result the operation said
    that write would have (`completed_as`)."""

    @property
    def claim(self) -> Claim: ...

    @property
    def was_sent(self) -> bool: ...

    @property
    def was_completed(self) -> bool: ...

    def entry_for(self, written: Sequence[str] | None) -> dict[str, Any]: ...

    def completed_as(self, result_of: Callable[[Sequence[str]], ExecutionResult]) -> None: ...

    def sent(self) -> None: ...

    def refused(self, found: dict[str, Any] | None) -> Exception: ...


class OperationAlreadyClaimed(MemoError):
    """Another attempt already claimed (or completed) this operation; `entry` is the entry that
    stands in the way, when the failed claim returned it (None: read it with `Ledger.get`)."""

    code = "OPERATION_ALREADY_CLAIMED"
    http_status = 409

    def __init__(self, message: str, *, entry: LedgerEntry | None = None) -> None:
        super().__init__(message)
        self.entry = entry


class ClaimLost(MemoError):
    """The claim is no longer held by this attempt (completed, released or expired by someone else)."""

    code = "CLAIM_LOST"
    http_status = 409


class Ledger(Protocol):
    def get(self, operation_id: str) -> LedgerEntry | None: ...

    def claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> Claim:
        """A conditional create, with no read before it; raises `OperationAlreadyClaimed` (carrying
        the existing entry) when an entry exists."""
        ...

    def pending_claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> PendingClaim:
        """The claim `claim` would make, not made: for the step's first write to carry (its
        `refused` is the `OperationAlreadyClaimed` `claim` would raise)."""
        ...

    def take_over(self, entry: LedgerEntry, *, at: datetime) -> Claim:
        """Claim an `in_progress` entry for a new attempt, conditional on the entry still holding the
        attempt `entry` names (its lease has run out: that attempt crashed); restarts the lease at
        `at` and counts the re-run. Raises `OperationAlreadyClaimed` (carrying the entry that is
        there now) when another attempt took it over, completed or released it first."""
        ...

    def complete(self, claim: Claim, result: ExecutionResult, *, at: datetime) -> None:
        """Mark the entry completed with the result's replay (`replay_of`); raises `ClaimLost`."""
        ...

    def release(self, claim: Claim) -> None:
        """Remove an in-progress entry whose side effect did not happen; raises `ClaimLost`."""
        ...
