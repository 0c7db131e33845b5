"""The in-process Lambda context answers what Powertools and the handlers ask of a real one."""

from __future__ import annotations

import pytest

from memo.local import context as context_module
from memo.local.context import LocalLambdaContext


def test_the_context_names_its_function() -> None:
    context = LocalLambdaContext(function_name="memo-reminders-local")
    assert (
        context.invoked_function_arn == "arn:aws:lambda:us-east-1:123456789012:function:memo-reminders-local"
    )
    assert context.log_group_name == "/aws/lambda/memo-reminders-local"
    assert context.aws_request_id != LocalLambdaContext().aws_request_id


def test_the_remaining_time_counts_down_to_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(context_module.time, "monotonic", lambda: now[0])
    context = LocalLambdaContext(timeout_seconds=3, _started=100.0)
    assert context.get_remaining_time_in_millis() == 3000
    now[0] += 1
    assert context.get_remaining_time_in_millis() == 2000
    now[0] += 10
    assert context.get_remaining_time_in_millis() == 0
