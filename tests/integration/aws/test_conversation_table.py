"""The recent messages as the conversation table stores them (`memo.aws.conversation_table`), on moto's
DynamoDB: each fact once (time and WhatsApp message id in the sort key), read back exactly; and the
items earlier releases wrote (milliseconds in the sort key, `at`, `wamid` and `started` in the
message) read as before, in time order with the new ones."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo import tables
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.dynamo import from_item, to_item
from memo.conversation.model import MemoryMessage

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"
AT = datetime(2026, 11, 24, 9, 50, 4, 121188, tzinfo=UTC)
ASK = "wamid.HBgLE99C5044CFF0434AA0E7075E412D495E"
YES = "wamid.HBgLCF7429D524754E3BBDAD90E690C8FEE0"
TTL = 30 * 86400


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**tables.CONVERSATION.create_table_kwargs())
        yield client


def _messages(dynamodb: Any) -> list[dict[str, Any]]:
    items = dynamodb.scan(TableName=TABLE)["Items"]
    return sorted((i for i in items if i["sk"]["S"].startswith("MSG#")), key=lambda i: i["sk"]["S"])


def test_each_fact_is_stored_once_and_read_back_exactly(dynamodb: Any) -> None:
    store = DynamoConversationStore(dynamodb, TABLE)
    request = MemoryMessage(role="user", text="delete all my reminders", at=AT, wamid=ASK)
    question = MemoryMessage(role="assistant", text="Before I go ahead…", at=AT, kind="hitl_question")
    answer = MemoryMessage(
        role="user", text="yes", at=AT + timedelta(seconds=7), kind="hitl_reply", wamid=YES, started=ASK
    )
    plan = MemoryMessage(
        role="user", text="remind me", at=AT + timedelta(seconds=9), wamid="w.4", started="w.4"
    )
    store.append(THREAD, [request, question], ttl_seconds=TTL)
    store.append(THREAD, [answer], ttl_seconds=TTL)
    store.append(THREAD, [plan], ttl_seconds=TTL)

    stored = _messages(dynamodb)
    assert [i["sk"]["S"] for i in stored] == [
        f"MSG#1795513804121188#0#{ASK}",
        "MSG#1795513804121188#1#",
        f"MSG#1795513811121188#0#{YES}",
        "MSG#1795513813121188#0#w.4",
    ]
    assert [set(i["message"]["M"]) for i in stored] == [
        {"role", "text"},
        {"role", "text", "kind"},
        {"role", "text", "kind", "started"},
        {"role", "text", "starts"},
    ]
    assert stored[2]["message"]["M"]["started"] == {"S": ASK}  # the plan of the question it answers
    assert stored[3]["message"]["M"]["starts"] == {"BOOL": True}  # its own plan: its own wamid

    recent = store.load(THREAD, now=AT, limit=10).recent
    assert recent == [request, question, answer, plan]
    assert recent[0].at == AT and recent[0].at.tzinfo is not None


def _read_as_released(item: dict[str, Any]) -> MemoryMessage:
    """How the released code reads a message item: the time from a 16-digit sort key, the wamid
    from the sort key, `starts` as its own plan (and `at` in the message ignored when the key has
    the time)."""
    stored = dict(from_item(item)["message"])
    _prefix, stamp, _seq, wamid = str(from_item(item)["sk"]).split("#", 3)
    if len(stamp) == 16:
        stored["at"] = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=int(stamp))
    if "wamid" not in stored and wamid:
        stored["wamid"] = wamid
    if stored.pop("starts", False) is True:
        stored["started"] = stored.get("wamid")
    return MemoryMessage.model_validate(stored)


def test_the_previous_release_still_reads_every_new_message(dynamodb: Any) -> None:
    """A rollback (by hand, or CloudFormation's after a failed update) must not leave a thread its
    code cannot load, nor read it differently."""
    store = DynamoConversationStore(dynamodb, TABLE)
    request = MemoryMessage(role="user", text="תזכיר לי מחר", at=AT, wamid="w.1", started="w.1")
    answer = MemoryMessage(role="user", text="כן", at=AT, kind="hitl_reply", wamid=YES, started=ASK)
    reply = MemoryMessage(role="assistant", text="⏰", at=AT, finished="w.1")
    store.append(THREAD, [request, answer, reply], ttl_seconds=TTL)

    assert [_read_as_released(i) for i in _messages(dynamodb)] == [request, answer, reply]


def _released(message: MemoryMessage, seq: int = 0) -> dict[str, Any]:
    """The item the released code wrote for `message`."""
    at_ms = int(message.at.astimezone(UTC).timestamp() * 1000)
    return to_item(
        {
            "pk": f"THREAD#{THREAD}",
            "sk": f"MSG#{at_ms:013d}#{seq}#{message.wamid or ''}",
            "message": message.model_dump(mode="json", exclude_none=True, exclude_defaults=True),
            "ttl": int(message.at.timestamp()) + TTL,
        }
    )


def test_items_written_before_the_upgrade_are_read_in_time_order_with_the_new_ones(dynamodb: Any) -> None:
    store = DynamoConversationStore(dynamodb, TABLE)
    before = [
        MemoryMessage(role="user", text="תזכיר לי מחר", at=AT, wamid="w.1", started="w.1"),
        MemoryMessage(role="assistant", text="⏰ Reminder set", at=AT + timedelta(seconds=1), finished="w.1"),
        MemoryMessage(role="user", text="delete it", at=AT + timedelta(seconds=2), wamid=ASK),
    ]
    for message in before:
        dynamodb.put_item(TableName=TABLE, Item=_released(message))
    after = [
        MemoryMessage(
            role="user", text="yes", at=AT + timedelta(seconds=2, microseconds=5), wamid=YES, started=ASK
        )
    ]
    store.append(THREAD, after, ttl_seconds=TTL)

    assert store.load(THREAD, now=AT, limit=10).recent == before + after
    assert store.load(THREAD, now=AT, limit=2).recent == [before[2], after[0]]


def test_a_message_is_smaller_on_the_wire(dynamodb: Any) -> None:
    """A request that starts its own plan held its wamid three times (the sort key, `wamid`,
    `started`) and its time twice in full (the sort key, `at` as ISO text)."""
    message = MemoryMessage(role="user", text="delete all my reminders", at=AT, wamid=ASK, started=ASK)
    calls: list[dict[str, Any]] = []

    class Recording:
        def batch_write_item(self, **params: Any) -> Any:
            calls.append(params)
            return dynamodb.batch_write_item(**params)

    DynamoConversationStore(Recording(), TABLE).append(THREAD, [message], ttl_seconds=TTL)
    (item,) = [r["PutRequest"]["Item"] for r in calls[0]["RequestItems"][TABLE]]
    assert len(json.dumps(item, separators=(",", ":"))) <= 265
    assert len(json.dumps(_released(message), separators=(",", ":"))) == 373  # as the released code wrote it


def test_a_user_message_keeps_its_sender_s_pace_and_the_thread_reads_the_newest(dynamodb: Any) -> None:
    """The pace (`memo.conversation.pace`) is a field of the user's message item, read back with the
    thread from the newest message of the sender's; the previous release reads the item as before."""
    from memo.conversation.pace import Pace

    store = DynamoConversationStore(dynamodb, TABLE)
    first = MemoryMessage(
        role="user", text="hi", at=AT, wamid="w.1", pace=Pace(full_at=AT + timedelta(seconds=3))
    )
    reply = MemoryMessage(role="assistant", text="hello", at=AT)
    newest = Pace(full_at=AT + timedelta(seconds=6), warned=True)
    second = MemoryMessage(
        role="user", text="hi again", at=AT + timedelta(seconds=1), wamid="w.2", pace=newest
    )
    store.append(THREAD, [first, reply], ttl_seconds=TTL)
    store.append(
        THREAD, [second, reply.model_copy(update={"at": AT + timedelta(seconds=1)})], ttl_seconds=TTL
    )
    stored = _messages(dynamodb)
    assert set(stored[0]["message"]["M"]["pace"]["M"]) == {"full_at"}  # `warned` only when it is
    # Its time is kept in epoch seconds, rounded up (never sooner than the pace said).
    assert stored[0]["message"]["M"]["pace"]["M"]["full_at"] == {"N": str(int(AT.timestamp()) + 4)}
    snapshot = store.load(THREAD, now=AT, limit=10)

    def to_the_second(pace: Pace) -> Pace:
        return pace.model_copy(update={"full_at": pace.full_at.replace(microsecond=0) + timedelta(seconds=1)})

    assert first.pace is not None
    assert snapshot.recent[0] == first.model_copy(update={"pace": to_the_second(first.pace)})
    assert snapshot.pace == to_the_second(newest)
    assert _read_as_released(stored[2]).pace == to_the_second(newest)  # every release reads it
