"""Start the executor state machine for one turn: one execution per traceId, whatever happens.

The execution name is derived from the traceId (`execution_name`), so starting the same turn twice
(a redelivered message, a retried turn) is a no-op: Step Functions answers `ExecutionAlreadyExists`
and that counts as success. The input carries only what the steps and the responder need, as
compact JSON, and is refused with a clear error when it is still over Step Functions' 256 KiB limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

from memo.errors import MemoError
from memo.executor.contracts import MAX_EXECUTION_INPUT_BYTES, ExecutionInput, execution_name
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


@dataclass(frozen=True)
class StartedExecution:
    name: str
    execution_arn: str
    already_started: bool  # True: this turn's execution existed already; nothing new was started


def execution_payload(execution: ExecutionInput) -> str:
    """The execution input as compact JSON: unset optional fields (an absent approval) are left out."""
    _check_plan(execution)
    return execution.model_dump_json(exclude_none=True)


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


def _execution_arn(state_machine_arn: str, name: str) -> str:
    # arn:aws:states:<region>:<account>:stateMachine:<machine> -> ...:execution:<machine>:<name>
    return state_machine_arn.replace(":stateMachine:", ":execution:", 1) + f":{name}"


class ExecutionStarter:
    def __init__(self, sfn_client: Any, state_machine_arn: str) -> None:
        self._sfn = sfn_client
        self._arn = state_machine_arn

    def start(self, execution: ExecutionInput) -> StartedExecution:
        payload = execution_payload(execution)
        size = len(payload.encode("utf-8"))
        if size > MAX_EXECUTION_INPUT_BYTES:
            logger.error(
                "EXECUTION_INPUT_TOO_LARGE", extra={"bytes": size, "limit": MAX_EXECUTION_INPUT_BYTES}
            )
            raise ExecutionInputTooLarge(size)
        name = execution_name(execution.trace_id)
        try:
            response = self._sfn.start_execution(stateMachineArn=self._arn, name=name, input=payload)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "ExecutionAlreadyExists":
                raise
            logger.info("EXECUTION_ALREADY_STARTED", extra={"executionName": name})
            return StartedExecution(
                name=name, execution_arn=_execution_arn(self._arn, name), already_started=True
            )
        steps = sum(len(group) for group in execution.groups)
        logger.info(
            "EXECUTION_STARTED",
            extra={"executionName": name, "groups": len(execution.groups), "steps": steps, "bytes": size},
        )
        return StartedExecution(name=name, execution_arn=response["executionArn"], already_started=False)
