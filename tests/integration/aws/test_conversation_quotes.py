"""The items each sent message named (`memo.aws.conversation_quotes`) on moto's DynamoDB: kept 12
hours, read back for a reply that quotes the message."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.conversation_quotes import DynamoQuotes, quote_requests
from memo.aws.dynamo import from_item, item_bytes, to_item
from tests.support.clock import TEST_NOW

TABLE = tables.CONVERSATION.default_name
THREAD = "972501234567"
ACTION = {
    "createdAt": TEST_NOW.isoformat(),
    "capability": "reminders",
    "action": "create",
    "summary": "Reminder set: call mom",
}


def test_a_quoted_message_brings_back_its_items_until_they_expire(conversation_db: Any) -> None:
    quotes = DynamoQuotes(conversation_db, TABLE)
    quotes.remember(THREAD, ["wamid.a", "wamid.b"], [ACTION], now=TEST_NOW)
    assert [a.summary for a in quotes.recall(THREAD, "wamid.b", now=TEST_NOW)] == ["Reminder set: call mom"]
    assert quotes.recall(THREAD, "wamid.b", now=TEST_NOW + timedelta(hours=13)) == []
    assert quotes.recall(THREAD, "wamid.unknown", now=TEST_NOW) == []


def test_one_item_per_sent_message() -> None:
    requests = quote_requests(THREAD, ["wamid.a", "wamid.a", "wamid.b"], [ACTION], now=TEST_NOW)
    assert [r["PutRequest"]["Item"]["sk"]["S"] for r in requests] == ["CTX#wamid.a", "CTX#wamid.b"]


def test_the_actions_are_packed_and_a_list_written_before_is_still_read(conversation_db: Any) -> None:
    (request,) = quote_requests(THREAD, ["wamid.a"], [ACTION], now=TEST_NOW)
    item = request["PutRequest"]["Item"]
    assert set(item["actions"]) == {"B"} and item_bytes(item) < item_bytes(
        to_item({**from_item(item), "actions": [ACTION]})
    )
    conversation_db.put_item(TableName=TABLE, Item=to_item({**from_item(item), "actions": [ACTION]}))
    recalled = DynamoQuotes(conversation_db, TABLE).recall(THREAD, "wamid.a", now=TEST_NOW)
    assert [a.summary for a in recalled] == ["Reminder set: call mom"]
