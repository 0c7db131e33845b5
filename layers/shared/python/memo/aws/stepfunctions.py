"""Step Functions: starting the executor for a turn, and answering a waiting step's task token.

- `ExecutionStarter` (the turn's `ExecutionPort`): one execution per traceId. The execution name is
  derived from the traceId, so starting the same turn twice (a redelivered message, a retried turn)
  is a no-op: `ExecutionAlreadyExists` counts as success. The input is checked and sized by
  `memo.executor.starter.execution_payload` before the call.
- `StepFunctionsTasks` (the review listener's `TaskAnswers`): SendTaskSuccess / SendTaskFailure; a
  token Step Functions no longer knows (TaskTimedOut / InvalidToken / TaskDoesNotExist) is `TaskGone`.
Every other error comes out as a `TransientFault` / `ServiceFault`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from memo.aws.faults import error_code, fault
from memo.executor.contracts import ExecutionInput, execution_name
from memo.executor.starter import StartedExecution, execution_payload
from memo.observability import logger
from memo.operator_review.tokens import TaskGone

if TYPE_CHECKING:
    from mypy_boto3_stepfunctions import SFNClient

EXECUTION_ALREADY_EXISTS = "ExecutionAlreadyExists"
GONE_TOKEN_ERRORS = frozenset({"TaskTimedOut", "InvalidToken", "TaskDoesNotExist"})


def _execution_arn(state_machine_arn: str, name: str) -> str:
    # arn:aws:states:<region>:<account>:stateMachine:<machine> -> ...:execution:<machine>:<name>
    return state_machine_arn.replace(":stateMachine:", ":execution:", 1) + f":{name}"


class ExecutionStarter:
    def __init__(self, sfn_client: SFNClient, state_machine_arn: str) -> None:
        self._sfn = sfn_client
        self._arn = state_machine_arn

    def start(self, execution: ExecutionInput) -> StartedExecution:
        payload = execution_payload(execution)
        size = len(payload.encode("utf-8"))
        name = execution_name(execution.trace_id)
        try:
            response = self._sfn.start_execution(stateMachineArn=self._arn, name=name, input=payload)
        except ClientError as exc:
            if error_code(exc) != EXECUTION_ALREADY_EXISTS:
                raise fault(exc) from exc
            logger.info("EXECUTION_ALREADY_STARTED", extra={"executionName": name})
            return StartedExecution(
                name=name, execution_arn=_execution_arn(self._arn, name), already_started=True
            )
        except BotoCoreError as exc:
            raise fault(exc) from exc
        # The execution's name is the traceId's hash (`execution_name`): the bound traceId names it.
        steps = sum(len(group) for group in execution.groups)
        logger.info("EXECUTION_STARTED", extra={"steps": steps, "bytes": size})
        return StartedExecution(name=name, execution_arn=response["executionArn"], already_started=False)


class StepFunctionsTasks:
    def __init__(self, sfn_client: SFNClient) -> None:
        self._sfn = sfn_client

    def succeed(self, task_token: str, output: str) -> None:
        self._answer(self._sfn.send_task_success, taskToken=task_token, output=output)

    def fail(self, task_token: str, *, error: str, cause: str) -> None:
        self._answer(self._sfn.send_task_failure, taskToken=task_token, error=error, cause=cause)

    def _answer(self, operation: Callable[..., object], **request: Any) -> None:
        try:
            operation(**request)
        except ClientError as exc:
            code = error_code(exc)
            if code in GONE_TOKEN_ERRORS:
                raise TaskGone(code) from exc
            raise fault(exc) from exc
        except BotoCoreError as exc:
            raise fault(exc) from exc
