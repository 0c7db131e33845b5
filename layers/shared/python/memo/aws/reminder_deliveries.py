"""The reminders Lambda's `ReminderItems`: the claim, completion and release of one delivery, on the
reminder item of the items table (`memo.aws.items_keys`).

Three delivery attributes the `Reminder` model ignores: `delivery_claim_id`, `delivery_claimed_at`
and `delivery_due_at` (the `due_at` the claim was made for). A claim is refused while one exists for
the same `due_at`, so a reminder moved to a new time can be claimed again, while a second delivery of
the same occurrence cannot. A lost condition is False.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.aws.items_keys import KEY_ATTRIBUTES, reminder_sk, user_pk
from memo.capabilities.items import Reminder
from memo.errors import ConditionFailed
from memo.reminders.store import StoredReminder

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _utc(value: datetime) -> str:
    return value.astimezone(UTC).isoformat()


class DynamoReminderItems:
    """The reminder item `memo.aws.items_table.DynamoItemsRepository` writes, with its delivery."""

    def __init__(self, dynamodb: DynamoDBClient, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def _key(self, reminder: Reminder) -> dict[str, Any]:
        return to_item({"pk": user_pk(reminder.thread_id), "sk": reminder_sk(reminder.reminder_id)})

    def load(self, thread_id: str, reminder_id: str) -> StoredReminder | None:
        raw = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
            ConsistentRead=True,
        ).get("Item")
        if not raw:
            return None
        values = from_item(raw)
        reminder = Reminder.model_validate({k: v for k, v in values.items() if k not in KEY_ATTRIBUTES})
        return StoredReminder(
            reminder=reminder, due_key=str(values["due_at"]), claimed_for=values.get("delivery_due_at")
        )

    def _update(self, reminder: Reminder, **kwargs: Any) -> bool:
        try:
            conditional_write(self._ddb.update_item, TableName=self._table, Key=self._key(reminder), **kwargs)
        except ConditionFailed:
            return False
        return True

    def claim(self, stored: StoredReminder, *, claim_id: str, now: datetime) -> bool:
        """Take the delivery of this occurrence; False if it is claimed, sent, cancelled, moved or gone."""
        return self._update(
            stored.reminder,
            UpdateExpression="SET delivery_claim_id = :c, delivery_claimed_at = :now, delivery_due_at = :due",
            ConditionExpression=(
                "attribute_exists(pk) AND #status = :scheduled AND due_at = :due "
                "AND (attribute_not_exists(delivery_due_at) OR delivery_due_at <> :due)"
            ),
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues=to_item(
                {":c": claim_id, ":now": _utc(now), ":due": stored.due_key, ":scheduled": "scheduled"}
            ),
        )

    def complete(
        self, stored: StoredReminder, *, claim_id: str, sent_at: datetime, next_due: datetime | None = None
    ) -> bool:
        """`scheduled` -> `sent` under our claim; False if the reminder changed or vanished meanwhile.
        With `next_due` (a repeating reminder) it stays `scheduled` and moves to its next occurrence,
        so that occurrence's delivery can claim it and this one's cannot claim it again."""
        if next_due is not None:
            return self._update(
                stored.reminder,
                UpdateExpression="SET due_at = :next, sent_at = :sent_at",
                ConditionExpression="#status = :scheduled AND delivery_claim_id = :c AND due_at = :due",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_item(
                    {
                        ":next": _utc(next_due),
                        ":scheduled": "scheduled",
                        ":sent_at": _utc(sent_at),
                        ":c": claim_id,
                        ":due": stored.due_key,
                    }
                ),
            )
        return self._update(
            stored.reminder,
            UpdateExpression="SET #status = :sent, sent_at = :sent_at",
            ConditionExpression="#status = :scheduled AND delivery_claim_id = :c",
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues=to_item(
                {":sent": "sent", ":scheduled": "scheduled", ":sent_at": _utc(sent_at), ":c": claim_id}
            ),
        )

    def release(self, stored: StoredReminder, *, claim_id: str, error: str) -> bool:
        """Give the claim back after a send that certainly failed, so a retry can deliver it."""
        return self._update(
            stored.reminder,
            UpdateExpression=(
                "SET delivery_last_error = :e REMOVE delivery_claim_id, delivery_claimed_at, delivery_due_at"
            ),
            ConditionExpression="delivery_claim_id = :c",
            ExpressionAttributeValues=to_item({":c": claim_id, ":e": error}),
        )
