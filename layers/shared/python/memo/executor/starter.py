"""What starting the executor for one turn requires: a runnable plan, within Step Functions' limits.

The input carries only what the steps and the responder need, as compact JSON, and is refused with a
clear error when it is still over Step Functions' 256 KiB limit, or when it has more steps than the
responder's input can carry the outcomes of (`MAX_EXECUTION_STEPS`). The turn checks both before it
records anything (`memo.turn.execute`), so the person hears why; the start checks again. The start
itself (one execution per traceId, a second start a no-op) is `memo.aws.stepfunctions.ExecutionStarter`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from memo.errors import MemoError
from memo.executor.contracts import MAX_EXECUTION_INPUT_BYTES, MAX_EXECUTION_STEPS, ExecutionInput
from memo.observability import logger

# Where the turn finds the executor state machine (set by the CDK construct and the local glue).
STATE_MACHINE_ENV_VAR = "EXECUTOR_STATE_MACHINE_ARN"


class InvalidExecutionInput(MemoError):
    """The plan cannot be run as given (no steps, an empty group, a step of another turn, a duplicate id)."""

    code = "INVALID_EXECUTION_INPUT"
    http_status = 400


class ExecutionInputTooLarge(MemoError):
    """The execution input is over Step Functions' limit even after trimming."""

    code = "EXECUTION_INPUT_TOO_LARGE"
    http_status = 413

    def __init__(self, size: int, limit: int = MAX_EXECUTION_INPUT_BYTES) -> None:
        super().__init__(
            f"the executor input is {size} bytes, over the Step Functions limit of {limit} bytes; "
            "split the plan or shorten the steps' arguments"
        )
        self.size = size
        self.limit = limit


class TooManySteps(MemoError):
    """The plan has more steps than one execution runs (`MAX_EXECUTION_STEPS`)."""

    code = "TOO_MANY_STEPS"
    http_status = 413

    def __init__(self, steps: int, limit: int = MAX_EXECUTION_STEPS) -> None:
        super().__init__(f"the plan has {steps} steps; one execution runs at most {limit}")
        self.steps = steps
        self.limit = limit


@dataclass(frozen=True)
class StartedExecution:
    name: str
    execution_arn: str
    already_started: bool  # True: this turn's execution existed already; nothing new was started


def execution_payload(execution: ExecutionInput) -> str:
    """The execution input as compact JSON: unset optional fields (an absent approval) are left out.
    Raises `InvalidExecutionInput` for a plan that cannot run, `TooManySteps` past the number of
    steps and `ExecutionInputTooLarge` past the size one execution takes."""
    _check_plan(execution)
    steps = sum(len(group) for group in execution.groups)
    if steps > MAX_EXECUTION_STEPS:
        logger.error("EXECUTION_TOO_MANY_STEPS", extra={"steps": steps, "limit": MAX_EXECUTION_STEPS})
        raise TooManySteps(steps)
    payload = execution.model_dump_json(exclude_none=True)
    # Counted as the largest reading of Step Functions' limit: every character past ASCII escaped.
    size = len(json.dumps(json.loads(payload)))
    if size > MAX_EXECUTION_INPUT_BYTES:
        logger.error("EXECUTION_INPUT_TOO_LARGE", extra={"bytes": size, "limit": MAX_EXECUTION_INPUT_BYTES})
        raise ExecutionInputTooLarge(size)
    return payload


def _check_plan(execution: ExecutionInput) -> None:
    if not execution.groups:
        raise InvalidExecutionInput("the plan has no steps")
    seen: set[str] = set()
    for index, group in enumerate(execution.groups):
        if not group:
            raise InvalidExecutionInput(f"dependency group {index} has no steps")
        for step in group:
            if step.trace_id != execution.trace_id:
                raise InvalidExecutionInput(f"step {step.step_id} belongs to another turn")
            if step.step_id in seen:
                raise InvalidExecutionInput(f"step id {step.step_id} appears twice")
            seen.add(step.step_id)
