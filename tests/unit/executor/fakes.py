"""Fakes for the executor's ports: a capability executor that counts side effects, an in-memory
ledger with the same conditional semantics as the DynamoDB one, and a settable clock."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from memo.capabilities.base import ExecutionContext, ExecutionResult
from memo.executor.contracts import Approval, StepTask, args_hash
from memo.executor.ledger import (
    Claim,
    ClaimLost,
    LedgerEntry,
    OperationAlreadyClaimed,
    replay_of,
)

T0 = datetime(2025, 3, 2, 9, 0, tzinfo=UTC)


@dataclass
class CountingCapabilities:
    """Each successful call is one side effect; `fail_with` makes the next calls raise instead."""

    side_effects: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    calls: int = 0
    fail_with: list[BaseException] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def execute(
        self, capability: str, action: str, args: dict[str, Any], ctx: ExecutionContext
    ) -> ExecutionResult:
        with self.lock:
            self.calls += 1
            if self.fail_with:
                raise self.fail_with.pop(0)
            if ctx.first_write is not None:
                ctx.first_write.sent()  # the side effect's write carries the claim (or is refused)
            self.side_effects.append((capability, action, args))
            count = len(self.side_effects)
        return ExecutionResult(
            success=True,
            capability=capability,
            action=action,
            data={"title": args.get("title", ""), "n": count},
            external_ids={"reminderId": f"r-{ctx.step_id}"},
            summary=f"done {ctx.step_id}",
        )


@dataclass
class MemoryPendingClaim:
    """The claim a step's first write carries. In memory the write and its condition are one call:
    `sent()` claims (completed, when the operation said what its one transaction does and the entry
    last given out was for that transaction), or raises what a lost transaction raises (`refused`)
    when an entry exists."""

    def __init__(self, ledger: MemoryLedger, pending: LedgerEntry) -> None:
        self.ledger = ledger
        self.pending = pending
        self.was_sent = False
        self.was_completed = False
        self._result_of: Callable[[Sequence[str]], ExecutionResult] | None = None
        self._written: Sequence[str] | None = None

    @property
    def claim(self) -> Claim:
        return Claim(self.pending.operation_id, self.pending.attempt_id)

    def completed_as(self, result_of: Callable[[Sequence[str]], ExecutionResult]) -> None:
        self._result_of = result_of

    def entry_for(self, written: Sequence[str] | None) -> dict[str, Any]:
        self._written = written
        return {}

    def sent(self) -> None:
        found = self.ledger.entries.get(self.pending.operation_id)
        if found is not None:
            raise OperationAlreadyClaimed(self.pending.operation_id, entry=found)
        entry = self.pending
        if self._result_of is not None and self._written is not None:
            entry = replace(entry, status="completed", replay=replay_of(self._result_of(self._written)))
            self.was_completed = True
        self.ledger.entries[self.pending.operation_id] = entry
        self.was_sent = True

    def refused(self, found: dict[str, Any] | None) -> Exception:
        return OperationAlreadyClaimed(self.pending.operation_id)


class MemoryLedger:
    def __init__(self) -> None:
        self.entries: dict[str, LedgerEntry] = {}

    def get(self, operation_id: str) -> LedgerEntry | None:
        return self.entries.get(operation_id)

    def claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> Claim:
        if operation_id in self.entries:  # like DynamoDB's ALL_OLD: the entry that won comes back
            raise OperationAlreadyClaimed(operation_id, entry=self.entries[operation_id])
        attempt = uuid.uuid4().hex
        self.entries[operation_id] = LedgerEntry(
            operation_id=operation_id,
            capability=capability,
            step_id=step_id,
            args_hash=args_hash,
            at=at,
            status="in_progress",
            attempt_id=attempt,
        )
        return Claim(operation_id, attempt)

    def pending_claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> MemoryPendingClaim:
        attempt = uuid.uuid4().hex
        entry = LedgerEntry(
            operation_id=operation_id,
            capability=capability,
            step_id=step_id,
            args_hash=args_hash,
            at=at,
            status="in_progress",
            attempt_id=attempt,
        )
        return MemoryPendingClaim(self, entry)

    def take_over(self, entry: LedgerEntry, *, at: datetime) -> Claim:
        current = self.entries.get(entry.operation_id)
        if current is None or current.status != "in_progress" or current.attempt_id != entry.attempt_id:
            raise OperationAlreadyClaimed(entry.operation_id, entry=current)
        attempt = uuid.uuid4().hex
        self.entries[entry.operation_id] = replace(
            current, attempt_id=attempt, at=at, reruns=current.reruns + 1
        )
        return Claim(entry.operation_id, attempt)

    def _held(self, claim: Claim) -> LedgerEntry:
        entry = self.entries.get(claim.operation_id)
        if entry is None or entry.status != "in_progress" or entry.attempt_id != claim.attempt_id:
            raise ClaimLost(claim.operation_id)
        return entry

    def complete(self, claim: Claim, result: ExecutionResult, *, at: datetime) -> None:
        entry = self._held(claim)
        self.entries[claim.operation_id] = replace(entry, status="completed", replay=replay_of(result))

    def forget_replays(self) -> None:
        """Completed entries as an earlier release left them: without their replay."""
        self.entries = {op: replace(e, replay=None) for op, e in self.entries.items()}

    def release(self, claim: Claim) -> None:
        self._held(claim)
        del self.entries[claim.operation_id]


def task(
    step_id: str = "s1",
    *,
    trace_id: str = "wamid.T1",
    args: dict[str, Any] | None = None,
    approval: Approval | None = None,
    capability: str = "reminders",
    action: str = "create",
) -> StepTask:
    values = args if args is not None else {"title": "call mom", "when": "2025-03-02T18:00:00+00:00"}
    return StepTask(
        trace_id=trace_id,
        thread_id="972501234567",
        step_id=step_id,
        capability=capability,
        action=action,
        args=values,
        args_hash=args_hash(values),
        approval=approval,
    )


def approval_for(args: dict[str, Any], *, expires_at: datetime) -> Approval:
    return Approval(hitl_id="h-1", args_hash=args_hash(args), expires_at=expires_at)
