"""The deployed ASL on moto's Step Functions engine, its Lambda tasks run in-process by the glue."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from memo.executor.contracts import ExecutionInput, ResponderInput, StepOutcome, StepTask
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from memo.local.stepfunctions import (
    ASL_PATH,
    LambdaServiceFault,
    LocalStepFunctions,
    LocalStepFunctionsUnavailable,
    install,
    render_definition,
)
from tests.unit.executor.fakes import CountingCapabilities, task

ENV = {"AWS_REGION": "us-east-1"}


class Recorder:
    """Fake executor and responder handlers that record what ran, and in which order."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.timeline: list[tuple[str, str]] = []
        self.responses: list[ResponderInput] = []
        self.together = threading.Barrier(2, timeout=20)

    def executor(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        step = StepTask.model_validate(event)
        with self.lock:
            self.timeline.append(("start", step.step_id))
        if step.step_id in {"a", "b"}:
            self.together.wait()  # returns only when both steps of the group are running at once
        if step.step_id == "bad":
            raise RuntimeError("the capability blew up")
        with self.lock:
            self.timeline.append(("end", step.step_id))
        result = {
            "success": True,
            "capability": step.capability,
            "action": step.action,
            "summary": step.step_id,
        }
        return StepOutcome.model_validate({"step_id": step.step_id, "result": result}).model_dump(mode="json")

    def responder(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        with self.lock:
            self.responses.append(ResponderInput.model_validate(event))
        return {"sent": True}


def plan(*groups: list[StepTask], trace_id: str = "wamid.T1") -> ExecutionInput:
    return ExecutionInput(
        trace_id=trace_id,
        thread_id="972501234567",
        phone_number_id="pn-1",
        language="he",
        timezone="Asia/Jerusalem",
        groups=[list(g) for g in groups],
    )


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def fake_glue(aws: None, recorder: Recorder) -> Iterator[LocalStepFunctions]:
    glue = install(dict(ENV), handlers={"executor": recorder.executor, "responder": recorder.responder})
    yield glue
    glue.close()


def test_groups_run_in_order_steps_in_parallel_and_a_failed_step_is_caught(
    fake_glue: LocalStepFunctions, recorder: Recorder
) -> None:
    execution = plan([task("a"), task("bad"), task("b")], [task("c")])

    final = fake_glue.run(execution, timeout=60)

    assert final["status"] == "SUCCEEDED", final
    assert json.loads(final["output"]) == {"sent": True}
    first_group_ends = [
        i for i, (kind, step) in enumerate(recorder.timeline) if kind == "end" and step in "ab"
    ]
    second_group_start = recorder.timeline.index(("start", "c"))
    assert len(first_group_ends) == 2 and max(first_group_ends) < second_group_start

    (response,) = recorder.responses
    assert (response.trace_id, response.language, response.timezone) == ("wamid.T1", "he", "Asia/Jerusalem")
    assert [o.step_id for o in response.outcomes] == ["a", "bad", "b", "c"]
    failed = response.outcomes[1].result
    assert (failed.success, failed.error_code, failed.error) == (False, "STEP_FAILED", "RuntimeError")
    assert (failed.capability, failed.action) == ("reminders", "create")
    assert all(o.result.success for o in response.outcomes if o.step_id != "bad")


def test_a_second_start_of_the_same_turn_is_a_no_op(
    fake_glue: LocalStepFunctions, recorder: Recorder
) -> None:
    execution = plan([task("c")])
    first = fake_glue.start(execution)
    fake_glue.wait(first.execution_arn)

    again = fake_glue.start(execution)

    assert again.already_started and again.execution_arn == first.execution_arn
    listed = fake_glue.sfn.list_executions(stateMachineArn=fake_glue.state_machine_arn)["executions"]
    assert len(listed) == 1
    assert len(recorder.responses) == 1


def test_wait_all_reports_each_execution_once_even_one_that_ended_before_it_was_called(
    fake_glue: LocalStepFunctions,
) -> None:
    first = fake_glue.start(plan([task("c")], trace_id="wamid.T1"))
    fake_glue.wait(first.execution_arn)  # ended before wait_all looks: still reported
    (done,) = fake_glue.wait_all(timeout=60)
    assert done["executionArn"] == first.execution_arn and done["status"] == "SUCCEEDED"

    second = fake_glue.start(plan([task("d", trace_id="wamid.T2")], trace_id="wamid.T2"))
    (done,) = fake_glue.wait_all(timeout=60)
    assert done["executionArn"] == second.execution_arn
    assert fake_glue.wait_all(timeout=60) == []


@pytest.fixture
def real_glue(runtime: Any, recorder: Recorder) -> Iterator[LocalStepFunctions]:
    """The real executor handler (ledger on moto, counting capabilities); the first invocation of
    step s1 loses its response after the step ran, as a Lambda service fault."""
    executor = load_handler("executor")
    faults = {"s1": 1}

    def flaky_executor(event: dict[str, Any], context: LocalLambdaContext) -> Any:
        answer = executor(event, context)
        if faults.get(event["step_id"], 0) > 0:
            faults[event["step_id"]] -= 1
            raise LambdaServiceFault("response lost after the function ran")
        return answer

    glue = install(dict(ENV), handlers={"executor": flaky_executor, "responder": recorder.responder})
    yield glue
    glue.close()


def test_a_step_retried_after_it_already_ran_has_no_second_side_effect(
    real_glue: LocalStepFunctions, recorder: Recorder, capabilities: CountingCapabilities
) -> None:
    final = real_glue.run(plan([task("s1"), task("s2")]), timeout=60)

    assert final["status"] == "SUCCEEDED", final
    s1_invocations = [
        i for i in real_glue.invocations if i.function_name == "memo-executor" and i.event["step_id"] == "s1"
    ]
    assert len(s1_invocations) == 2  # Step Functions retried the task
    assert [args["title"] for _, _, args in capabilities.side_effects] == [
        "call mom",
        "call mom",
    ]  # s1 and s2
    (response,) = recorder.responses
    by_step = {o.step_id: o for o in response.outcomes}
    assert by_step["s1"].replayed and by_step["s1"].result.success
    assert not by_step["s2"].replayed


def test_install_publishes_the_machine_and_needs_in_process_moto(aws: None, recorder: Recorder) -> None:
    handlers = {"executor": recorder.executor, "responder": recorder.responder}
    with pytest.raises(LocalStepFunctionsUnavailable):
        install({**ENV, "AWS_ENDPOINT_URL": "http://127.0.0.1:5000"}, handlers=handlers)
    with pytest.raises(ValueError, match="handlers"):
        install(dict(ENV), handlers={"executor": recorder.executor})

    env = dict(ENV)
    glue = install(env, handlers=handlers)
    try:
        assert env["EXECUTOR_STATE_MACHINE_ARN"] == glue.state_machine_arn
        described = glue.sfn.describe_state_machine(stateMachineArn=glue.state_machine_arn)
        assert described["type"] == "STANDARD"
        assert (
            '"FunctionName": "arn:aws:lambda:us-east-1:123456789012:function:memo-executor"'
            in (described["definition"])
        )
    finally:
        glue.close()


def test_the_definition_needs_every_substitution() -> None:
    with pytest.raises(ValueError, match="ResponderFunctionArn"):
        render_definition({"ExecutorFunctionArn": "arn:aws:lambda:us-east-1:1:function:x"})

    rendered = render_definition(
        {"ExecutorFunctionArn": "arn:e", "ResponderFunctionArn": "arn:r", "ReviewSubmitFunctionArn": "arn:s"},
        ASL_PATH,
    )
    assert "${" not in rendered and '"arn:e"' in rendered and '"arn:r"' in rendered


def test_a_killed_executor_is_retried_like_a_lambda_service_error() -> None:
    """A Lambda that timed out (`Sandbox.Timedout`; `Lambda.Unknown` for timeouts and out-of-memory
    kills) or a task past its own TimeoutSeconds (`States.Timeout`) is retried, not caught into a
    failed step: the retry waits out the lease, then re-runs a step that is safe to re-run."""
    states = json.loads(ASL_PATH.read_text(encoding="utf-8"))["States"]["RunGroups"]["ItemProcessor"]
    execute = states["States"]["RunSteps"]["ItemProcessor"]["States"]["ExecuteStep"]
    by_error = {error: retry for retry in execute["Retry"] for error in retry["ErrorEquals"]}
    service = {k: v for k, v in by_error["Lambda.ServiceException"].items() if k != "ErrorEquals"}
    for killed in ("Sandbox.Timedout", "Lambda.Unknown", "States.Timeout"):
        assert {k: v for k, v in by_error[killed].items() if k != "ErrorEquals"} == service, killed
    assert "States.ALL" not in by_error and "States.TaskFailed" not in by_error
