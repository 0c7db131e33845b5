"""A Lambda that dies between two writes of a turn, then SQS redelivers the message.

For every write of a clean turn, the same turn is run again with the webhook Lambda killed just
before that write (as a timeout or an out-of-memory kill would), then redelivered the way SQS does
once the visibility timeout has passed (the crashed run left no lock behind: its turn writes its
idempotency record only in its one transaction). The person must end with
one reply, and the turn's effect (a question, an action) must exist once.
"""

from __future__ import annotations

from typing import Any

import pytest

from memo.local.context import LocalLambdaContext
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.faults.conftest import Faults, LambdaCrash
from tests.support.conversation import Conversation


class CrashingLambda:
    """The webhook Lambda as the poller invokes it, dying where the faults say."""

    def __init__(self, handler: Any) -> None:
        self._handler = handler
        self.crashes = 0

    def __call__(self, event: dict[str, Any], context: Any) -> Any:
        try:
            return self._handler(event, LocalLambdaContext())
        except LambdaCrash:
            self.crashes += 1
            return {"batchItemFailures": [{"itemIdentifier": r["messageId"]} for r in event["Records"]]}


def talk(stack: LocalStack, text: str, chat: Conversation | None = None) -> tuple[Conversation, list[str]]:
    chat = chat or Conversation(stack=stack, user=WhatsAppUser())
    replies = chat.deliver(chat.user.text(text))
    assert stack.poller is not None and stack.stepfunctions is not None
    for _ in range(4):
        stack.poller.drain()
        stack.stepfunctions.wait_all()
        replies += chat.replies()
    return chat, replies


def turn_writes(text: str, setup: str | None, faults: Faults) -> int:
    with LocalStack(start_poller=False) as clean:
        chat = None
        if setup:
            chat, _ = talk(clean, setup)
        faults.writes.clear()
        talk(clean, text, chat)
        return len(faults.writes_on_this_thread())


CASES = [
    ("hi", None),
    ("remind me to call the plumber tomorrow at 9am", None),
    ("delete all my reminders", "remind me to call the plumber tomorrow at 9am"),
]


@pytest.mark.parametrize(("text", "setup"), CASES)
def test_a_turn_killed_before_any_of_its_writes_answers_once(
    faults: Faults, text: str, setup: str | None
) -> None:
    writes = turn_writes(text, setup, faults)
    assert writes >= 1  # the turn's one transaction: its memory, its reply claim, its idempotency record
    for k in range(writes):
        with LocalStack(start_poller=False) as stack:
            assert stack.poller is not None
            crashing = CrashingLambda(stack.poller._handler)
            stack.poller._handler = crashing  # type: ignore[assignment]
            chat = None
            if setup:
                chat, _ = talk(stack, setup)
            faults.crash(skip=k, this_thread_only=True)
            chat, replies = talk(stack, text, chat)
            assert crashing.crashes == 1, f"write {k}: the crash did not happen"
            assert len(replies) == 1, f"killed before write {k + 1} of {writes}: {replies}"
