"""One plan step, performed at most once: the logic behind the executor Lambda.

`run_step` answers a `StepTask` with a `StepOutcome`:

1. The ledger already holds the operation (traceId:stepId):
   - completed -> the stored result is reused (`replayed=True`); no side effect. If the stored result
     is gone, a safe failure `IDEMPOTENCY_MISSING_RESULT` (the step is never run a second time);
   - in progress and younger than the lease -> another attempt may still be running: `StepInProgress`
     is raised and Step Functions retries later, when that attempt has completed;
   - in progress and older than the lease -> the attempt crashed somewhere between claim and complete,
     so whether its side effect happened is unknown: a safe failure `IDEMPOTENCY_MISSING_RESULT`.
2. Otherwise the approval binding is checked (args still hash to what was approved, approval not
   expired), the operation is claimed by a conditional put, the capability runs once, and the result
   is stored with the completed entry (that write is retried in place: the side effect has happened,
   so the person is told the truth even if the ledger stays unreachable).

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

from memo.capabilities.base import CapabilityError, CapabilityExecutor, ExecutionContext, ExecutionResult
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
from memo.observability import logger

IDEMPOTENCY_MISSING_RESULT = "IDEMPOTENCY_MISSING_RESULT"
APPROVAL_ARGS_CHANGED = "APPROVAL_ARGS_CHANGED"
APPROVAL_EXPIRED = "APPROVAL_EXPIRED"
ARGS_HASH_MISMATCH = "ARGS_HASH_MISMATCH"
DEFAULT_LEASE_SECONDS = 90
# Waits between attempts to record a completed step (three more tries, about 1.4 s in all).
COMPLETE_BACKOFF_SECONDS = (0.2, 0.4, 0.8)


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
    task: StepTask, entry: LedgerEntry, *, ledger: Ledger, computed_hash: str, now: datetime, lease: timedelta
) -> StepOutcome:
    """A re-run (Step Functions retry or redrive, redelivered turn, resume): never a second side effect."""
    fields = {"operationId": entry.operation_id, "stepId": task.step_id, "capability": entry.capability}
    if entry.args_hash != computed_hash:
        logger.warning("IDEMPOTENCY_ARGS_DRIFT", extra=fields)
    if entry.status == COMPLETED:
        stored = ledger.result(entry.operation_id)
        if stored is None:
            logger.error(IDEMPOTENCY_MISSING_RESULT, extra={**fields, "reason": "result_missing"})
            return _failed(
                task,
                IDEMPOTENCY_MISSING_RESULT,
                "This step already ran, but its result is no longer available.",
            )
        logger.info("STEP_REPLAYED", extra={**fields, "success": stored.success})
        return StepOutcome(step_id=task.step_id, result=stored, replayed=True)
    if now < entry.at + lease:
        logger.info("STEP_IN_PROGRESS", extra=fields)
        raise StepInProgress(f"operation {entry.operation_id} is held by another attempt")
    logger.error(IDEMPOTENCY_MISSING_RESULT, extra={**fields, "reason": "attempt_abandoned"})
    return _failed(
        task,
        IDEMPOTENCY_MISSING_RESULT,
        "An earlier attempt of this step did not finish; it was not repeated.",
    )


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

    entry = ledger.get(op_id)
    if entry is not None:
        return _from_ledger(task, entry, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease)

    refusal = _refusal(task, computed_hash, now)
    if refusal is not None:
        return refusal

    try:
        claim = ledger.claim(
            op_id, capability=task.capability, step_id=task.step_id, args_hash=computed_hash, at=now
        )
    except OperationAlreadyClaimed:
        # Lost a race with a concurrent attempt between the read and the conditional put.
        raced = ledger.get(op_id)
        if raced is None:  # claimed and released again in between: let Step Functions try later
            raise StepInProgress(f"operation {op_id} changed hands while claiming") from None
        return _from_ledger(task, raced, ledger=ledger, computed_hash=computed_hash, now=now, lease=lease)

    ctx = ExecutionContext(
        thread_id=task.thread_id,
        trace_id=task.trace_id,
        step_id=task.step_id,
        timezone=task.timezone,
        language=task.language,
        now=now,
        phone_number_id=task.phone_number_id,
    )
    try:
        result = capabilities.execute(task.capability, task.action, dict(task.args), ctx)
    except CapabilityError as exc:
        result = ExecutionResult(
            success=False,
            capability=task.capability,
            action=task.action,
            error_code=exc.code,
            error=exc.message,
        )
    except ServiceFault as exc:
        try:
            ledger.release(claim)
        except ClaimLost:
            logger.error("STEP_CLAIM_LOST", extra={"operationId": op_id, "stepId": task.step_id})
        logger.warning(
            "STEP_TRANSIENT_FAILURE",
            extra={"operationId": op_id, "stepId": task.step_id, "error": type(exc).__name__},
        )
        raise TransientStepFailure(f"operation {op_id}: transient fault ({type(exc).__name__})") from exc

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
