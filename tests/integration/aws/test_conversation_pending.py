"""The thread's pending question (`memo.aws.conversation_pending`) on moto's DynamoDB: created once
while live, rewritten and consumed only as the question it was, whoever loses a race is told."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest

from memo import tables
from memo.aws.conversation_pending import DynamoPendingStore, pending_write
from memo.conversation.pending import PendingChange, PendingExists, PendingGone
from memo.domain import PendingHITL, TurnInput, TurnState
from memo.errors import ItemTooLarge
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"


def _state(hitl_id: str = "h-1", *, expires_in: timedelta = timedelta(minutes=5)) -> TurnState:
    pending = PendingHITL(
        hitl_id=hitl_id,
        kind="approval",
        source="planner",
        reason="high_risk",
        origin_step_id="s1",
        return_to={"node": "resolver_router", "mode": "continue"},
        expected_input="yes_no",
        question="Approve?",
        expires_at=TEST_NOW + expires_in,
        created_at=TEST_NOW + expires_in - timedelta(minutes=10),
    )
    return TurnState(
        trace_id="wamid.1",
        thread_id=THREAD,
        input=TurnInput(message="delete it", language="en", timezone="UTC"),
        pending_hitl=pending,
    )


def test_one_live_question_per_thread(conversation_db: Any) -> None:
    store = DynamoPendingStore(conversation_db, TABLE)
    store.create(_state(), now=TEST_NOW)
    with pytest.raises(PendingExists):
        store.create(_state("h-2"), now=TEST_NOW)
    current = store.current(THREAD)
    assert current is not None and current.pending_hitl is not None
    assert current.pending_hitl.hitl_id == "h-1"


def test_an_expired_question_may_be_overwritten(conversation_db: Any) -> None:
    store = DynamoPendingStore(conversation_db, TABLE)
    store.create(_state(expires_in=timedelta(minutes=-1)), now=TEST_NOW)
    store.create(_state("h-2"), now=TEST_NOW)
    current = store.current(THREAD)
    assert current is not None and current.pending_hitl is not None
    assert current.pending_hitl.hitl_id == "h-2"


def test_a_question_is_rewritten_and_consumed_only_as_itself(conversation_db: Any) -> None:
    store = DynamoPendingStore(conversation_db, TABLE)
    store.create(_state(), now=TEST_NOW)
    with pytest.raises(PendingGone):
        store.replace(_state("h-2"), expected_hitl_id="h-2")
    store.replace(_state(), expected_hitl_id="h-1")
    store.consume(THREAD, "h-1")
    with pytest.raises(PendingGone):
        store.consume(THREAD, "h-1")
    assert store.current(THREAD) is None


def test_a_change_in_the_turns_transaction_has_the_stores_conditions() -> None:
    create = pending_write(TABLE, PendingChange.create(_state(), now=TEST_NOW))
    assert create["Put"]["ConditionExpression"] == "attribute_not_exists(pk)"
    replace = pending_write(TABLE, PendingChange.replace(_state(), expected_hitl_id="h-1"))
    assert replace["Put"]["ConditionExpression"] == "hitlId = :id"
    consume = pending_write(TABLE, PendingChange.consume(THREAD, "h-1"))
    assert consume["Delete"]["ConditionExpression"] == "hitlId = :id"
    discard = pending_write(TABLE, PendingChange.discard(THREAD, "h-1"))
    assert discard["Delete"]["ConditionExpression"] == "attribute_not_exists(pk) OR hitlId = :id"


def test_a_question_too_large_to_keep_is_refused_before_any_write(
    conversation_db: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The frozen state grows with what the question carries: over DynamoDB's item limit it is
    refused (logged) before the request, and nothing is stored."""
    noise = "".join(os.urandom(32).hex() for _ in range(20_000))  # 1.28 MB that packs to about 0.7 MB
    state = _state()
    big = state.model_copy(update={"input": state.input.model_copy(update={"message": noise})})
    with pytest.raises(ItemTooLarge) as refused:
        DynamoPendingStore(conversation_db, TABLE).create(big, now=TEST_NOW)
    assert refused.value.what == "PENDING" and refused.value.size > refused.value.limit
    assert DynamoPendingStore(conversation_db, TABLE).current(THREAD) is None
    assert "ITEM_TOO_LARGE" in caplog.text
