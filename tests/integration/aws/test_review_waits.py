"""The thread's requests waiting for an operator (`memo.aws.review_waits`) on moto's DynamoDB."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.review_waits import DynamoReviewWaits
from memo.operator_review.waits import ReviewWait
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"


def test_live_waits_newest_first_and_a_withdrawn_one_forgotten(conversation_db: Any) -> None:
    waits = DynamoReviewWaits(conversation_db, TABLE)
    waits.remember(THREAD, ReviewWait(trace_id="t1", step_ids=("s1",), until=TEST_NOW + timedelta(hours=1)))
    waits.remember(
        THREAD, ReviewWait(trace_id="t2", step_ids=("s1", "s2"), until=TEST_NOW + timedelta(hours=2))
    )
    waits.remember(THREAD, ReviewWait(trace_id="old", step_ids=("s1",), until=TEST_NOW - timedelta(hours=1)))
    assert [w.trace_id for w in waits.live(THREAD, now=TEST_NOW)] == ["t2", "t1"]
    waits.forget(THREAD, "t2")
    waits.forget(THREAD, "old")
    assert [w.trace_id for w in waits.live(THREAD, now=TEST_NOW)] == ["t1"]
    waits.forget(THREAD, "t1")
    assert waits.live(THREAD, now=TEST_NOW) == []
    assert conversation_db.scan(TableName=TABLE)["Items"] == []
