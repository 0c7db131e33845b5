"""ExecutionStarter: one execution per turn, a second start of the same turn is a no-op, and the input
stays within Step Functions' limit or is refused clearly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError

from memo.aws.stepfunctions import ExecutionStarter
from memo.errors import TransientFault
from memo.executor.contracts import (
    MAX_EXECUTION_INPUT_BYTES,
    MAX_EXECUTION_STEPS,
    ExecutionInput,
    execution_name,
)
from memo.executor.starter import ExecutionInputTooLarge, InvalidExecutionInput, TooManySteps

from .fakes import task

MACHINE = "arn:aws:states:us-east-1:123456789012:stateMachine:memo-executor"


class FakeSfn:
    def __init__(self, error_code: str | None = None) -> None:
        self.started: list[dict[str, Any]] = []
        self.error_code = error_code

    def start_execution(self, **kwargs: Any) -> dict[str, Any]:
        self.started.append(kwargs)
        if self.error_code:
            raise ClientError({"Error": {"Code": self.error_code, "Message": "no"}}, "StartExecution")
        return {"executionArn": f"{MACHINE.replace(':stateMachine:', ':execution:')}:{kwargs['name']}"}


def execution(*groups: list, trace_id: str = "wamid.T1") -> ExecutionInput:
    return ExecutionInput(
        trace_id=trace_id, thread_id="972501234567", phone_number_id="pn-1", groups=[list(g) for g in groups]
    )


def test_the_execution_is_named_after_the_turn_and_carries_the_plan() -> None:
    sfn = FakeSfn()
    started = ExecutionStarter(sfn, MACHINE).start(execution([task("s1"), task("s2")], [task("s3")]))

    call = sfn.started[0]
    assert call["stateMachineArn"] == MACHINE
    assert call["name"] == execution_name("wamid.T1") == started.name
    assert len(call["name"]) <= 80
    sent = json.loads(call["input"])
    assert [[s["step_id"] for s in g] for g in sent["groups"]] == [["s1", "s2"], ["s3"]]
    assert "approval" not in sent["groups"][0][0]  # unset optional fields are trimmed
    assert not started.already_started


def test_execution_already_exists_is_success() -> None:
    started = ExecutionStarter(FakeSfn("ExecutionAlreadyExists"), MACHINE).start(execution([task()]))

    assert started.already_started
    assert started.execution_arn.endswith(f":execution:memo-executor:{execution_name('wamid.T1')}")


def test_other_start_errors_propagate_as_domain_faults() -> None:
    with pytest.raises(TransientFault):
        ExecutionStarter(FakeSfn("ThrottlingException"), MACHINE).start(execution([task()]))


def test_an_input_over_the_limit_is_refused_before_calling_step_functions() -> None:
    sfn = FakeSfn()
    big = task(args={"text": "x" * MAX_EXECUTION_INPUT_BYTES})

    with pytest.raises(ExecutionInputTooLarge) as refused:
        ExecutionStarter(sfn, MACHINE).start(execution([big]))

    assert refused.value.size > MAX_EXECUTION_INPUT_BYTES
    assert str(MAX_EXECUTION_INPUT_BYTES) in refused.value.message
    assert sfn.started == []


@pytest.mark.parametrize(
    "plan",
    [
        [],
        [[task("s1")], []],
        [[task("s1"), task("s1")]],
        [[task("s1", trace_id="wamid.OTHER")]],
    ],
    ids=["no steps", "empty group", "duplicate step id", "step of another turn"],
)
def test_plans_that_cannot_run_are_refused(plan: list) -> None:
    sfn = FakeSfn()
    with pytest.raises(InvalidExecutionInput):
        ExecutionStarter(sfn, MACHINE).start(execution(*plan))
    assert sfn.started == []


def test_more_steps_than_one_execution_runs_are_refused_before_calling_step_functions() -> None:
    sfn = FakeSfn()
    steps = [task(f"s{n}") for n in range(MAX_EXECUTION_STEPS + 1)]
    with pytest.raises(TooManySteps) as refused:
        ExecutionStarter(sfn, MACHINE).start(execution(steps))
    assert (refused.value.steps, refused.value.limit) == (MAX_EXECUTION_STEPS + 1, MAX_EXECUTION_STEPS)
    assert sfn.started == []
    ExecutionStarter(sfn, MACHINE).start(execution(steps[:MAX_EXECUTION_STEPS]))
    assert len(sfn.started) == 1
