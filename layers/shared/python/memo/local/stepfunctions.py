"""The executor state machine on moto: the deployed ASL, run by moto, its Lambda tasks run in-process.

- moto executes state machines when its `stepfunctions.execute_state_machine` config is on (then the
  StepFunctions API is served by its ASL interpreter, `moto.stepfunctions.parser`).
- A `lambda:invoke` task then calls moto's Lambda API. With `lambda.use_docker` off, moto serves it
  from `LambdaSimpleBackend`, whose `invoke` only echoes; `install` replaces that method on the
  region's backend instance with a dispatcher that hands the event to our handler, as the Lambda
  Python runtime would: the handler's return value is the payload, an exception becomes a function
  error whose `errorType` is the exception's class name (what the ASL's Retry/Catch match).
- The definition is `infra/statemachine/executor.asl.json`, the file `cdk deploy` uses, with the
  same `${...}` substitutions filled with the local functions' ARNs.

In-process moto only: with AWS_ENDPOINT_URL set, the Lambda tasks would run in another process.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

import boto3
from botocore.exceptions import ClientError

from memo.aws.stepfunctions import ExecutionStarter
from memo.executor.contracts import ExecutionInput
from memo.executor.starter import STATE_MACHINE_ENV_VAR, StartedExecution
from memo.local.context import LocalLambdaContext
from memo.local.functions import REPO_ROOT, Handler

ASL_PATH = REPO_ROOT / "infra" / "statemachine" / "executor.asl.json"
EXECUTOR_SUBSTITUTION = "ExecutorFunctionArn"
RESPONDER_SUBSTITUTION = "ResponderFunctionArn"
REVIEW_SUBMIT_SUBSTITUTION = "ReviewSubmitFunctionArn"
# Logical handler name (the directory under functions/) -> (local function name, ASL substitution).
FUNCTIONS: Mapping[str, tuple[str, str]] = {
    "executor": ("memo-executor", EXECUTOR_SUBSTITUTION),
    "responder": ("memo-responder", RESPONDER_SUBSTITUTION),
    "review_submit": ("memo-review-submit", REVIEW_SUBMIT_SUBSTITUTION),
}
# Handlers `install` needs; without a review_submit handler a step sent to review fails (as a
# function error) and the responder says so.
REQUIRED_FUNCTIONS = frozenset({"executor", "responder"})
STATE_MACHINE_NAME = "memo-executor"
ROLE_NAME = "memo-executor-local"
MOTO_CONFIG: dict[str, Any] = {
    "lambda": {"use_docker": False},
    "stepfunctions": {"execute_state_machine": True},
}
TERMINAL_STATUSES = frozenset({"SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"})
# How often `wait` re-reads the status when no invocation finished in between (the last transition,
# from the responder's return to SUCCEEDED, has no invocation to signal it).
STATUS_RECHECK_SECONDS = 0.02
_PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+)\}")


class LocalStepFunctionsUnavailable(RuntimeError):
    """The glue needs moto in this process (Lambda tasks are dispatched to in-process handlers)."""


class LambdaServiceFault(Exception):
    """Raised by a (test) handler to make the invocation fail as `Lambda.ServiceException` — the Lambda
    service failing around the function — instead of as a function error. The dispatcher turns it
    into the service error, after whatever the handler did before raising it."""


def render_definition(substitutions: Mapping[str, str], path: Path = ASL_PATH) -> str:
    """The ASL with `${Name}` replaced, as CDK's `definition_substitutions` does; every placeholder
    must be given, and the result must still be JSON."""
    text = path.read_text(encoding="utf-8")
    missing = sorted({name for name in _PLACEHOLDER.findall(text) if name not in substitutions})
    if missing:
        raise ValueError(f"{path.name}: no value for {', '.join(missing)}")
    rendered = _PLACEHOLDER.sub(lambda match: substitutions[match.group(1)], text)
    json.loads(rendered)
    return rendered


@dataclass(frozen=True)
class Invocation:
    function_name: str
    event: Any


class LambdaDispatcher:
    """Stands in for `LambdaSimpleBackend.invoke`: runs the handler registered for the function."""

    def __init__(self, backend: Any, handlers: Mapping[str, Handler]) -> None:
        self._backend = backend
        self._handlers = dict(handlers)  # by function name
        self.changed = threading.Condition()
        self.invocations: list[Invocation] = []  # finished ones, guarded by `changed`

    def register(self, function_name: str, handler: Handler) -> None:
        """Run `handler` for invocations of `function_name` too (a function created on moto by the
        caller, e.g. the reminders function the Scheduler invokes, in the IAM tests)."""
        self._handlers[function_name] = handler

    def invoke(
        self,
        function_name: str,
        qualifier: str | None,
        body: Any,
        headers: Any,
        response_headers: dict[str, str],
    ) -> bytes:
        name = self._backend.get_function(function_name, qualifier).function_name
        handler = self._handlers[name]
        event = json.loads(body) if body else {}
        try:
            result = handler(event, LocalLambdaContext(function_name=name))
            payload = json.dumps(result)
        except LambdaServiceFault as fault:
            from moto.awslambda.exceptions import LambdaClientError

            error = LambdaClientError("ServiceException", str(fault) or "simulated Lambda service fault")
            error.code = 500
            raise error from fault
        # The Lambda runtime's contract: whatever the handler raises is reported as a function error
        # named after its class; this is the one place that has to catch everything.
        except Exception as exc:  # noqa: BLE001
            response_headers["x-amz-function-error"] = "Unhandled"
            payload = json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)})
        finally:
            with self.changed:
                self.invocations.append(Invocation(name, event))
                self.changed.notify_all()
        response_headers["Content-Length"] = str(len(payload.encode()))
        return payload.encode()


class LocalStepFunctions:
    """The executor state machine on moto, with `start` (as the turn does) and `wait` for tests."""

    def __init__(
        self,
        *,
        sfn: Any,
        state_machine_arn: str,
        dispatcher: LambdaDispatcher,
        restore: list[Any],
    ) -> None:
        self.sfn = sfn
        self.state_machine_arn = state_machine_arn
        self.dispatcher = dispatcher
        self.starter = ExecutionStarter(sfn, state_machine_arn)
        self._restore = restore
        self._reported: set[str] = set()

    @property
    def invocations(self) -> list[Invocation]:
        with self.dispatcher.changed:
            return list(self.dispatcher.invocations)

    def start(self, execution: ExecutionInput) -> StartedExecution:
        return self.starter.start(execution)

    def wait(self, execution_arn: str, *, timeout: float = 60.0) -> dict[str, Any]:
        """Block until the execution ends; returns `DescribeExecution`. Woken by every finished Lambda
        invocation, re-checking at most every STATUS_RECHECK_SECONDS; `TimeoutError` after `timeout`."""
        changed = self.dispatcher.changed
        deadline = time.monotonic() + timeout
        while True:
            with changed:
                seen = len(self.dispatcher.invocations)
            # Read outside the lock: moto's worker thread needs it to record an invocation.
            description: dict[str, Any] = self.sfn.describe_execution(executionArn=execution_arn)
            if description["status"] in TERMINAL_STATUSES:
                return description
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{execution_arn} still {description['status']} after {timeout}s")
            with changed:
                changed.wait_for(
                    self._finished_more_than(seen), timeout=min(remaining, STATUS_RECHECK_SECONDS)
                )

    def wait_all(self, *, timeout: float = 60.0) -> list[dict[str, Any]]:
        """Block until no execution of the state machine is running (tests: "the turn is done").

        Returns the executions that ended since the last call, oldest first, whether they were still
        running at this call or had already finished on moto's worker thread before it."""
        new = sorted(self._unreported(), key=lambda e: e["startDate"])
        done = [self.wait(e["executionArn"], timeout=timeout) for e in new]
        self._reported.update(e["executionArn"] for e in new)
        return done

    def _unreported(self) -> list[dict[str, Any]]:
        """The running executions, and the newest ones (Step Functions lists newest first) down to the
        first already reported: every older one was reported by an earlier call, so the cost stays
        with what is new, not with the history."""
        found = {
            e["executionArn"]: e
            for e in self.sfn.list_executions(
                stateMachineArn=self.state_machine_arn, statusFilter="RUNNING"
            ).get("executions", [])
        }
        request: dict[str, Any] = {"stateMachineArn": self.state_machine_arn, "maxResults": 10}
        reached_reported = False
        while not reached_reported:
            page = self.sfn.list_executions(**request)
            for execution in page.get("executions", []):
                if execution["executionArn"] in self._reported:
                    reached_reported = True
                    break
                found[execution["executionArn"]] = execution
            if not page.get("nextToken"):
                break
            request["nextToken"] = page["nextToken"]
        return [e for arn, e in found.items() if arn not in self._reported]

    def _finished_more_than(self, seen: int) -> Callable[[], bool]:
        return lambda: len(self.dispatcher.invocations) != seen

    def run(self, execution: ExecutionInput, *, timeout: float = 60.0) -> dict[str, Any]:
        """Start and wait: the execution's final `DescribeExecution`."""
        return self.wait(self.start(execution).execution_arn, timeout=timeout)

    def close(self) -> None:
        """Undo `install` (call it before moto stops)."""
        while self._restore:
            self._restore.pop()()


def _create_role(iam: Any) -> str:
    trust = {
        "Version": "2012-10-17",
        "Statement": [
            {"Effect": "Allow", "Principal": {"Service": "states.amazonaws.com"}, "Action": "sts:AssumeRole"}
        ],
    }
    try:
        return str(
            iam.create_role(RoleName=ROLE_NAME, AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "EntityAlreadyExists":
            raise
        return str(iam.get_role(RoleName=ROLE_NAME)["Role"]["Arn"])


def _create_function(lambda_client: Any, name: str, role_arn: str) -> str:
    try:
        return str(
            lambda_client.create_function(
                FunctionName=name,
                Runtime="python3.13",
                Role=role_arn,
                Handler="handler.handler",
                Code={"ZipFile": b"in-process handler"},
            )["FunctionArn"]
        )
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ResourceConflictException":
            raise
        return str(lambda_client.get_function(FunctionName=name)["Configuration"]["FunctionArn"])


def _create_state_machine(sfn: Any, definition: str, role_arn: str) -> str:
    for machine in sfn.list_state_machines()["stateMachines"]:
        if machine["name"] == STATE_MACHINE_NAME:
            sfn.update_state_machine(stateMachineArn=machine["stateMachineArn"], definition=definition)
            return str(machine["stateMachineArn"])
    return str(
        sfn.create_state_machine(
            name=STATE_MACHINE_NAME, definition=definition, roleArn=role_arn, type="STANDARD"
        )["stateMachineArn"]
    )


def _send_task_failure_with_cause(self: Any) -> Any:
    from moto.core.responses import EmptyResult

    self.stepfunction_backend.send_task_failure(
        self._get_param("taskToken"), error=self._get_param("error"), cause=self._get_param("cause")
    )
    return EmptyResult()


class _IsPresentNoise(logging.Filter):
    """moto's ASL engine evaluates `IsPresent` on a missing path by raising and catching
    NoSuchJsonPathError, and logs that as an error although the Choice is valid and works; keep that
    one message out of the chat (every other error of the engine still shows)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "NoSuchJsonPathError" not in record.getMessage()


_EVAL_LOGGER = "moto.stepfunctions.parser.asl.component.eval_component"


def install(env: MutableMapping[str, str], *, handlers: Mapping[str, Handler]) -> LocalStepFunctions:
    """Run the executor state machine on the in-process moto (already started).

    `handlers` maps "executor", "responder" and optionally "review_submit" to handler callables
    (`load_handler(name)` for the real ones). Sets EXECUTOR_STATE_MACHINE_ARN in `env`. Returns the running glue; `close()` it
    before moto stops.
    """
    if env.get("AWS_ENDPOINT_URL"):
        raise LocalStepFunctionsUnavailable(
            "the local executor state machine runs on in-process moto only; unset AWS_ENDPOINT_URL"
        )
    unknown = set(handlers) - set(FUNCTIONS)
    if unknown or not set(handlers) >= REQUIRED_FUNCTIONS:
        raise ValueError(
            f"handlers must be {sorted(REQUIRED_FUNCTIONS)} and optionally review_submit, got {sorted(handlers)}"
        )

    from moto.awslambda_simple.models import lambda_simple_backends
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.core.config import default_user_config
    from moto.stepfunctions.responses import StepFunctionResponse

    restore: list[Any] = []
    noise, eval_logger = _IsPresentNoise(), logging.getLogger(_EVAL_LOGGER)
    eval_logger.addFilter(noise)
    restore.append(lambda: eval_logger.removeFilter(noise))
    config = patch.dict(default_user_config, MOTO_CONFIG)
    config.start()
    restore.append(config.stop)

    # moto's SendTaskFailure handler drops `cause` (the backend takes it): pass it on, so a Catch sees
    # the operator's reason as Step Functions gives it.
    failure = patch.object(StepFunctionResponse, "send_task_failure", _send_task_failure_with_cause)
    failure.start()
    restore.append(failure.stop)

    region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1"
    backend = lambda_simple_backends[DEFAULT_ACCOUNT_ID][region]
    dispatcher = LambdaDispatcher(backend, {FUNCTIONS[key][0]: handler for key, handler in handlers.items()})
    # An instance attribute shadows LambdaSimpleBackend.invoke for this region's backend only.
    setattr(backend, "invoke", dispatcher.invoke)  # noqa: B010
    restore.append(lambda: vars(backend).pop("invoke", None))

    session = boto3.session.Session(region_name=region)
    role_arn = _create_role(session.client("iam"))
    lambda_client = session.client("lambda")
    substitutions = {
        substitution: _create_function(lambda_client, function_name, role_arn)
        for function_name, substitution in FUNCTIONS.values()
    }
    sfn = session.client("stepfunctions")
    state_machine_arn = _create_state_machine(sfn, render_definition(substitutions), role_arn)
    env[STATE_MACHINE_ENV_VAR] = state_machine_arn
    return LocalStepFunctions(
        sfn=sfn, state_machine_arn=state_machine_arn, dispatcher=dispatcher, restore=restore
    )
