"""The turn's one write (`memo.aws.conversation_turn`) on moto's DynamoDB: one transaction that
claims the reply, so a rerun of the same message writes nothing, and a lost pending condition
writes nothing either."""

from __future__ import annotations

import os
from typing import Any

import pytest
from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig

from memo import tables
from memo.aws.conversation_thread import DynamoConversationStore
from memo.aws.conversation_turn import TurnTransaction
from memo.aws.idempotency import TurnIdempotency
from memo.conversation.model import MemoryMessage
from memo.conversation.pending import PendingChange
from memo.errors import AlreadyTurned, ItemTooLarge
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"
WAMID = "wamid.HBgLE99C5044CFF0434AA0E7075E412D495E"
TTL = 30 * 86400
MESSAGES = [
    MemoryMessage(role="user", text="hi", at=TEST_NOW, wamid=WAMID),
    MemoryMessage(role="assistant", text="Hello!", at=TEST_NOW),
]


def _recorded(transaction: TurnTransaction, pending: PendingChange | None = None) -> str:
    return transaction.record(
        THREAD, WAMID, MESSAGES, ttl_seconds=TTL, result={"outcome": "smalltalk_hello"}, pending=pending
    )


def _texts(conversation_db: Any) -> list[str]:
    store = DynamoConversationStore(conversation_db, TABLE)
    return [m.text for m in store.load(THREAD, now=TEST_NOW, limit=10).recent]


def test_a_rerun_of_a_recorded_turn_writes_nothing(conversation_db: Any) -> None:
    transaction = TurnTransaction(conversation_db, TABLE, None)
    assert _recorded(transaction) == "recorded"
    assert _recorded(transaction) == "already_recorded"
    assert _texts(conversation_db) == ["hi", "Hello!"]


def test_a_lost_pending_condition_writes_nothing(conversation_db: Any) -> None:
    transaction = TurnTransaction(conversation_db, TABLE, None)
    assert _recorded(transaction, PendingChange.consume(THREAD, "h-gone")) == "pending_conflict"
    assert _texts(conversation_db) == []


def _claimed(conversation_db: Any) -> TurnIdempotency:
    records = TurnIdempotency(table_name=tables.IDEMPOTENCY.default_name, boto3_client=conversation_db)
    records.configure(IdempotencyConfig(event_key_jmespath="wamid"), function_name="turn")
    records.save_inprogress(data={"wamid": WAMID}, remaining_time_in_millis=30_000)
    return records


def test_the_turns_idempotency_record_is_its_claim(conversation_db: Any) -> None:
    conversation_db.create_table(**tables.IDEMPOTENCY.create_table_kwargs())
    assert _recorded(TurnTransaction(conversation_db, TABLE, _claimed(conversation_db))) == "recorded"
    with pytest.raises(AlreadyTurned) as turned:
        _recorded(TurnTransaction(conversation_db, TABLE, _claimed(conversation_db)))
    assert turned.value.result == {"outcome": "smalltalk_hello"}
    assert _texts(conversation_db) == ["hi", "Hello!"]


def test_a_turn_with_an_item_over_the_limit_writes_nothing(conversation_db: Any) -> None:
    """Every item the transaction puts is measured before the request: one over DynamoDB's limit
    refuses the whole turn (the recorder then answers in its place), and nothing is written."""
    reply = "".join(os.urandom(32).hex() for _ in range(7_000))  # 448 KB
    messages = [MESSAGES[0], MESSAGES[1].model_copy(update={"text": reply})]
    with pytest.raises(ItemTooLarge) as refused:
        TurnTransaction(conversation_db, TABLE, None).record(
            THREAD, WAMID, messages, ttl_seconds=TTL, result={"outcome": "smalltalk_hello"}
        )
    assert refused.value.what == "MSG"
    assert _texts(conversation_db) == []
