"""A reminder created by the reminders capability is delivered at its time: moto's Scheduler holds
its one-time schedule, the local ticker (fake clock) fires it through the reminders handler, and the
message reaches the local Graph API sink."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.items_keys import reminder_sk, user_pk
from memo.aws.items_table import DynamoItemsRepository
from memo.aws.scheduler import EventBridgeReminderScheduler
from memo.capabilities.base import ExecutionContext
from memo.capabilities.reminder_args import CreateReminderArgs
from memo.capabilities.reminders import ReminderOperations
from memo.conversation.model import MemoryMessage, UserProfile
from memo.local.context import LocalLambdaContext
from memo.local.functions import load_handler
from memo.local.ticker import ReminderTicker
from memo.reminders.deliver import ReminderDeliveryFailed
from tests.integration.reminders.conftest import START, THREAD, LocalAws

GROUP = "memo-reminders"
TARGET = "arn:aws:lambda:us-east-1:123456789012:function:memo-reminders"
ROLE = "arn:aws:iam::123456789012:role/memo-scheduler"


def create_reminder(aws: LocalAws, title: str, at: datetime, *, timezone: str = "Asia/Jerusalem") -> str:
    operations = ReminderOperations(
        DynamoItemsRepository(aws.dynamodb, tables.ITEMS.default_name),
        EventBridgeReminderScheduler(aws.scheduler, group_name=GROUP, target_arn=TARGET, role_arn=ROLE),
        aws.clock,
    )
    ctx = ExecutionContext(
        thread_id=THREAD, trace_id=f"wamid.{title}", step_id="s1", timezone=timezone, now=aws.clock()
    )
    result = operations.create(CreateReminderArgs(title=title, when=at, phone_number_id="PN1"), ctx)
    assert result.success, result
    return str(result.external_ids["reminderId"])


def user_wrote(aws: LocalAws, at: datetime, *, language: str = "en") -> None:
    store = DynamoConversationStore(aws.dynamodb, tables.CONVERSATION.default_name)
    store.save_profile(
        UserProfile(thread_id=THREAD, language=language, timezone="Asia/Jerusalem", created_at=at)
    )
    store.append(THREAD, [MemoryMessage(role="user", text="hi", at=at)], ttl_seconds=10**8)


def bodies(aws: LocalAws) -> list[dict[str, Any]]:
    return [r.body for r in aws.sink.messages(to=THREAD)]


@pytest.fixture
def ticker(local_aws: LocalAws) -> ReminderTicker:
    ticker = ReminderTicker(scheduler=local_aws.scheduler, group_name=GROUP, clock=local_aws.clock)
    ticker.ensure_group()
    return ticker


def test_a_reminder_is_delivered_at_its_time_and_not_before(
    local_aws: LocalAws, ticker: ReminderTicker
) -> None:
    user_wrote(local_aws, START)
    reminder_id = create_reminder(local_aws, "call mom", START + timedelta(hours=1))

    local_aws.clock.advance(minutes=59)
    assert ticker.tick() == []
    assert bodies(local_aws) == []

    local_aws.clock.advance(minutes=1)
    [fired] = ticker.tick()
    # The Scheduler's `<aws.scheduler.scheduled-time>` is replaced by the firing's time, in UTC.
    due = (START + timedelta(hours=1)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert fired.event == {"threadId": THREAD, "reminderId": reminder_id, "scheduledAt": due}
    assert fired.result["outcome"] == "sent" and fired.result["mode"] == "text"
    [body] = bodies(local_aws)
    assert body["type"] == "interactive" and body["interactive"]["body"]["text"] == "⏰ Reminder: call mom"
    buttons = body["interactive"]["action"]["buttons"]
    assert [b["reply"]["title"] for b in buttons] == ["Done ✅", "Snooze 10 min", "Snooze 1 hour"]
    assert [b["reply"]["id"] for b in buttons] == [
        f"reminder:done:{reminder_id}",
        f"reminder:snooze:10:{reminder_id}",
        f"reminder:snooze:60:{reminder_id}",
    ]
    assert local_aws.scheduler.list_schedules(GroupName=GROUP)["Schedules"] == []  # deleted after firing

    stored = local_aws.item(tables.ITEMS, user_pk(THREAD), reminder_sk(reminder_id))
    assert stored is not None and stored["status"] == "sent" and stored["sent_at"]
    memory = DynamoConversationStore(local_aws.dynamodb, tables.CONVERSATION.default_name).load(
        THREAD, now=local_aws.clock(), limit=10
    )
    assert [(m.role, m.kind, m.text) for m in memory.recent][-1] == (
        "assistant",
        "reminder",
        "⏰ Reminder: call mom",
    )
    local_aws.clock.advance(minutes=5)
    assert ticker.tick() == []
    assert len(bodies(local_aws)) == 1


def test_delivered_twice_by_the_scheduler_sends_one_message(local_aws: LocalAws) -> None:
    user_wrote(local_aws, START)
    reminder_id = create_reminder(local_aws, "take pills", START + timedelta(minutes=10))
    local_aws.clock.advance(minutes=10)
    handler = load_handler("reminders")
    event = {"threadId": THREAD, "reminderId": reminder_id}
    first = handler(event, LocalLambdaContext(function_name="reminders"))
    second = handler(dict(event), LocalLambdaContext(function_name="reminders"))
    assert (first["outcome"], second["outcome"]) == ("sent", "already_sent")
    assert len(bodies(local_aws)) == 1


def test_window_closed_sends_the_configured_template_in_the_profiles_language(
    local_aws: LocalAws, ticker: ReminderTicker
) -> None:
    user_wrote(local_aws, START - timedelta(hours=30), language="he")
    create_reminder(local_aws, "לשלם חשבון חשמל", START + timedelta(hours=2))
    local_aws.clock.advance(hours=2)
    [fired] = ticker.tick()
    assert fired.result["mode"] == "template"
    [body] = bodies(local_aws)
    assert body["type"] == "template"
    assert body["template"] == {
        "name": "memo_reminder_test",
        "language": {"code": "he"},
        "components": [{"type": "body", "parameters": [{"type": "text", "text": "לשלם חשבון חשמל"}]}],
    }


def test_a_failed_send_is_logged_and_retried_by_the_next_tick(
    local_aws: LocalAws,
    ticker: ReminderTicker,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    user_wrote(local_aws, START)
    reminder_id = create_reminder(local_aws, "water plants", START + timedelta(minutes=1))
    local_aws.clock.advance(minutes=1)
    monkeypatch.setenv("WHATSAPP_ACCESS_TOKEN", "expired-token")
    local_aws.use_clock()
    with caplog.at_level(logging.ERROR):
        [failed] = ticker.tick()
    assert failed.error == ReminderDeliveryFailed.__name__
    assert any(getattr(r, "metaErrorCode", None) == 190 for r in caplog.records)  # Meta: invalid token
    stored = local_aws.item(tables.ITEMS, user_pk(THREAD), reminder_sk(reminder_id))
    assert stored is not None and stored["status"] == "scheduled" and "delivery_claim_id" not in stored
    assert stored["delivery_last_error"] == "WHATSAPP_190"

    monkeypatch.setenv("WHATSAPP_ACCESS_TOKEN", "sink-token")
    local_aws.use_clock()
    [retried] = ticker.tick()
    assert retried.result["outcome"] == "sent"
    assert [b["interactive"]["body"]["text"] for b in bodies(local_aws)] == ["⏰ Reminder: water plants"]


def test_a_moved_reminder_is_delivered_at_its_new_time_only(
    local_aws: LocalAws, ticker: ReminderTicker
) -> None:
    from memo.capabilities.reminder_args import UpdateReminderArgs

    user_wrote(local_aws, START)
    reminder_id = create_reminder(local_aws, "dentist", START + timedelta(hours=1))
    operations = ReminderOperations(
        DynamoItemsRepository(local_aws.dynamodb, tables.ITEMS.default_name),
        EventBridgeReminderScheduler(local_aws.scheduler, group_name=GROUP, target_arn=TARGET, role_arn=ROLE),
        local_aws.clock,
    )
    ctx = ExecutionContext(
        thread_id=THREAD, trace_id="t2", step_id="s1", timezone="Asia/Jerusalem", now=START
    )
    moved = operations.update(
        UpdateReminderArgs(reminder_ids=[reminder_id], when=START + timedelta(hours=3)), ctx
    )
    assert moved.success
    local_aws.clock.advance(hours=1)
    assert ticker.tick() == []
    local_aws.clock.advance(hours=2)
    [fired] = ticker.tick()
    assert fired.result["outcome"] == "sent"
    assert len(bodies(local_aws)) == 1


def test_the_schedule_input_is_what_the_handler_reads(local_aws: LocalAws, ticker: ReminderTicker) -> None:
    reminder_id = create_reminder(local_aws, "x", START + timedelta(hours=1))
    [summary] = local_aws.scheduler.list_schedules(GroupName=GROUP)["Schedules"]
    schedule = local_aws.scheduler.get_schedule(Name=summary["Name"], GroupName=GROUP)
    assert json.loads(schedule["Target"]["Input"]) == {
        "threadId": THREAD,
        "reminderId": reminder_id,
        "scheduledAt": "<aws.scheduler.scheduled-time>",
    }


def test_the_background_ticker_delivers_and_stops(local_aws: LocalAws, ticker: ReminderTicker) -> None:
    user_wrote(local_aws, START)
    create_reminder(local_aws, "stretch", START + timedelta(minutes=1))
    local_aws.clock.advance(minutes=2)
    background = ReminderTicker(
        scheduler=local_aws.scheduler, group_name=GROUP, clock=local_aws.clock, interval=0.05
    ).start()
    try:
        [record] = local_aws.sink.wait_for(to=THREAD, after=-1, timeout=10, quiet=0.2)
    finally:
        background.stop()
    assert record.body["interactive"]["body"]["text"] == "⏰ Reminder: stretch"
