"""A reminder delivery's claim/complete/release writes (`memo.aws.reminder_deliveries`) on moto's
DynamoDB, against items the capability store wrote."""

from __future__ import annotations

from datetime import timedelta

from memo import tables
from memo.aws.items_table import DynamoItemsRepository
from memo.aws.reminder_deliveries import DynamoReminderItems
from memo.capabilities.items import Reminder
from tests.integration.reminders.conftest import START, THREAD, LocalAws


def _put(aws: LocalAws) -> tuple[DynamoItemsRepository, DynamoReminderItems]:
    repo = DynamoItemsRepository(aws.dynamodb, tables.ITEMS.default_name)
    repo.put_reminder(
        Reminder(reminder_id="r1", thread_id=THREAD, title="gym", due_at=START, created_at=START)
    )
    return repo, DynamoReminderItems(aws.dynamodb, tables.ITEMS.default_name)


def test_one_occurrence_is_claimed_once(local_aws: LocalAws) -> None:
    _, items = _put(local_aws)
    stored = items.load(THREAD, "r1")
    assert stored is not None and stored.reminder.title == "gym"
    assert items.claim(stored, claim_id="a", now=START)
    assert not items.claim(stored, claim_id="b", now=START)
    assert not items.complete(stored, claim_id="b", sent_at=START)  # not the holder
    assert items.complete(stored, claim_id="a", sent_at=START)
    again = items.load(THREAD, "r1")
    assert again is not None and again.reminder.status == "sent"
    assert not items.claim(again, claim_id="c", now=START)


def test_a_released_claim_can_be_taken_again(local_aws: LocalAws) -> None:
    _, items = _put(local_aws)
    stored = items.load(THREAD, "r1")
    assert stored is not None
    assert items.claim(stored, claim_id="a", now=START)
    assert items.release(stored, claim_id="a", error="WHATSAPP_131047")
    assert items.claim(stored, claim_id="b", now=START)


def test_a_reminder_moved_after_it_was_sent_can_be_delivered_again(local_aws: LocalAws) -> None:
    repo, items = _put(local_aws)
    stored = items.load(THREAD, "r1")
    assert stored is not None and items.claim(stored, claim_id="a", now=START)
    assert items.complete(stored, claim_id="a", sent_at=START)
    repo.update_reminder(THREAD, "r1", due_at=START + timedelta(days=1))  # "remind me again tomorrow"
    moved = items.load(THREAD, "r1")
    assert moved is not None and moved.reminder.status == "scheduled"
    assert not items.claim(stored, claim_id="stale", now=START)  # the old occurrence stays done
    assert items.claim(moved, claim_id="b", now=START + timedelta(days=1))


def test_a_deleted_reminder_cannot_be_claimed(local_aws: LocalAws) -> None:
    repo, items = _put(local_aws)
    stored = items.load(THREAD, "r1")
    assert stored is not None
    repo.delete_reminder(THREAD, "r1")
    assert items.load(THREAD, "r1") is None
    assert not items.claim(stored, claim_id="a", now=START)
