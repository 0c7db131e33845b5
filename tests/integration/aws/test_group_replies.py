"""How many answers a group heard (`memo.aws.group_replies`) on moto's DynamoDB: at most the limit
per window, a new window counts anew, groups apart, and a limit of 0 answers nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.group_replies import KEPT_AFTER_SECONDS, DynamoGroupReplies
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name


def test_the_limit_is_taken_then_refused_until_the_next_window(conversation_db: Any) -> None:
    replies = DynamoGroupReplies(conversation_db, TABLE, limit=2, window_seconds=600)
    start = TEST_NOW.replace(minute=0, second=0, microsecond=0)
    assert [replies.take("g1", now=start + timedelta(seconds=n)) for n in range(4)] == [
        True,
        True,
        False,
        False,
    ]
    assert replies.take("g2", now=start)  # another group counts apart
    assert replies.take("g1", now=start + timedelta(seconds=600))  # the next window
    (item,) = [
        i
        for i in conversation_db.scan(TableName=TABLE)["Items"]
        if i["pk"]["S"] == "GROUP#g1" and i["replies"]["N"] == "2"
    ]
    window = int(start.timestamp()) // 600
    assert item["sk"]["S"] == f"REPLIES#{window}"
    assert int(item["ttl"]["N"]) == (window + 1) * 600 + KEPT_AFTER_SECONDS


def test_a_limit_of_zero_answers_no_group(conversation_db: Any) -> None:
    replies = DynamoGroupReplies(conversation_db, TABLE, limit=0, window_seconds=600)
    assert not replies.take("g1", now=TEST_NOW)
    assert conversation_db.scan(TableName=TABLE)["Items"] == []
