"""The items table's keys and item format (`memo.aws.items_keys`)."""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest

from memo.aws.items_keys import dump, from_values, iso, list_item_sk, list_prefix, reminder_sk, user_pk
from memo.capabilities.items import Reminder
from tests.support.clock import TEST_NOW

JERUSALEM = timezone(timedelta(hours=2))


def test_keys_put_each_kind_under_its_users_partition() -> None:
    assert user_pk("972501234567") == "USER#972501234567"
    assert reminder_sk("r1") == "REMINDER#r1"
    assert list_item_sk("Groceries", "i1").startswith(list_prefix("groceries"))


def test_times_are_stored_in_utc_so_string_order_is_time_order() -> None:
    local = TEST_NOW.astimezone(JERUSALEM)
    assert iso(local) == TEST_NOW.isoformat()
    with pytest.raises(ValueError, match="timezone-aware"):
        iso(TEST_NOW.replace(tzinfo=None))


def test_a_model_round_trips_without_the_tables_own_attributes() -> None:
    reminder = Reminder(reminder_id="r1", thread_id="t", title="gym", due_at=TEST_NOW, created_at=TEST_NOW)
    values = dump(reminder)
    assert "sent_at" not in values and values["due_at"] == TEST_NOW.isoformat()
    stored = {**values, "pk": "USER#t", "sk": "REMINDER#r1", "kind": "reminder", "undo_key": "k", "ttl": 1}
    assert from_values(Reminder, stored) == reminder
