"""A reminder whose delivery failed, marked on its item (`memo.aws.reminder_failures`), on moto's
DynamoDB: the reminder itself is left as it was."""

from __future__ import annotations

from typing import Any

from memo import tables
from memo.aws.items_table import DynamoItemsRepository
from memo.aws.reminder_failures import DynamoReminderFailures
from memo.capabilities.items import Reminder
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"


def test_a_failed_delivery_is_marked_and_the_reminder_left_alone(items_db: Any) -> None:
    reminder = Reminder(reminder_id="r1", thread_id=THREAD, title="gym", due_at=TEST_NOW, created_at=TEST_NOW)
    DynamoItemsRepository(items_db, TABLE).put_reminder(reminder)
    failures = DynamoReminderFailures(items_db, TABLE)
    assert failures.mark_undelivered(THREAD, "r1", code=131047, message_id="wamid.out", at=TEST_NOW)
    assert failures.mark_retried(THREAD, "r1", message_id="wamid.retry", at=TEST_NOW)
    assert failures.mark_unconfirmed(THREAD, "r1", token="t1", at=TEST_NOW)
    assert not failures.mark_undelivered(THREAD, "gone", code=None, message_id="wamid.x", at=TEST_NOW)
    assert failures.get(THREAD, "r1") == reminder
    (item,) = items_db.scan(TableName=TABLE)["Items"]
    assert item["delivery_failed_code"] == {"N": "131047"} and item["delivery_retry_message_id"] == {
        "S": "wamid.retry"
    }
