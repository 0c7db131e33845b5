"""The items a sent message named, on the conversation table: one `CTX#<message id>` item per sent
message that named items (below `MSG#`: the thread load never reads them), for replies that quote it
(`memo.reply.quotes`). Kept as long as latest actions (12 hours, TTL; reads drop expired items
themselves). The actions are stored packed (`memo.packing`, like the latest actions); items written
before hold them as a list, read as they are."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.aws.conversation_table import QUOTE_PREFIX, thread_pk
from memo.aws.dynamo import batch_write, from_item, to_item
from memo.aws.faults import call
from memo.domain import LatestAction
from memo.packing import pack, unpack
from memo.reply.memory import LATEST_ACTIONS_SCOPE
from memo.reply.quotes import parse_quoted

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def quote_requests(
    thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
) -> list[dict[str, Any]]:
    """One `CTX#<message id>` put per sent message that named items (12 hours, like latest actions)."""
    ttl = int((now + LATEST_ACTIONS_SCOPE).timestamp())
    return [
        {
            "PutRequest": {
                "Item": to_item(
                    {
                        "pk": thread_pk(thread_id),
                        "sk": f"{QUOTE_PREFIX}{message_id}",
                        "actions": pack(json.dumps(list(actions), separators=(",", ":"), ensure_ascii=False)),
                        "ttl": ttl,
                    }
                )
            }
        }
        for message_id in dict.fromkeys(message_ids)
    ]


class DynamoQuotes:
    """`QuoteStore`: one `CTX#<message id>` item per sent message that named items, kept as long as
    latest actions (12 hours, TTL; reads drop expired items themselves)."""

    def __init__(
        self, dynamodb: DynamoDBClient, table_name: str, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._sleep = sleep

    def remember(
        self, thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> None:
        requests = quote_requests(thread_id, message_ids, actions, now=now)
        if requests:
            batch_write(self._ddb, self._table, requests, sleep=self._sleep)

    def recall(self, thread_id: str, message_id: str, *, now: datetime) -> list[LatestAction]:
        raw = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item({"pk": thread_pk(thread_id), "sk": f"{QUOTE_PREFIX}{message_id}"}),
        ).get("Item")
        if raw is None:
            return []
        item = from_item(raw)
        if int(item.get("ttl", 0)) <= int(now.timestamp()):
            return []
        actions = item.get("actions", [])
        return parse_quoted(json.loads(unpack(actions)) if isinstance(actions, bytes) else actions)
