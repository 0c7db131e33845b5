"""A reminder whose delivery Meta reported `failed`: marked on its item in the items table.

Attributes the `Reminder` model ignores (like the delivery claim's): `delivery_failed_at`,
`delivery_failed_code` and `delivery_failed_message_id` (the reminder is undelivered), and after a
template retry Meta accepted, `delivery_retried_at` and `delivery_retry_message_id`; a delivery
whose send had an unknown outcome, `delivery_unconfirmed_at` and `delivery_unconfirmed_token`. The reminder's
own fields (title, status, schedule) are not changed: the user can still see and manage it.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.capabilities.items import Reminder
from memo.errors import ConditionFailed

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _key(thread_id: str, reminder_id: str) -> dict[str, Any]:
    return to_item({"pk": f"USER#{thread_id}", "sk": f"REMINDER#{reminder_id}"})


class DynamoReminderFailures:
    def __init__(self, dynamodb: DynamoDBClient, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def get(self, thread_id: str, reminder_id: str) -> Reminder | None:
        raw = call(
            self._ddb.get_item, TableName=self._table, Key=_key(thread_id, reminder_id), ConsistentRead=True
        ).get("Item")
        if raw is None:
            return None
        values = from_item(raw)
        return Reminder.model_validate({k: v for k, v in values.items() if k not in ("pk", "sk", "kind")})

    def _set(self, thread_id: str, reminder_id: str, values: dict[str, Any]) -> bool:
        names = {f"#{k}": k for k in values}
        try:
            conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=_key(thread_id, reminder_id),
                UpdateExpression="SET " + ", ".join(f"#{k} = :{k}" for k in values),
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=to_item({f":{k}": v for k, v in values.items()}),
            )
        except ConditionFailed:
            return False
        return True

    def mark_undelivered(
        self, thread_id: str, reminder_id: str, *, code: int | None, message_id: str, at: datetime
    ) -> bool:
        return self._set(
            thread_id,
            reminder_id,
            {
                "delivery_failed_at": at.isoformat(),
                "delivery_failed_code": code if code is not None else 0,
                "delivery_failed_message_id": message_id,
            },
        )

    def mark_unconfirmed(self, thread_id: str, reminder_id: str, *, token: str, at: datetime) -> bool:
        """The delivery's send had an unknown outcome (5xx, timeout): kept for an operator, with the
        send token Meta's statuses for it carry in their tracking tag."""
        return self._set(
            thread_id,
            reminder_id,
            {"delivery_unconfirmed_at": at.isoformat(), "delivery_unconfirmed_token": token},
        )

    def mark_retried(self, thread_id: str, reminder_id: str, *, message_id: str, at: datetime) -> bool:
        return self._set(
            thread_id,
            reminder_id,
            {"delivery_retried_at": at.isoformat(), "delivery_retry_message_id": message_id},
        )
