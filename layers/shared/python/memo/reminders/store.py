"""The reminders Lambda's adapters: the reminder item (read, claim, complete, release) and the
thread's conversation (profile, 24-hour window, memory).

The reminder item is the one `memo.capabilities.store` writes (`memo.capabilities.items` keys and
model). Delivery adds three attributes of its own, which the `Reminder` model ignores:
`delivery_claim_id`, `delivery_claimed_at` and `delivery_due_at` (the `due_at` the claim was made
for). A claim is refused while one exists for the same `due_at`, so a reminder moved to a new time
(the capability rewrites `due_at`) can be claimed again, while a second delivery of the same
occurrence cannot. Conditional failures come back as False; other ClientErrors propagate.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from botocore.exceptions import ClientError

from memo.aws.dynamo import from_item, to_item
from memo.capabilities.items import Reminder, reminder_sk, user_pk
from memo.conversation.model import Language, MemoryMessage
from memo.conversation.store import DynamoConversationStore

WINDOW = timedelta(hours=24)
RECENT_MESSAGES = 50
_KEYS = ("pk", "sk", "kind")


@dataclass(frozen=True)
class StoredReminder:
    reminder: Reminder
    due_key: str  # `due_at` exactly as stored: what a claim is made for
    claimed_for: str | None  # `delivery_due_at` of an existing claim


@dataclass(frozen=True)
class ThreadWindow:
    language: Language
    last_user_message_at: datetime | None

    def is_open(self, now: datetime) -> bool:
        """WhatsApp's customer-service window: 24 hours from the user's last message."""
        return self.last_user_message_at is not None and now - self.last_user_message_at < WINDOW


def _conditional_failed(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


class DynamoReminderItems:
    def __init__(self, dynamodb: Any, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def _key(self, reminder: Reminder) -> dict[str, Any]:
        return to_item({"pk": user_pk(reminder.thread_id), "sk": reminder_sk(reminder.reminder_id)})

    def load(self, thread_id: str, reminder_id: str) -> StoredReminder | None:
        raw = self._ddb.get_item(
            TableName=self._table,
            Key=to_item({"pk": user_pk(thread_id), "sk": reminder_sk(reminder_id)}),
            ConsistentRead=True,
        ).get("Item")
        if not raw:
            return None
        values = from_item(raw)
        reminder = Reminder.model_validate({k: v for k, v in values.items() if k not in _KEYS})
        return StoredReminder(
            reminder=reminder, due_key=str(values["due_at"]), claimed_for=values.get("delivery_due_at")
        )

    def _update(self, reminder: Reminder, **kwargs: Any) -> bool:
        try:
            self._ddb.update_item(TableName=self._table, Key=self._key(reminder), **kwargs)
        except ClientError as exc:
            if _conditional_failed(exc):
                return False
            raise
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
                {
                    ":c": claim_id,
                    ":now": now.astimezone(UTC).isoformat(),
                    ":due": stored.due_key,
                    ":scheduled": "scheduled",
                }
            ),
        )

    def complete(self, stored: StoredReminder, *, claim_id: str, sent_at: datetime) -> bool:
        """`scheduled` -> `sent` under our claim; False if the reminder changed or vanished meanwhile."""
        return self._update(
            stored.reminder,
            UpdateExpression="SET #status = :sent, sent_at = :sent_at",
            ConditionExpression="#status = :scheduled AND delivery_claim_id = :c",
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues=to_item(
                {
                    ":sent": "sent",
                    ":scheduled": "scheduled",
                    ":sent_at": sent_at.astimezone(UTC).isoformat(),
                    ":c": claim_id,
                }
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


class DynamoReminderConversation:
    """The thread as the reminders Lambda needs it, on the conversation table."""

    def __init__(self, dynamodb: Any, table_name: str, *, message_ttl_seconds: int) -> None:
        self._store = DynamoConversationStore(dynamodb, table_name)
        self._ttl = message_ttl_seconds

    def window(self, thread_id: str, *, now: datetime) -> ThreadWindow:
        snapshot = self._store.load(thread_id, now=now, limit=RECENT_MESSAGES)
        language: Language = snapshot.profile.language if snapshot.profile else "en"
        user_times = [
            m.at if m.at.tzinfo is not None else m.at.replace(tzinfo=UTC)
            for m in snapshot.recent
            if m.role == "user"
        ]
        last = max(user_times, default=None)
        return ThreadWindow(language=language, last_user_message_at=last)

    def record(self, thread_id: str, message: MemoryMessage) -> None:
        self._store.append(thread_id, [message], ttl_seconds=self._ttl)
