"""One plan step, performed at most once: the logic behind the executor Lambda.

`run_step` answers a `StepTask` with a `StepOutcome`. Its first request is the claim of the
operation (traceId:stepId) in the ledger, a conditional put with no read before it; for an action
of `CLAIMED_BY_FIRST_WRITE` that put goes in the transaction of the action's first write instead
(`_start`: a lost claim cancels it, so nothing happens, and is answered as below):

1. The claim is won (the common case): the approval binding is checked first (args still hash to
   what was approved, approval not expired: otherwise the step is refused and nothing is written),
   the capability runs once, and the result is stored with the completed entry (that write is
   retried in place: the side effect has happened, so the person is told the truth even if the
   ledger stays unreachable). An action whose one transaction carries the claim and is all it
   writes completes the entry in that transaction: no write follows.
2. The claim is lost: the failed put returns the entry that holds the operation, so no read is
   needed to learn what happened:
   - completed -> the entry's replay is the outcome (`replayed=True`); no side effect. An entry
     without one (completed by an earlier release), a safe failure `IDEMPOTENCY_MISSING_RESULT`
     (the step is never run a second time);
   - in progress and younger than the lease -> another attempt may still be running: `StepInProgress`
     is raised and Step Functions retries later, when that attempt has completed;
   - in progress and older than the lease -> the attempt crashed somewhere between claim and complete,
     so whether its side effect happened is unknown. A step that is safe to run again
     (`memo.executor.reruns`: idempotent by construction, decided per action) takes the claim over
     (conditional on the crashed attempt's id: of two re-runs one wins, the other waits) and runs
     again with `ExecutionContext.rerun_of` set: it finishes what the crashed attempt began and the
     person hears the true result once. Any other step (or one re-run `MAX_RERUNS` times already, or
     an operation refusing with `RerunUnsafe`) ends in a safe failure `IDEMPOTENCY_MISSING_RESULT`.
   A step refused by its approval (expired since, or args changed) is looked up in the ledger before
   the refusal is answered: an earlier attempt that ran it wins, so a late retry replays the truth;
   it is never re-run (the approval no longer covers it), so a crashed attempt stays "can't confirm".

Every outcome leaves held to `MAX_STEP_OUTCOME_BYTES` (`memo.executor.results.bounded`): it is a
Step Functions state's output and one of the outcomes the responder's input carries; the ledger keeps
its replay (`memo.executor.ledger.replay_of`).

A capability whose AWS call failed (a `ServiceFault` from an adapter: throttling, a 5xx, a timeout,
or any other refused call) has, by the `CapabilityExecutor` contract, not done its side effect (or
does it idempotently when run again): its claim is released and `TransientStepFailure` is raised for
Step Functions to retry. Any other exception keeps the claim, so
a later re-run ends in the safe failure instead of repeating an effect that may have happened.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta

from memo.capabilities.base import (
    CapabilityError,
    CapabilityExecutor,
    ExecutionContext,
    ExecutionResult,
    RerunUnsafe,
)
from memo.clock import Clock
from memo.errors import ServiceFault
from memo.executor.contracts import StepOutcome, StepTask, args_hash
from memo.executor.ledger import (
    COMPLETED,
    Claim,
    ClaimLost,
    Ledger,
    LedgerEntry,
    OperationAlreadyClaimed,
    operation_id,
)
from memo.executor.reruns import may_rerun
from memo.executor.results import bounded
from memo.observability import logger

IDEMPOTENCY_MISSING_RESULT = "IDEMPOTENCY_MISSING_RESULT"
APPROVAL_ARGS_CHANGED = "APPROVAL_ARGS_CHANGED"
APPROVAL_EXPIRED = "APPROVAL_EXPIRED"
ARGS_HASH_MISMATCH = "ARGS_HASH_MISMATCH"
DEFAULT_LEASE_SECONDS = 90
# Waits between attempts to record a completed step (three more tries, about 1.4 s in all).
COMPLETE_BACKOFF_SECONDS = (0.2, 0.4, 0.8)
# A step whose re-runs keep crashing (it dies the same way each time) is not run a fourth time.
MAX_RERUNS = 2
# Actions whose first write carries the step's claim (`ExecutionContext.first_write`): nothing of
# theirs happens before that write, and one that writes nothing has done nothing.
CLAIMED_BY_FIRST_WRITE = frozenset({("reminders", "delete_all")})


class StepRetryable(Exception):
    """Raised out of the executor Lambda for Step Functions to retry; the class name is the error name
    the state machine's Retry matches (the Lambda runtime reports it as `errorType`)."""


class StepInProgress(StepRetryable):
    """Another attempt holds the operation's claim and may still be running."""


class TransientStepFailure(StepRetryable):
    """The capability's AWS call failed before doing its side effect; the claim was released."""


def _failed(task: StepTask, code: str, message: str) -> StepOutcome:
    return StepOutcome(
        step_id=task.step_id,
        result=ExecutionResult(
            success=False, capability=task.capability, action=task.action, error_code=code, error=message
        ),
    )


def _refusal(task: StepTask, computed_hash: str, now: datetime) -> StepOutcome | None:
    """Why this step must not run at all, if it must not: its approval no longer covers it.

    The hash is computed here from the args the executor received (JSON, as Step Functions passed
    them), never taken from the task: that is what makes an edit after approval visible.
    """
    if task.args_hash != computed_hash:
        # Not a refusal by itself (only an approval binds args), but the turn and the executor
        # disagree on the hash: worth an alarm-able log line.
        logger.warning(ARGS_HASH_MISMATCH, extra={"stepId": task.step_id, "capability": task.capability})
    approval = task.approval
    if approval is None:
        return None
    if approval.args_hash != computed_hash:
        logger.warning(
            APPROVAL_ARGS_CHANGED,
            extra={"stepId": task.step_id, "hitlId": approval.hitl_id, "capability": task.capability},
        )
        return _failed(task, APPROVAL_ARGS_CHANGED, "The step changed after it was approved; it was not run.")
    if now > approval.expires_at:
        logger.warning(
            APPROVAL_EXPIRED,
            extra={
                "stepId": task.step_id,
                "hitlId": approval.hitl_id,
                "expiresAt": approval.expires_at.isoformat(),
            },
        )
        return _failed(task, APPROVAL_EXPIRED, "The approval expired before the step ran; it was not run.")
    return None


def _from_ledger(
    task: StepTask, entry: LedgerEntry, *, computed_hash: str, now: datetime, lease: timedelta
) -> StepOutcome:
    """A re-run (Step Functions retry or redrive, redelivered turn, resume): never a second side effect."""
    fields = {"operationId": entry.operation_id, "stepId": task.step_id, "capability": entry.capability}
    if entry.args_hash != computed_hash:
        logger.warning("IDEMPOTENCY_ARGS_DRIFT", extra=fields)
    if entry.status == COMPLETED:
        stored = entry.replay
        if stored is None:
            logger.error(IDEMPOTENCY_MISSING_RESULT, extra={**fields, "reason": "result_missing"})
            return _failed(
                task,
                IDEMPOTENCY_MISSING_RESULT,
                "This step already ran, but its result is no longer available.",
            )
        logger.info("STEP_REPLAYED", extra={**fields, "success": stored.success})
        # A result an earlier release stored may be larger than an outcome may be now.
        return StepOutcome(step_id=task.step_id, result=bounded(stored, step_id=task.step_id), replayed=True)
    if now < entry.at + lease:
        logger.info("STEP_IN_PROGRESS", extra=fields)
        raise StepInProgress(f"operation {entry.operation_id} is held by another attempt")
    logger.error(IDEMPOTENCY_MISSING_RESULT, extra={**fields, "reason": "attempt_abandoned"})
    return _abandoned(task)


def _abandoned(task: StepTask) -> StepOutcome:
    return _failed(
        task,
        IDEMPOTENCY_MISSING_RESULT,
        "An earlier attempt of this step did not finish; it was not repeated.",
    )


def _crashed(entry: LedgerEntry, now: datetime, lease: timedelta) -> bool:
    """An attempt holds the claim but its lease ran out: it died between claim and complete."""
    return entry.status != COMPLETED and now >= entry.at + lease


def _take_over(
    task: StepTask,
    entry: LedgerEntry,
    *,
    ledger: Ledger,
    computed_hash: str,
    now: datetime,
    lease: timedelta,
) -> Claim | StepOutcome:
    """A crashed attempt of a step that is safe to run again: take its claim over (the caller runs
    the step). Anything else is answered from the ledger (`_from_ledger`)."""
    rerun = (
        _crashed(entry, now, lease)
        and entry.args_hash == computed_hash
        and entry.reruns < MAX_RERUNS
        and may_rerun(task.capability, task.action, task.args)
    )
    if not rerun:
        return _from_ledger(task, entry, computed_hash=computed_hash, now=now, lease=lease)
    try:
        claim = ledger.take_over(entry, at=now)
    except OperationAlreadyClaimed as lost:
        # Another re-run took it over (now in progress: wait for it) or it was settled meanwhile.
        latest = lost.entry if lost.entry is not None else ledger.get(entry.operation_id)
        if latest is None or _crashed(latest, now, lease):
            raise StepInProgress(f"operation {entry.operation_id} changed hands while taking over") from None
        return _from_ledger(task, latest, computed_hash=computed_hash, now=now, lease=lease)
    logger.warning(
        "STEP_RERUN",
        extra={
            "operationId": entry.operation_id,
            "stepId": task.step_id,
            "capability": task.capability,
            "action": task.action,
            "crashedAt": entry.at.isoformat(),
            "rerun": entry.reruns + 1,
        },
    )
    return claim


def _complete(
    ledger: Ledger,
    claim: Claim,
    result: ExecutionResult,
    *,
    clock: Clock,
    sleep: Callable[[float], None],
    step_id: str,
) -> None:
    """Record the result of a side effect that has happened, retrying in place.

    The capability already ran: failing the step now would tell the person "couldn't confirm" about
    an item that exists, and a retry of the step would only find its own claim. So the write is
    retried here; if the ledger stays unreachable, the true result still goes back to the person and
    the entry keeps its claim, which makes any later re-run a safe failure rather than a repeat.
    """
    for attempt, delay in enumerate((*COMPLETE_BACKOFF_SECONDS, None), start=1):
        try:
            ledger.complete(claim, result, at=clock())
            return
        except ClaimLost:
            # This attempt outlived its lease and a re-run took the claim over: that re-run
            # records the (same, idempotent) result; this one is still true for its caller.
            logger.warning("STEP_COMPLETION_TAKEN_OVER", extra={"operationId": claim.operation_id})
            return
        except ServiceFault as exc:
            fields = {"operationId": claim.operation_id, "stepId": step_id, "attempt": attempt}
            if delay is None:
                logger.error("STEP_COMPLETION_UNRECORDED", extra={**fields, "error": type(exc).__name__})
                return
            logger.warning("STEP_COMPLETION_RETRY", extra={**fields, "error": type(exc).__name__})
            sleep(delay)


def run_step(
    task: StepTask,
    *,
    capabilities: CapabilityExecutor,
    ledger: Ledger,
    clock: Clock,
    lease_seconds: int = DEFAULT_LEASE_SECONDS,
    sleep: Callable[[float], None] = time.sleep,
) -> StepOutcome:
    op_id = operation_id(task.trace_id, task.step_id)
    computed_hash = args_hash(task.args)
    lease = timedelta(seconds=lease_seconds)
    now = clock()

    refusal = _refusal(task, computed_hash, now)
    if refusal is not None:
        # Refused now, but an earlier attempt may have run it while the approval still held.
        earlier = ledger.get(op_id)
        if earlier is not None:
            return _from_ledger(task, earlier, computed_hash=computed_hash, now=now, lease=lease)
        return refusal

    started = _start(
        task,
        op_id,
        capabilities=capabilities,
        ledger=ledger,
        computed_hash=computed_hash,
        now=now,
        lease=lease,
    )
    if isinstance(started, StepOutcome):
        return started
    claim, rerun_of, ran, completed = started
    if ran is None:
        ran = _execute(task, capabilities, _context(task, now, rerun_of), ledger=ledger, held=lambda: claim)
    # Held to the size every place the outcome goes takes (Step Functions, the ledger, the responder).
    result = bounded(ran, step_id=task.step_id)
    if not completed:
        _complete(ledger, claim, result, clock=clock, sleep=sleep, step_id=task.step_id)
    logger.info(
        "STEP_EXECUTED",
        extra={
            "operationId": op_id,
            "stepId": task.step_id,
            "capability": task.capability,
            "action": task.action,
            "success": result.success,
            "errorCode": result.error_code,
        },
    )
    return StepOutcome(step_id=task.step_id, result=result)


def _start(
    task: StepTask,
    op_id: str,
    *,
    capabilities: CapabilityExecutor,
    ledger: Ledger,
    computed_hash: str,
    now: datetime,
    lease: timedelta,
) -> tuple[Claim, datetime | None, ExecutionResult | None, bool] | StepOutcome:
    """The claim of the operation, with the start of the crashed attempt it takes over (None for a
    first run), the step's result when the step's first write carried the claim (None: the step is
    still to run), and whether that write completed the entry too; or the outcome of the attempt
    that holds the claim.

    An action of `CLAIMED_BY_FIRST_WRITE` runs at once, its claim in the transaction of its first
    write (one request fewer; one more when that transaction is the whole step and completes the
    entry). One that wrote nothing (nothing to delete) did nothing: its claim is made then, as any
    step's, and a lost one answers as any lost claim (the result is dropped)."""
    if (task.capability, task.action) not in CLAIMED_BY_FIRST_WRITE:
        claimed = _claim(task, op_id, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease)
        return claimed if isinstance(claimed, StepOutcome) else (*claimed, None, False)
    pending = ledger.pending_claim(
        op_id, capability=task.capability, step_id=task.step_id, args_hash=computed_hash, at=now
    )
    ctx = _context(task, now, None).model_copy(update={"first_write": pending})
    try:
        result = _execute(
            task, capabilities, ctx, ledger=ledger, held=lambda: pending.claim if pending.was_sent else None
        )
    except OperationAlreadyClaimed as lost:
        taken = _claim_lost(
            task, lost, op_id, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease
        )
        return taken if isinstance(taken, StepOutcome) else (*taken, None, False)
    if pending.was_sent:
        return pending.claim, None, result, pending.was_completed
    claimed = _claim(task, op_id, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease)
    if isinstance(claimed, StepOutcome):
        return claimed
    claim, rerun_of = claimed
    return claim, rerun_of, result if rerun_of is None else None, False


def _claim(
    task: StepTask, op_id: str, *, ledger: Ledger, computed_hash: str, now: datetime, lease: timedelta
) -> tuple[Claim, datetime | None] | StepOutcome:
    """The claim of the operation, with the start of the crashed attempt it takes over (None for a
    first run); or the outcome of the attempt that holds it."""
    try:
        claim = ledger.claim(
            op_id, capability=task.capability, step_id=task.step_id, args_hash=computed_hash, at=now
        )
    except OperationAlreadyClaimed as lost:
        return _claim_lost(
            task, lost, op_id, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease
        )
    return claim, None


def _claim_lost(
    task: StepTask,
    lost: OperationAlreadyClaimed,
    op_id: str,
    *,
    ledger: Ledger,
    computed_hash: str,
    now: datetime,
    lease: timedelta,
) -> tuple[Claim, datetime] | StepOutcome:
    """A re-run (Step Functions retry or redrive, redelivered turn, resume) or a concurrent attempt:
    the claim taken over from a crashed attempt (with when that attempt started), or the outcome."""
    entry = lost.entry if lost.entry is not None else ledger.get(op_id)
    if entry is None:  # claimed and released again in between: let Step Functions try later
        raise StepInProgress(f"operation {op_id} changed hands while claiming") from None
    taken = _take_over(task, entry, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease)
    if isinstance(taken, StepOutcome):
        return taken
    return taken, entry.at


def _context(task: StepTask, now: datetime, rerun_of: datetime | None) -> ExecutionContext:
    return ExecutionContext(
        thread_id=task.thread_id,
        trace_id=task.trace_id,
        step_id=task.step_id,
        timezone=task.timezone,
        language=task.language,
        now=now,
        phone_number_id=task.phone_number_id,
        unchanged_since=task.approval.asked_at if task.approval is not None else None,
        rerun_of=rerun_of,
        titles=task.titles,
    )


def _execute(
    task: StepTask,
    capabilities: CapabilityExecutor,
    ctx: ExecutionContext,
    *,
    ledger: Ledger,
    held: Callable[[], Claim | None],
) -> ExecutionResult:
    """Run the capability under the claim `held` returns (None: not made yet, the first write
    carries it). A `ServiceFault` releases a held claim and raises `TransientStepFailure` (nothing
    happened: Step Functions retries)."""
    op_id = operation_id(task.trace_id, task.step_id)
    try:
        return capabilities.execute(task.capability, task.action, dict(task.args), ctx)
    except RerunUnsafe as exc:
        # Only a re-run raises it; its claim is kept and settled with the truthful failure.
        logger.error(
            IDEMPOTENCY_MISSING_RESULT,
            extra={
                "operationId": op_id,
                "stepId": task.step_id,
                "reason": "rerun_unsafe",
                "detail": str(exc),
            },
        )
        return _abandoned(task).result
    except CapabilityError as exc:
        return ExecutionResult(
            success=False,
            capability=task.capability,
            action=task.action,
            error_code=exc.code,
            error=exc.message,
        )
    except ServiceFault as exc:
        claim = held()
        try:
            if claim is not None:
                ledger.release(claim)
        except ClaimLost:
            logger.error("STEP_CLAIM_LOST", extra={"operationId": op_id, "stepId": task.step_id})
        logger.warning(
            "STEP_TRANSIENT_FAILURE",
            extra={"operationId": op_id, "stepId": task.step_id, "error": type(exc).__name__},
        )
        raise TransientStepFailure(f"operation {op_id}: transient fault ({type(exc).__name__})") from exc
