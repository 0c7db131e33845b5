"""The Lambda service fails around the responder (the executor's last task), and Step Functions retries.

`Lambda.ServiceException` reaches Step Functions whether the function never ran or ran and its answer
was lost. The Respond state retries it (and Lambda's other transient errors, and its own timeout), which
is safe because the responder claims the turn's reply with a conditional write before it sends, and a
re-run finds the claim and sends nothing. Either way the person hears exactly one reply, and the
execution succeeds instead of failing (a failed execution alarms).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from memo.local.stack import LocalStack
from memo.local.stepfunctions import LambdaServiceFault
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import TEST_NOW, FakeClock
from tests.support.conversation import Conversation

RESPONDER = "memo-responder"


@pytest.fixture
def stack() -> Iterator[LocalStack]:
    with LocalStack(start_poller=False, clock=FakeClock(TEST_NOW)) as running:
        yield running


def faulty(handler: Callable[[Any, Any], Any], *, after_running: bool) -> Callable[[Any, Any], Any]:
    """The responder's first invocation fails as a Lambda service error: before the handler runs,
    or after it ran (the reply sent, the answer lost)."""
    calls: list[int] = []

    def responder(event: Any, context: Any) -> Any:
        calls.append(1)
        if len(calls) == 1 and not after_running:
            raise LambdaServiceFault("the invocation failed before the function ran")
        answer = handler(event, context)
        if len(calls) == 1:
            raise LambdaServiceFault("the function ran; its answer was lost")
        return answer

    return responder


@pytest.mark.parametrize("after_running", [False, True], ids=["before-it-ran", "after-it-ran"])
def test_a_lambda_service_error_around_the_responder_still_ends_in_one_reply(
    stack: LocalStack, after_running: bool
) -> None:
    assert stack.stepfunctions is not None
    handlers = stack.stepfunctions.dispatcher._handlers
    handlers[RESPONDER] = faulty(handlers[RESPONDER], after_running=after_running)
    chat = Conversation(stack=stack, user=WhatsAppUser())

    replies = chat.deliver(chat.user.text("save a note: the wifi password is hunter2"))  # waits for it
    glue = stack.stepfunctions
    (execution,) = glue.sfn.list_executions(stateMachineArn=glue.state_machine_arn)["executions"]

    assert execution["status"] == "SUCCEEDED", execution
    responder_runs = [i for i in glue.invocations if i.function_name == RESPONDER]
    assert len(responder_runs) == 2  # Step Functions retried the Respond task
    assert len(replies) == 1 and "Saved your note" in replies[0], replies
    assert chat.replies() == []  # and nothing more, ever
