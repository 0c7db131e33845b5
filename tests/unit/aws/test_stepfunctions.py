"""`memo.aws.stepfunctions.StepFunctionsTasks`: a token Step Functions no longer knows is `TaskGone`;
any other error is a domain fault."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from memo.aws.stepfunctions import StepFunctionsTasks
from memo.errors import TransientFault
from memo.operator_review.tokens import TaskGone


class FakeSfn:
    def __init__(self, error_code: str | None = None) -> None:
        self.error_code = error_code
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def _call(self, name: str, request: dict[str, Any]) -> dict[str, Any]:
        self.calls.append((name, request))
        if self.error_code:
            raise ClientError({"Error": {"Code": self.error_code, "Message": "no"}}, name)
        return {}

    def send_task_success(self, **request: Any) -> dict[str, Any]:
        return self._call("SendTaskSuccess", request)

    def send_task_failure(self, **request: Any) -> dict[str, Any]:
        return self._call("SendTaskFailure", request)


def test_answers_go_to_step_functions() -> None:
    sfn = FakeSfn()
    tasks = StepFunctionsTasks(sfn)

    tasks.succeed("tok-1", '{"ok":true}')
    tasks.fail("tok-2", error="REVIEW_REJECTED", cause="no")

    assert sfn.calls == [
        ("SendTaskSuccess", {"taskToken": "tok-1", "output": '{"ok":true}'}),
        ("SendTaskFailure", {"taskToken": "tok-2", "error": "REVIEW_REJECTED", "cause": "no"}),
    ]


@pytest.mark.parametrize("code", ["TaskTimedOut", "InvalidToken", "TaskDoesNotExist"])
def test_a_token_step_functions_no_longer_knows_is_gone(code: str) -> None:
    with pytest.raises(TaskGone) as gone:
        StepFunctionsTasks(FakeSfn(code)).succeed("tok", "{}")
    assert gone.value.reason == code


def test_throttling_is_a_transient_fault() -> None:
    with pytest.raises(TransientFault):
        StepFunctionsTasks(FakeSfn("ThrottlingException")).fail("tok", error="E", cause="c")
