"""The `OutboundLog` port on the conversation table, by outbound WhatsApp message id.

Two items, each in the message's own partition `pk = OUTBOUND#<message id>` (the thread load never
reads it), kept `ttl_seconds`:
- `sk = OUTBOUND`: what the message carried, written only for a HITL question that a 👍/✅ reaction
  may answer (`record`); every other message is told apart by its tracking tag, with no write;
- `sk = FOLLOWED_UP`: the claim of a failed message's follow-up, created when the follow-up runs by a
  PutItem on `attribute_not_exists(pk)`: the follow-up runs once, however often Meta delivers the
  `failed` status, and needs no record written at send time.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.errors import ConditionFailed
from memo.whatsapp.tracking import OutboundRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

OUTBOUND_SK = "OUTBOUND"
FOLLOWED_UP_SK = "FOLLOWED_UP"
DEFAULT_TTL_SECONDS = 14 * 24 * 3600


def _pk(message_id: str) -> str:
    return f"OUTBOUND#{message_id}"


class DynamoOutboundLog:
    def __init__(
        self, dynamodb: DynamoDBClient, table_name: str, *, ttl_seconds: int = DEFAULT_TTL_SECONDS
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._ttl = ttl_seconds

    def record(self, records: list[OutboundRecord]) -> None:
        for record in records:
            if not record.message_id:
                continue
            item = {
                "pk": _pk(record.message_id),
                "sk": OUTBOUND_SK,
                "outbound": record.model_dump(mode="json", exclude_none=True),
                "ttl": int(record.at.timestamp()) + self._ttl,
            }
            call(self._ddb.put_item, TableName=self._table, Item=to_item(item))

    def get(self, message_id: str) -> OutboundRecord | None:
        key = to_item({"pk": _pk(message_id), "sk": OUTBOUND_SK})
        response = call(self._ddb.get_item, TableName=self._table, Key=key, ConsistentRead=True)
        raw = response.get("Item")
        if raw is None:
            return None
        return OutboundRecord.model_validate(from_item(raw)["outbound"])

    def claim_retry(self, message_id: str, *, at: datetime) -> bool:
        item = {
            "pk": _pk(message_id),
            "sk": FOLLOWED_UP_SK,
            "followedUpAt": at.isoformat(),
            "ttl": int(at.timestamp()) + self._ttl,
        }
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=to_item(item),
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ConditionFailed:
            return False
        return True
