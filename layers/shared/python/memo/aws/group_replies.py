"""How many answers a WhatsApp group has heard, on the conversation table (`GroupReplies`,
`memo.turn.other_events`): one counter item per group and window, `pk = GROUP#<group id>`,
`sk = REPLIES#<window number>` (the epoch seconds divided by the window's length), with a TTL just
past the window's end.

A reply takes one conditional UpdateItem: the counter goes up by one on the condition that it is
below the limit, so members writing at once (their messages are turned side by side: the turn
queue's groups are the senders) never pass it together.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from memo.aws.dynamo import conditional_write, to_item
from memo.errors import ConditionFailed

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

GROUP_PREFIX = "GROUP#"
REPLIES_PREFIX = "REPLIES#"
# How long a window's counter outlives the window (DynamoDB's TTL deletes late anyway).
KEPT_AFTER_SECONDS = 3600


class DynamoGroupReplies:
    """`GroupReplies`: at most `limit` answers per group in each window of `window_seconds`."""

    def __init__(self, dynamodb: DynamoDBClient, table_name: str, *, limit: int, window_seconds: int) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._limit = limit
        self._window = window_seconds

    def take(self, group_id: str, *, now: datetime) -> bool:
        if self._limit <= 0:
            return False
        window = int(now.timestamp()) // self._window
        try:
            conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=to_item({"pk": f"{GROUP_PREFIX}{group_id}", "sk": f"{REPLIES_PREFIX}{window}"}),
                UpdateExpression="SET #ttl = :ttl ADD replies :one",
                ConditionExpression="attribute_not_exists(replies) OR replies < :limit",
                ExpressionAttributeNames={"#ttl": "ttl"},
                ExpressionAttributeValues=to_item(
                    {
                        ":one": 1,
                        ":limit": self._limit,
                        ":ttl": (window + 1) * self._window + KEPT_AFTER_SECONDS,
                    }
                ),
            )
        except ConditionFailed:
            return False
        return True
