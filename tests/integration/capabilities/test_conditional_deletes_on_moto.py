"""Deletes of approved, pinned reminders without a read before the write, on moto.

One conditional UpdateItem per reminder says what happened: deleted (returning the reminder as it
was), gone, or changed after the approval was asked (left exactly as it is). A retry of the same
step counts its own tombstone again; any other delete finds it gone. Through the capability: the
schedule of a changed reminder is never cancelled, and the result names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.client import BaseClient
from moto import mock_aws

from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.base import ExecutionContext
from memo.capabilities.common import CHANGED_SINCE_APPROVAL
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.capabilities.items import Reminder, Tombstone
from memo.tables import ITEMS
from tests.unit.capabilities.fakes import FakeScheduler

THREAD = "972501234567"
ASKED = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
UNDO = Tombstone(key="wamid.del", until=ASKED + timedelta(minutes=10), operation="wamid.del:s1")
KEY = {"pk": {"S": f"USER#{THREAD}"}, "sk": {"S": "REMINDER#r1"}}


@pytest.fixture
def ddb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**ITEMS.create_table_kwargs())
        yield client


@pytest.fixture
def repo(ddb: Any) -> DynamoItemsRepository:
    return DynamoItemsRepository(ddb, ITEMS.default_name)


@pytest.fixture
def requests(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The DynamoDB operations made, in order."""
    made: list[str] = []
    original = BaseClient._make_api_call

    def call(client: Any, operation: str, params: dict[str, Any]) -> Any:
        made.append(operation)
        return original(client, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", call)
    return made


def _reminder(reminder_id: str, title: str, hours: int = 3) -> Reminder:
    return Reminder(
        reminder_id=reminder_id,
        thread_id=THREAD,
        title=title,
        due_at=ASKED + timedelta(hours=hours),
        schedule_name=f"reminder-{reminder_id}",
        created_at=ASKED - timedelta(hours=1),
    )


def _raw(ddb: Any) -> dict[str, Any]:
    return dict(ddb.get_item(TableName=ITEMS.default_name, Key=KEY)["Item"])


def test_one_conditional_write_deletes_and_returns_the_reminder_as_it_was(
    repo: DynamoItemsRepository, ddb: Any, requests: list[str]
) -> None:
    repo.put_reminder(_reminder("r1", "call mom"))
    requests.clear()

    removal = repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=ASKED)

    assert requests == ["UpdateItem"]
    assert removal.status == "deleted" and removal.item is not None
    assert (removal.item.title, removal.item.status) == ("call mom", "scheduled")
    raw = _raw(ddb)
    assert raw["status"]["S"] == "cancelled" and raw["undo_status"]["S"] == "scheduled"


def test_a_retry_of_the_same_step_counts_its_tombstone_again_and_keeps_the_status(
    repo: DynamoItemsRepository, ddb: Any
) -> None:
    repo.put_reminder(_reminder("r1", "call mom"))
    repo.remove_reminder(THREAD, "r1", undo=UNDO)

    again = repo.remove_reminder(THREAD, "r1", undo=UNDO)
    other_step = repo.remove_reminder(
        THREAD, "r1", undo=UNDO.model_copy(update={"operation": "wamid.del:s2"})
    )

    assert again.status == "deleted" and again.item is not None and again.item.status == "scheduled"
    assert other_step.status == "gone" and other_step.item is None
    assert _raw(ddb)["undo_status"]["S"] == "scheduled"  # a restore brings it back scheduled
    (restored,) = repo.restore(THREAD, "wamid.del", now=ASKED + timedelta(minutes=1)).restored
    assert isinstance(restored, Reminder) and restored.status == "scheduled"
    assert "undo_op" not in _raw(ddb)


def test_a_reminder_that_is_not_there_is_gone(repo: DynamoItemsRepository, requests: list[str]) -> None:
    removal = repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=ASKED)
    assert removal.status == "gone" and requests == ["UpdateItem"]


def test_a_reminder_changed_after_the_question_is_left_exactly_as_it_is(
    repo: DynamoItemsRepository, ddb: Any, requests: list[str]
) -> None:
    repo.put_reminder(_reminder("r1", "call mom"))
    repo.update_reminder(
        THREAD, "r1", due_at=ASKED + timedelta(hours=8), changed_at=ASKED + timedelta(minutes=1)
    )
    before = _raw(ddb)
    requests.clear()

    removal = repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=ASKED)

    assert requests == ["UpdateItem"]  # the reason came back with the failed condition
    assert removal.status == "changed" and removal.item is not None
    assert removal.item.due_at == ASKED + timedelta(hours=8)
    assert _raw(ddb) == before


def test_a_change_before_the_question_does_not_protect_it(repo: DynamoItemsRepository) -> None:
    repo.put_reminder(_reminder("r1", "call mom"))
    repo.update_reminder(THREAD, "r1", title="call mum", changed_at=ASKED - timedelta(minutes=1))
    assert repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=ASKED).status == "deleted"


def test_a_schedule_name_update_is_not_a_change_by_the_person(repo: DynamoItemsRepository) -> None:
    """Undo re-creates a restored reminder's schedule: not an edit the approval missed."""
    repo.put_reminder(_reminder("r1", "call mom"))
    repo.update_reminder(THREAD, "r1", schedule_name="reminder-r1", changed_at=ASKED + timedelta(minutes=1))
    assert repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=ASKED).status == "deleted"


def _ctx(step: str = "s1") -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD,
        trace_id="wamid.del",
        step_id=step,
        timezone="Asia/Jerusalem",
        now=ASKED + timedelta(minutes=2),
        unchanged_since=ASKED,
    )


def test_delete_all_touches_only_what_is_still_as_approved(
    repo: DynamoItemsRepository, requests: list[str]
) -> None:
    scheduler = FakeScheduler()
    for reminder in (_reminder("r1", "call mom"), _reminder("r2", "buy milk", 4)):
        repo.put_reminder(reminder)
        scheduler.schedule(
            reminder_id=reminder.reminder_id, thread_id=THREAD, at=reminder.due_at, timezone="UTC"
        )
    repo.update_reminder(THREAD, "r1", title="call mom and dad", changed_at=ASKED + timedelta(minutes=1))
    dispatcher = CapabilityDispatcher(repo, scheduler, lambda: ASKED + timedelta(minutes=2))
    requests.clear()

    result = dispatcher.execute("reminders", "delete_all", {"reminderIds": ["r1", "r2", "r3"]}, _ctx())

    # No read at all: one transaction, sent again without the two whose condition failed.
    assert requests == ["TransactWriteItems", "TransactWriteItems"]
    assert result.success and result.data["count"] == 1 and result.data["gone"] == 1
    assert [c["title"] for c in result.data["changed"]] == ["call mom and dad"]
    assert result.external_ids == {"reminderIds": ["r2"]}
    assert "reminder-r1" in scheduler.schedules and "reminder-r2" not in scheduler.schedules
    assert repo.get_reminder(THREAD, "r1") is not None and repo.get_reminder(THREAD, "r2") is None


def test_a_delete_whose_every_target_changed_is_a_truthful_failure(repo: DynamoItemsRepository) -> None:
    scheduler = FakeScheduler()
    repo.put_reminder(_reminder("r1", "call mom"))
    scheduler.schedule(reminder_id="r1", thread_id=THREAD, at=ASKED + timedelta(hours=3), timezone="UTC")
    repo.update_reminder(
        THREAD, "r1", due_at=ASKED + timedelta(hours=9), changed_at=ASKED + timedelta(minutes=1)
    )
    dispatcher = CapabilityDispatcher(repo, scheduler, lambda: ASKED + timedelta(minutes=2))

    result = dispatcher.execute("reminders", "delete", {"reminderIds": ["r1"]}, _ctx())

    assert not result.success and result.error_code == CHANGED_SINCE_APPROVAL
    assert [c["title"] for c in result.data["changed"]] == ["call mom"]
    assert scheduler.calls[-1] == ("schedule", "reminder-r1")  # never cancelled
    assert repo.get_reminder(THREAD, "r1") is not None


def test_a_retried_delete_all_reports_what_its_first_attempt_deleted(repo: DynamoItemsRepository) -> None:
    """The first attempt tombstoned both, then the scheduler failed; the retry counts both and
    finishes the cancels (the claim was released, so the step runs again)."""
    scheduler = FakeScheduler()
    for reminder in (_reminder("r1", "call mom"), _reminder("r2", "buy milk", 4)):
        repo.put_reminder(reminder)
        scheduler.schedule(
            reminder_id=reminder.reminder_id, thread_id=THREAD, at=reminder.due_at, timezone="UTC"
        )
    repo.remove_reminder(THREAD, "r1", undo=UNDO, unchanged_since=ASKED)
    repo.remove_reminder(THREAD, "r2", undo=UNDO, unchanged_since=ASKED)
    dispatcher = CapabilityDispatcher(repo, scheduler, lambda: ASKED + timedelta(minutes=2))

    result = dispatcher.execute("reminders", "delete_all", {"reminderIds": ["r1", "r2"]}, _ctx())

    assert result.data["count"] == 2 and "gone" not in result.data
    assert scheduler.schedules == {}
