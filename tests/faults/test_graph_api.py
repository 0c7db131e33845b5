"""The Graph API delivers a message and then answers 500, or never answers before the sender gives up.

Meta has the message; the sender cannot know it. Each case ends with the person holding exactly one
copy: a turn's reply, the responder's reply after a plan ran, a HITL question and a reminder delivery.
The message carried its tracking tag (`biz_opaque_callback_data`), so Meta's `failed` status for it is
followed up exactly once, however often Meta delivers that status. A request that never left (the
connection was refused) is certain: it is sent again and arrives once.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from memo.local.aws import client
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from memo.local.sink import AfterDelivery, SentRecord
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser, status_payload
from memo.whatsapp.tracking import OutboundTag
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.webhook import post

T0 = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
# The sender waits this long for an answer; the sink holds a "timeout" answer longer than that.
SEND_TIMEOUT_SECONDS = 1.0
HOLD_SECONDS = 2.0
FAILED_131047 = [{"code": 131047, "title": "Re-engagement message"}]
FAILED_131026 = [{"code": 131026, "title": "Message undeliverable"}]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def stack(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("WHATSAPP_SEND_TIMEOUT_SECONDS", str(SEND_TIMEOUT_SECONDS))
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def chat(stack: LocalStack) -> Conversation:
    return Conversation(stack=stack, user=WhatsAppUser())


def fail_next(stack: LocalStack, how: AfterDelivery) -> None:
    stack.sink.fail_after_delivery(how, hold=HOLD_SECONDS)


def sent_to(stack: LocalStack, user: WhatsAppUser) -> list[SentRecord]:
    return stack.sink.messages(to=user.wa_id)


def failed_status(record: SentRecord, user: WhatsAppUser, errors: list[dict[str, Any]]) -> dict[str, Any]:
    """Meta's `failed` status for a message, echoing the tag it was sent with."""
    return status_payload(record.message_id, "failed", user.wa_id, tag=record.tag, errors=errors)


def reminder_item(wa_id: str) -> dict[str, Any]:
    items = client("dynamodb").scan(TableName="memo-items")["Items"]
    [item] = [i for i in items if i["pk"]["S"].endswith(wa_id) and i["sk"]["S"].startswith("REMINDER#")]
    return item


def outbound_items() -> list[dict[str, Any]]:
    items = client("dynamodb").scan(TableName="memo-conversation")["Items"]
    return [i for i in items if i["pk"]["S"].startswith("OUTBOUND#")]


class StatusRedelivery:
    """Captures the queue bodies of `failed` statuses, to deliver one again the way SQS can once its
    deduplication window has passed (a new deduplication id)."""

    def __init__(self, stack: LocalStack) -> None:
        assert stack.poller is not None and stack.resources is not None
        self.stack = stack
        self.bodies: list[str] = []
        handler = stack.poller._handler

        def recording(event: dict[str, Any], context: object) -> object:
            self.bodies.extend(r["body"] for r in event["Records"] if "status.failed." in r["body"])
            return handler(event, context)

        stack.poller._handler = recording

    def again(self) -> None:
        assert self.bodies and self.stack.resources is not None and self.stack.poller is not None
        client("sqs").send_message(
            QueueUrl=self.stack.resources.queue_url,
            MessageBody=self.bodies[-1],
            MessageGroupId="redelivery",
            MessageDeduplicationId=f"redelivery-{len(self.bodies)}",
        )
        self.stack.poller.drain()


def post_twice(payload: dict[str, Any], stack: LocalStack) -> None:
    """Meta delivers the same status twice (its webhook retry)."""
    for _ in range(2):
        assert post(payload)["statusCode"] == 200
    assert stack.poller is not None
    stack.poller.drain()


HOW = pytest.mark.parametrize("how", ["500", "timeout"])


@HOW
def test_a_turns_reply_delivered_then_answered_badly_reaches_the_person_once(
    stack: LocalStack, chat: Conversation, how: AfterDelivery, log_events: LogEvents
) -> None:
    fail_next(stack, how)
    [greeting] = chat.deliver(chat.user.text("hi"))
    assert greeting.startswith(("Good", "Hi", "Hello")), greeting
    [unknown] = log_events.named("SEND_OUTCOME_UNKNOWN")
    assert unknown["carried"] == "reply"
    assert log_events.named("WHATSAPP_SEND_FAILED") == []
    # The conversation goes on: the next message is answered once.
    assert "shopping" in chat.say("add milk to my shopping list").lower()
    assert len(sent_to(stack, chat.user)) == 2


@HOW
def test_the_responders_reply_delivered_then_answered_badly_is_sent_once_and_followed_up_once(
    stack: LocalStack, chat: Conversation, how: AfterDelivery, log_events: LogEvents
) -> None:
    redelivery = StatusRedelivery(stack)
    fail_next(stack, how)
    [reply] = chat.deliver(chat.user.text("remind me to call the plumber tomorrow at 9am"))
    assert "plumber" in reply, reply
    [record] = sent_to(stack, chat.user)
    tag = OutboundTag.decode(record.tag)
    assert tag is not None and tag.kind == "reply"
    assert log_events.named("SEND_OUTCOME_UNKNOWN")[0]["sendToken"] == tag.token
    # Meta reports the message failed after all: logged once, nothing resent.
    post_twice(failed_status(record, chat.user, FAILED_131026), stack)
    redelivery.again()
    [followed] = log_events.named("DELIVERY_FAILED_FOLLOWED_UP")
    assert (followed["messageId"], followed["carried"]) == (record.message_id, "reply")
    assert len(sent_to(stack, chat.user)) == 1
    assert "plumber" in chat.say("show my reminders")


@HOW
def test_a_hitl_question_delivered_then_answered_badly_is_asked_once_and_still_answerable(
    stack: LocalStack, chat: Conversation, how: AfterDelivery, log_events: LogEvents
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    fail_next(stack, how)
    [question] = chat.deliver(chat.user.text("delete all my reminders"))
    assert "call mom" in question, question
    assert [e["carried"] for e in log_events.named("SEND_OUTCOME_UNKNOWN")] == ["hitl_question"]
    asked = sent_to(stack, chat.user)[-1]
    assert chat.tap(1).startswith("Deleted 1 reminder")
    # A `failed` status for the question, delivered three times: one follow-up.
    redelivery = StatusRedelivery(stack)
    post_twice(failed_status(asked, chat.user, FAILED_131026), stack)
    redelivery.again()
    [followed] = log_events.named("DELIVERY_FAILED_FOLLOWED_UP")
    assert followed["carried"] == "hitl_question"
    assert len(sent_to(stack, chat.user)) == 3  # set, question, deleted: nothing twice


@HOW
def test_a_reminder_delivered_then_answered_badly_is_delivered_once_and_a_failure_retried_once(
    stack: LocalStack, chat: Conversation, clock: FakeClock, how: AfterDelivery, log_events: LogEvents
) -> None:
    assert "Reminder set" in chat.say("remind me to take the cake out in 20 minutes")
    scheduler = client("scheduler")
    (summary,) = scheduler.list_schedules(GroupName="memo-reminders")["Schedules"]
    event = json.loads(
        scheduler.get_schedule(Name=summary["Name"], GroupName="memo-reminders")["Target"]["Input"]
    )
    clock.advance(minutes=21)
    fail_next(stack, how)
    handler = load_handler("reminders")
    first = handler(event, LocalLambdaContext(function_name="memo-reminders"))
    assert first["outcome"] == "unconfirmed"
    # EventBridge Scheduler delivers at least once; Lambda retries: nothing more is sent.
    assert handler(event, LocalLambdaContext(function_name="memo-reminders"))["outcome"] == "already_sent"
    [delivered] = chat.replies()
    assert "cake" in delivered
    item = reminder_item(chat.user.wa_id)
    record = sent_to(stack, chat.user)[-1]
    tag = OutboundTag.decode(record.tag)
    assert tag is not None and (tag.kind, tag.mode) == ("reminder", "text")
    assert item["status"]["S"] == "sent"
    assert item["delivery_unconfirmed_token"]["S"] == tag.token  # the operator's mark
    assert len(log_events.named("REMINDER_SEND_UNCONFIRMED")) == 1

    # Meta says the text failed: the 24-hour window had closed. Retried once as the template,
    # however often the status comes.
    redelivery = StatusRedelivery(stack)
    post_twice(failed_status(record, chat.user, FAILED_131047), stack)
    redelivery.again()
    templates = [r for r in sent_to(stack, chat.user) if r.body.get("type") == "template"]
    assert len(templates) == 1
    retry_tag = OutboundTag.decode(templates[0].tag)
    assert retry_tag is not None and (retry_tag.kind, retry_tag.mode) == ("reminder", "template")
    assert len(log_events.named("REMINDER_RETRIED_AS_TEMPLATE")) == 1
    assert reminder_item(chat.user.wa_id)["delivery_failed_code"]["N"] == "131047"


def test_a_sent_or_delivered_status_with_the_tag_confirms_the_send(
    stack: LocalStack, chat: Conversation, log_events: LogEvents
) -> None:
    fail_next(stack, "500")
    chat.deliver(chat.user.text("hi"))
    [record] = sent_to(stack, chat.user)
    for state in ("sent", "delivered", "read"):
        assert (
            post(status_payload(record.message_id, state, chat.user.wa_id, tag=record.tag))["statusCode"]
            == 200
        )
    confirmations = [e for e in log_events.named("WHATSAPP_STATUS") if e.get("tracked")]
    token = log_events.named("SEND_OUTCOME_UNKNOWN")[0]["sendToken"]
    assert [(e["status"], e["sendToken"]) for e in confirmations] == [
        ("sent", token),
        ("delivered", token),
        ("read", token),
    ]


def test_sending_writes_no_outbound_record_except_for_a_question_a_reaction_may_answer(
    stack: LocalStack, chat: Conversation
) -> None:
    """Replies, reminder confirmations and an approval question: no write per send."""
    chat.say("hi")
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.deliver(chat.user.text("delete all my reminders"))  # an approval: a 👍 never answers it
    assert outbound_items() == []


class RefusedConnections:
    """`socket.create_connection` to the local Graph API refused for chosen connection numbers: the
    request never leaves, as when the Graph API host cannot be reached."""

    def __init__(self, port: int, refuse: set[int]) -> None:
        self.port = port
        self.refuse = refuse
        self.count = 0
        self.original = socket.create_connection

    def __call__(self, address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        if address[1] == self.port:
            self.count += 1
            if self.count in self.refuse:
                raise ConnectionRefusedError(111, "Connection refused")
        return self.original(address, *args, **kwargs)


def test_a_reply_whose_connection_was_refused_is_sent_again_and_arrives_once(
    stack: LocalStack, chat: Conversation, monkeypatch: pytest.MonkeyPatch, log_events: LogEvents
) -> None:
    assert stack.server is not None
    refused = RefusedConnections(stack.server.port, refuse={2})  # 1: the read receipt, 2: the reply
    monkeypatch.setattr(socket, "create_connection", refused)
    [greeting] = chat.deliver(chat.user.text("hi"))
    assert greeting
    assert refused.count == 3  # the refused attempt, then the reply that went out
    assert log_events.named("SEND_OUTCOME_UNKNOWN") == []
    assert len(sent_to(stack, chat.user)) == 1


def test_a_reminder_whose_connection_was_refused_is_sent_again_and_arrives_once(
    stack: LocalStack, chat: Conversation, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "קבעתי תזכורת" in chat.say("תזכיר לי להוציא את העוגה בעוד 20 דקות")
    assert stack.server is not None and stack.ticker is not None
    refused = RefusedConnections(stack.server.port, refuse={1})
    monkeypatch.setattr(socket, "create_connection", refused)
    clock.advance(minutes=21)
    stack.ticker.tick()
    [delivered] = chat.replies()
    assert "העוגה" in delivered
    assert refused.count == 2
    assert reminder_item(chat.user.wa_id)["status"]["S"] == "sent"
