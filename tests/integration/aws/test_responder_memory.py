"""The reply Lambda's memory (`memo.aws.responder_memory`) on moto's DynamoDB: one reply per trace,
its actions merged into the thread's latest actions with it, and what it sent kept after the send."""

from __future__ import annotations

from typing import Any

from memo import tables
from memo.aws.conversation_quotes import DynamoQuotes
from memo.aws.conversation_thread import DynamoConversationStore
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
