"""Executor Lambda: one Step Functions task = one plan step (`StepTask` in, `StepOutcome` out). Wiring
only. `StepInProgress` and `TransientStepFailure` propagate: Lambda reports their class name as the
error type, which the state machine's Retry matches; anything else is caught there into a failed outcome.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.executor.contracts import StepTask
from memo.executor.step import run_step
from memo.observability import bind_turn, count, logger, metrics, tracer, unbind_turn
from memo.wiring.executor import ExecutorRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    task, runtime = StepTask.model_validate(event), ExecutorRuntime.current()
    bind_turn(task.trace_id, task.thread_id, stepId=task.step_id)
    try:
        outcome = run_step(
            task,
            capabilities=runtime.capabilities,
            ledger=runtime.ledger,
            clock=runtime.clock,
            lease_seconds=runtime.settings.step_lease_seconds,
        )
    finally:
        unbind_turn()
    if outcome.replayed:
        count("ExecutorStepsReplayed")
    else:
        count("ExecutorStepsSucceeded" if outcome.result.success else "ExecutorStepsFailed")
    return outcome.model_dump(mode="json")
