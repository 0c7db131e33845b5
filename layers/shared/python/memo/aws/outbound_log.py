"""The `OutboundLog` port on the conversation table: one item per outbound WhatsApp message id.

`pk = OUTBOUND#<message id>`, `sk = OUTBOUND`: its own partition, so the thread load never reads it.
Kept `ttl_seconds` (Meta reports a failure within days; reactions come while a question is open).
`claim_retry` is a conditional write (`attribute_not_exists(retriedAt)`): the follow-up of a failed
status runs once, whoever delivers the status twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.errors import ConditionFailed
from memo.whatsapp.tracking import OutboundRecord

OUTBOUND_SK = "OUTBOUND"
DEFAULT_TTL_SECONDS = 14 * 24 * 3600


def _key(message_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"OUTBOUND#{message_id}"}, "sk": {"S": OUTBOUND_SK}}


class DynamoOutboundLog:
    def __init__(self, dynamodb: Any, table_name: str, *, ttl_seconds: int = DEFAULT_TTL_SECONDS) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._ttl = ttl_seconds

    def record(self, records: list[OutboundRecord]) -> None:
        for record in records:
            if not record.message_id:
                continue
            item = {
                "pk": f"OUTBOUND#{record.message_id}",
                "sk": OUTBOUND_SK,
                "outbound": record.model_dump(mode="json"),
                "ttl": int(record.at.timestamp()) + self._ttl,
            }
            call(self._ddb.put_item, TableName=self._table, Item=to_item(item))

    def get(self, message_id: str) -> OutboundRecord | None:
        response = call(self._ddb.get_item, TableName=self._table, Key=_key(message_id), ConsistentRead=True)
        raw = response.get("Item")
        if raw is None:
            return None
        return OutboundRecord.model_validate(from_item(raw)["outbound"])

    def claim_retry(self, message_id: str, *, at: datetime) -> bool:
        try:
            conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=_key(message_id),
                UpdateExpression="SET retriedAt = :at",
                ConditionExpression="attribute_exists(pk) AND attribute_not_exists(retriedAt)",
                ExpressionAttributeValues={":at": {"S": at.isoformat()}},
            )
        except ConditionFailed:
            return False
        return True
