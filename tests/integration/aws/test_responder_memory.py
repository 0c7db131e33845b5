"""The reply Lambda's memory (`memo.aws.responder_memory`) on moto's DynamoDB: one reply per trace,
its actions merged into the thread's latest actions with it, and what it sent kept after the send."""

from __future__ import annotations

import os
from typing import Any

import pytest

from memo import tables
from memo.aws.conversation_quotes import DynamoQuotes
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.dynamo import ITEM_LIMIT_BYTES, item_bytes
from memo.aws.responder_memory import DynamoResponderMemory
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"
ACTION = {
    "createdAt": TEST_NOW.isoformat(),
    "capability": "reminders",
    "action": "create",
    "summary": "Reminder set: call mom",
}


def test_a_trace_is_answered_once_with_its_actions(conversation_db: Any) -> None:
    memory = DynamoResponderMemory(conversation_db, TABLE, message_ttl_seconds=86400)
    assert memory.claim_reply(THREAD, "wamid.1", now=TEST_NOW, actions=[ACTION])
    assert not memory.claim_reply(THREAD, "wamid.1", now=TEST_NOW, actions=[ACTION])
    snapshot = DynamoConversationStore(conversation_db, TABLE).load(THREAD, now=TEST_NOW, limit=5)
    assert [a["summary"] for a in snapshot.latest_actions] == ["Reminder set: call mom"]


def test_a_released_claim_can_be_taken_again(conversation_db: Any) -> None:
    memory = DynamoResponderMemory(conversation_db, TABLE, message_ttl_seconds=86400)
    assert memory.claim_reply(THREAD, "wamid.1", now=TEST_NOW)
    memory.release_reply(THREAD, "wamid.1")
    assert memory.claim_reply(THREAD, "wamid.1", now=TEST_NOW)


def test_what_was_sent_is_remembered_after_the_send(conversation_db: Any) -> None:
    memory = DynamoResponderMemory(conversation_db, TABLE, message_ttl_seconds=86400)
    memory.record_sent(THREAD, text="⏰ Done", message_ids=["wamid.out"], actions=[ACTION], now=TEST_NOW)
    snapshot = DynamoConversationStore(conversation_db, TABLE).load(THREAD, now=TEST_NOW, limit=5)
    assert [m.text for m in snapshot.recent] == ["⏰ Done"]
    quoted = DynamoQuotes(conversation_db, TABLE).recall(THREAD, "wamid.out", now=TEST_NOW)
    assert [a.summary for a in quoted] == ["Reminder set: call mom"]


def test_actions_written_by_another_responder_meanwhile_are_kept(conversation_db: Any) -> None:
    memory = DynamoResponderMemory(conversation_db, TABLE, message_ttl_seconds=86400)
    memory.record_actions(THREAD, [ACTION], now=TEST_NOW)
    merged = memory.record_actions(THREAD, [{**ACTION, "summary": "Note saved"}], now=TEST_NOW)
    assert {a["summary"] for a in merged} == {"Reminder set: call mom", "Note saved"}


def _bulky(n: int) -> dict[str, Any]:
    """An entry that packs badly (random ids compress little): about 70 KB packed."""
    ids = [os.urandom(16).hex() for _ in range(4_000)]
    return {**ACTION, "summary": f"action {n}", "operationId": f"wamid.{n}:s1", "externalIds": {"ids": ids}}


def test_latest_actions_keep_the_newest_that_fit_and_say_how_many_were_dropped(
    conversation_db: Any, caplog: pytest.LogCaptureFixture
) -> None:
    memory = DynamoResponderMemory(conversation_db, TABLE, message_ttl_seconds=86400)
    stored = memory.record_actions(THREAD, [_bulky(n) for n in range(10)], now=TEST_NOW)
    assert 0 < len(stored) < 10 and stored[0]["summary"] == "action 0"  # the first given is the newest
    raw = conversation_db.get_item(
        TableName=TABLE, Key={"pk": {"S": f"THREAD#{THREAD}"}, "sk": {"S": "RECENT_ACTIONS"}}
    )
    assert item_bytes(raw["Item"]) <= ITEM_LIMIT_BYTES
    assert "LATEST_ACTIONS_TRIMMED" in caplog.text


def test_a_sent_reply_too_large_to_keep_is_left_out_and_its_quotes_kept(
    conversation_db: Any, caplog: pytest.LogCaptureFixture
) -> None:
    memory = DynamoResponderMemory(conversation_db, TABLE, message_ttl_seconds=86400)
    text = "".join(os.urandom(8).hex() for _ in range(30_000))  # 480 KB
    memory.record_sent(THREAD, text=text, message_ids=["wamid.out"], actions=[ACTION], now=TEST_NOW)
    snapshot = DynamoConversationStore(conversation_db, TABLE).load(THREAD, now=TEST_NOW, limit=5)
    assert snapshot.recent == []
    assert [
        a.summary for a in DynamoQuotes(conversation_db, TABLE).recall(THREAD, "wamid.out", now=TEST_NOW)
    ] == ["Reminder set: call mom"]
    assert "ITEM_TOO_LARGE" in caplog.text
