"""Duplicate deliveries, as AWS makes them: Meta's retries, SQS at-least-once, Scheduler at-least-once.

Each must end in one side effect and one message to the person.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from memo.local.aws import client
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.webhook import post

T0 = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def stack(clock: FakeClock) -> Iterator[LocalStack]:
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


def reminders(wa_id: str) -> list[dict]:
    items = client("dynamodb").scan(TableName="memo-items")["Items"]
    return [i for i in items if i["pk"]["S"].endswith(wa_id) and i["sk"]["S"].startswith("REMINDER#")]


def test_meta_and_sqs_delivering_one_message_three_times_make_one_reminder_and_one_reply(
    stack: LocalStack,
) -> None:
    chat = Conversation(stack=stack, user=WhatsAppUser())
    assert stack.poller is not None
    bodies: list[str] = []
    handler = stack.poller._handler

    def recording(event: dict, context: object) -> object:
        bodies.extend(record["body"] for record in event["Records"])
        return handler(event, context)

    stack.poller._handler = recording
    payload = chat.user.payload(chat.user.text("remind me to renew the passport tomorrow at 10am"))
    assert post(payload)["statusCode"] == 200
    assert post(payload)["statusCode"] == 200  # Meta retries: its first delivery timed out
    assert stack.poller is not None and stack.stepfunctions is not None and stack.resources is not None
    stack.poller.drain()
    stack.stepfunctions.wait_all()
    # SQS at-least-once: the same body again after the first turn completed (a new dedup id).
    assert len(bodies) == 1  # the FIFO queue dropped Meta's retry (same wamid)
    client("sqs").send_message(
        QueueUrl=stack.resources.queue_url,
        MessageBody=bodies[0],
        MessageGroupId="redelivery",
        MessageDeduplicationId="redelivery-1",
    )
    stack.poller.drain()
    stack.stepfunctions.wait_all()

    replies = chat.replies()
    assert len(replies) == 1 and "passport" in replies[0], replies
    assert len(reminders(chat.user.wa_id)) == 1


def test_the_scheduler_firing_one_reminder_twice_delivers_it_once(
    stack: LocalStack, clock: FakeClock
) -> None:
    chat = Conversation(stack=stack, user=WhatsAppUser())
    assert "Reminder set" in chat.say("remind me to take the cake out in 20 minutes")
    scheduler = client("scheduler")
    (summary,) = scheduler.list_schedules(GroupName="memo-reminders")["Schedules"]
    schedule = scheduler.get_schedule(Name=summary["Name"], GroupName="memo-reminders")
    event = json.loads(schedule["Target"]["Input"])
    clock.advance(minutes=21)
    handler = load_handler("reminders")

    handler(event, LocalLambdaContext(function_name="memo-reminders"))
    handler(event, LocalLambdaContext(function_name="memo-reminders"))  # at-least-once

    delivered = chat.replies()
    assert len(delivered) == 1 and "cake" in delivered[0], delivered
