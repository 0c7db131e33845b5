"""What an outbound message carried, and the once-only claim of a failed message's follow-up
(`memo.aws.outbound_log`), on moto's DynamoDB."""

from __future__ import annotations

from typing import Any

from memo import tables
from memo.aws.outbound_log import DynamoOutboundLog
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name


def test_a_failed_messages_follow_up_is_claimed_once(conversation_db: Any) -> None:
    log = DynamoOutboundLog(conversation_db, TABLE)
    assert log.get("wamid.out") is None
    assert log.claim_retry("wamid.out", at=TEST_NOW)
    assert not log.claim_retry("wamid.out", at=TEST_NOW)
    assert log.get("wamid.out") is None  # the claim is not a record of what was sent
