"""The executor Lambda in-process on moto: the real ledger, fake capabilities that count side effects."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.executor.contracts import StepOutcome
from memo.executor.ledger import replay_of
from memo.executor.step import StepInProgress
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from tests.support.clock import FakeClock
from tests.support.conversation import LogEvents
from tests.unit.executor.fakes import T0, CountingCapabilities, approval_for, task


def invoke(event: dict[str, Any]) -> StepOutcome:
    handler = load_handler("executor")
    return StepOutcome.model_validate(handler(event, LocalLambdaContext(function_name="memo-executor")))


def event(**kwargs: Any) -> dict[str, Any]:
    return task(**kwargs).model_dump(mode="json", exclude_none=True)


@pytest.mark.usefixtures("runtime")
def test_a_redelivered_step_does_not_repeat_its_side_effect(capabilities: CountingCapabilities) -> None:
    first = invoke(event())
    second = invoke(event())

    assert first.result.success and not first.replayed
    assert second.replayed and second.result == replay_of(first.result)
    assert len(capabilities.side_effects) == 1


@pytest.mark.usefixtures("runtime")
def test_ledger_without_result_is_a_safe_failure(
    capabilities: CountingCapabilities, dynamodb: Any, log_events: LogEvents
) -> None:
    invoke(event())
    dynamodb.update_item(  # as an entry completed by an earlier release reads: no replay in it
        TableName=tables.LEDGER.default_name,
        Key={"pk": {"S": "wamid.T1:s1"}, "sk": {"S": "LEDGER"}},
        UpdateExpression="REMOVE replay",
    )

    outcome = invoke(event())

    assert outcome.result.error_code == "IDEMPOTENCY_MISSING_RESULT" and not outcome.result.success
    assert len(capabilities.side_effects) == 1
    assert log_events.named("IDEMPOTENCY_MISSING_RESULT")


@pytest.mark.usefixtures("runtime")
def test_an_edit_after_approval_is_refused(capabilities: CountingCapabilities) -> None:
    approval = approval_for({"reminder_ids": ["r-1"]}, expires_at=T0 + timedelta(minutes=5))
    outcome = invoke(event(args={"reminder_ids": ["r-2"]}, action="delete", approval=approval))

    assert outcome.result.error_code == "APPROVAL_ARGS_CHANGED"
    assert capabilities.calls == 0


@pytest.mark.usefixtures("runtime")
def test_an_approval_that_expired_before_execution_is_refused(
    capabilities: CountingCapabilities, clock: FakeClock
) -> None:
    args = {"reminder_ids": ["r-1"]}
    approval = approval_for(args, expires_at=T0 + timedelta(minutes=5))
    clock.advance(minutes=6)

    outcome = invoke(event(args=args, action="delete", approval=approval))

    assert outcome.result.error_code == "APPROVAL_EXPIRED"
    assert capabilities.calls == 0


@pytest.mark.usefixtures("runtime")
def test_a_step_still_held_by_another_attempt_raises_for_the_state_machine_retry(
    capabilities: CountingCapabilities, ledger: Any
) -> None:
    ledger.claim("wamid.T1:s1", capability="reminders", step_id="s1", args_hash="x", at=T0)

    with pytest.raises(StepInProgress):  # the Lambda runtime reports errorType "StepInProgress"
        invoke(event())
    assert capabilities.calls == 0
