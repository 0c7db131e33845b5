"""Reminders on the items table (`memo.aws.items_reminders`) on moto's DynamoDB."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memo import tables
from memo.aws.items_reminders import DynamoReminders
from memo.capabilities.items import Reminder
from tests.support.clock import TEST_NOW

TABLE = tables.ITEMS.default_name
THREAD = "972501234567"


def _reminder(reminder_id: str, hours: int) -> Reminder:
    due = TEST_NOW + timedelta(hours=hours)
    return Reminder(
        reminder_id=reminder_id, thread_id=THREAD, title=reminder_id, due_at=due, created_at=TEST_NOW
    )


def test_reminders_are_created_once_and_listed_soonest_first(items_db: Any) -> None:
    reminders = DynamoReminders(items_db, TABLE)
    assert reminders.put_reminder(_reminder("later", 5))
    assert reminders.put_reminder(_reminder("past", -1))
    assert reminders.put_reminder(_reminder("soon", 1))
    assert not reminders.put_reminder(_reminder("soon", 1))
    assert [r.reminder_id for r in reminders.list_reminders(THREAD)] == ["past", "soon", "later"]
    assert [r.reminder_id for r in reminders.list_upcoming_reminders(THREAD, TEST_NOW)] == ["soon", "later"]


def test_a_sent_reminder_moved_is_scheduled_again(items_db: Any) -> None:
    reminders = DynamoReminders(items_db, TABLE)
    reminders.put_reminder(_reminder("r1", 1))
    assert reminders.mark_reminder_sent(THREAD, "r1", sent_at=TEST_NOW)
    assert not reminders.mark_reminder_sent(THREAD, "r1", sent_at=TEST_NOW)
    moved = reminders.update_reminder(THREAD, "r1", due_at=TEST_NOW + timedelta(days=1), title="gym")
    assert (
        moved is not None and moved.status == "scheduled" and moved.sent_at is None and moved.title == "gym"
    )
    assert reminders.update_reminder(THREAD, "gone", title="x") is None
    assert reminders.update_reminder(THREAD, "r1") == moved  # nothing to change: read as it is
