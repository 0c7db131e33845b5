"""A turn that fails on every receive: the person hears one truthful reply, not silence.

SQS redelivers a failed turn up to the queue's receive count, then moves it to the dead-letter
queue. Before, the person heard nothing at all (a bug in one message's turn, a table down for
minutes). On the last receive Memo now says it could not handle the message and did nothing; the
reply is claimed like any turn's, so a redrive from the dead-letter queue (after a fix) answers
nothing twice, and the next message is turned as usual.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from memo import tables
from memo.local.aws import client
from memo.local.stack import LocalStack
from memo.planner.rules import RulePlanner
from tests.faults.conftest import Faults
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents, chat_at

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")
BROKEN = "remind me to water the lemon tree at 6pm"
_PLAN = RulePlanner.plan
SORRY_EN = (
    "Sorry, something went wrong on my side and I couldn't handle that message 😕 "
    "I haven't done anything. Could you send it again?"
)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.fixture
def broken_planner(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A bug that fails the turn of one message (and of a Hebrew one) every time."""
    planned: list[str] = []
    plan = RulePlanner.plan

    def failing(self: RulePlanner, inp: Any) -> Any:
        planned.append(inp.message)
        if inp.message in (BROKEN, "תזכיר לי להשקות את הלימון בשש"):
            raise RuntimeError("a bug in the planner")
        return plan(self, inp)

    monkeypatch.setattr(RulePlanner, "plan", failing)
    return planned


def _deliver_until_the_queue_gives_up(chat: Conversation, text: str) -> list[str]:
    replies = chat.deliver(chat.user.text(text))
    stack = chat.stack
    assert stack.poller is not None
    for _ in range(tables.TURN_QUEUE_MAX_RECEIVE_COUNT):
        stack.poller.drain()
        replies += chat.replies()
    return replies


def _dead_letters(stack: LocalStack) -> list[dict[str, Any]]:
    sqs = client("sqs")
    url = sqs.get_queue_url(QueueName="memo-turns-dlq.fifo")["QueueUrl"]
    return list(sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []))


def test_the_last_receive_of_a_failing_turn_says_so_once(
    chat: Conversation, broken_planner: list[str], log_events: LogEvents
) -> None:
    replies = _deliver_until_the_queue_gives_up(chat, BROKEN)
    assert replies == [SORRY_EN]
    assert broken_planner.count(BROKEN) == tables.TURN_QUEUE_MAX_RECEIVE_COUNT  # every receive tried
    (gave_up,) = log_events.named("TURN_GAVE_UP")
    assert gave_up["answered"] is True
    # The message is kept for the operators (the dead-letter queue and its alarm), nothing was made.
    assert len(_dead_letters(chat.stack)) == 1
    assert chat.say("what reminders do I have?") == "You have no upcoming reminders."


def test_a_redrive_answers_nothing_twice(
    chat: Conversation, broken_planner: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _deliver_until_the_queue_gives_up(chat, BROKEN) == [SORRY_EN]
    (dead,) = _dead_letters(chat.stack)
    handler = chat.stack.poller._handler if chat.stack.poller is not None else None
    assert handler is not None
    # The operators redrive the message: the record of the failure reply answers it either way.
    record = {
        "messageId": dead["MessageId"],
        "receiptHandle": dead["ReceiptHandle"],
        "body": dead["Body"],
        "attributes": {"ApproximateReceiveCount": "1", "MessageGroupId": chat.user.wa_id},
        "messageAttributes": {},
        "md5OfBody": "",
        "eventSource": "aws:sqs",
        "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:memo-turns.fifo",
        "awsRegion": "us-east-1",
    }
    from memo.local.context import LocalLambdaContext

    # The bug still there: the turn fails again (back to the dead-letter queue), and says nothing.
    failed = {"batchItemFailures": [{"itemIdentifier": dead["MessageId"]}]}
    assert handler({"Records": [record]}, LocalLambdaContext()) == failed
    assert chat.replies() == []
    # The bug fixed: the turn's write finds the message answered; nothing is sent, nothing is made.
    monkeypatch.setattr(RulePlanner, "plan", _PLAN)
    assert handler({"Records": [record]}, LocalLambdaContext()) == {"batchItemFailures": []}
    assert chat.replies() == []
    assert chat.say("what reminders do I have?") == "You have no upcoming reminders."
    # The person sends it again (as asked) and the next message is turned as usual.
    assert chat.say("remind me to water the plants at 6pm").startswith("⏰ Reminder set: “water the plants”")


def test_in_hebrew(chat: Conversation, broken_planner: list[str]) -> None:
    assert _deliver_until_the_queue_gives_up(chat, "תזכיר לי להשקות את הלימון בשש") == [
        "סליחה, משהו השתבש אצלי ולא הצלחתי לטפל בהודעה הזאת 😕 לא עשיתי כלום. אפשר לשלוח אותה שוב?"
    ]


def test_a_turn_that_fails_once_is_answered_by_the_redelivery_alone(
    chat: Conversation, faults: Faults
) -> None:
    # Not the last receive: the redelivery turns the message, and only its reply is sent.
    faults.throttle(table="memo-conversation", operations=frozenset({"Query"}), times=1)
    assert _deliver_until_the_queue_gives_up(chat, BROKEN) == [
        "⏰ Reminder set: “water the lemon tree” for Mon 2 Mar, 18:00."
    ]


def test_no_failure_reply_when_the_idempotency_table_keeps_refusing_writes(
    chat: Conversation, faults: Faults, log_events: LogEvents
) -> None:
    # The table that holds the message's claim refuses every write: neither the turn nor its failure
    # reply can claim the reply, so nothing is sent (no reply that could be sent twice), and the
    # message is kept in the dead-letter queue.
    faults.throttle(
        table="memo-idempotency", operations=frozenset({"TransactWriteItems", "PutItem"}), times=100
    )
    assert _deliver_until_the_queue_gives_up(chat, BROKEN) == []
    assert len(_dead_letters(chat.stack)) == 1
    assert log_events.named("TURN_FAILURE_REPLY_FAILED")
