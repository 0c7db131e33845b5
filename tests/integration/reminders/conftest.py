"""moto (DynamoDB + EventBridge Scheduler), the two tables, and the local Graph API sink behind the
local HTTP server; the reminders and responder handlers run in-process against them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo import tables
from memo.aws.clients import reset_clients
from memo.local.server import LocalServer
from memo.local.sink import GraphSink
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.settings import RemindersSettings, ReplySettings
from memo.wiring import reset_runtime, use_runtime
from memo.wiring.reminders import RemindersRuntime
from memo.wiring.reply import ReplyRuntime
from tests.support import week
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

TOKEN = "sink-token"
START = datetime(2025, 6, 3, 6, 0, tzinfo=UTC)  # 09:00 in Jerusalem
THREAD = "972501234567"


@dataclass
class LocalAws:
    dynamodb: Any
    scheduler: Any
    sink: GraphSink
    clock: FakeClock
    graph_base_url: str

    def item(self, table: tables.TableSpec, pk: str, sk: str) -> dict[str, Any] | None:
        from memo.aws.dynamo import from_item

        raw = self.dynamodb.get_item(
            TableName=table.default_name, Key={"pk": {"S": pk}, "sk": {"S": sk}}, ConsistentRead=True
        ).get("Item")
        return from_item(raw) if raw else None

    def use_clock(self) -> None:
        """Handlers built from the environment, sharing the test's fake clock."""
        use_runtime(RemindersRuntime(RemindersSettings.from_env(os.environ), clock=self.clock))
        use_runtime(ReplyRuntime(ReplySettings.from_env(os.environ), clock=self.clock))


def _unused_webhook(event: dict[str, Any], context: Any) -> dict[str, Any]:
    raise AssertionError("these tests never call the webhook")


@pytest.fixture
def local_aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalAws]:
    sink = GraphSink()
    server = LocalServer(host="127.0.0.1", port=0, webhook=_unused_webhook, sink=sink, access_token=TOKEN)
    server.start()
    graph = f"{server.base_url}/graph/v21.0"
    for key, value in {
        "WHATSAPP_API_BASE_URL": graph,
        "WHATSAPP_ACCESS_TOKEN": TOKEN,
        "WHATSAPP_SEND_MAX_ATTEMPTS": "1",
        "WHATSAPP_REMINDER_TEMPLATE": "memo_reminder_test",
        "WHATSAPP_REMINDER_TEMPLATE_LANGUAGES": "en=en_US,he=he",
        "ITEMS_TABLE_NAME": tables.ITEMS.default_name,
        "CONVERSATION_TABLE_NAME": tables.CONVERSATION.default_name,
    }.items():
        monkeypatch.setenv(key, value)
    try:
        with mock_aws():
            reset_clients()
            dynamodb = boto3.client("dynamodb", region_name="us-east-1")
            for spec in (tables.ITEMS, tables.CONVERSATION):
                dynamodb.create_table(**spec.create_table_kwargs())
            scheduler = boto3.client("scheduler", region_name="us-east-1")
            scheduler.create_schedule_group(Name="memo-reminders")
            aws = LocalAws(dynamodb, scheduler, sink, FakeClock(START), graph)
            aws.use_clock()
            yield aws
    finally:
        server.stop()
        reset_clients()
        reset_runtime(RemindersRuntime)
        reset_runtime(ReplyRuntime)
        os.environ.pop("WHATSAPP_ACCESS_TOKEN", None)


Factory = Callable[..., Any]


@pytest.fixture
def clock() -> FakeClock:
    """The fake clock at 10:00 on a Monday a week ahead (`tests.support.week`)."""
    return FakeClock(week.START)


@pytest.fixture
def chat(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    """A person in Jerusalem talking to Memo on the whole local stack, on that clock."""
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield Conversation(stack=running, user=WhatsAppUser())
