"""Every action `memo.executor.reruns` calls safe to run again is, on the real items table (moto):
run once to the end (the worst crash for a re-run: the attempt did everything but record it), then
run again as the re-run of that crashed attempt — the re-run answers exactly what the first run
did, and the person's items and schedules are exactly as the first run left them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.base import ExecutionContext, RerunUnsafe
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.capabilities.items import ListItem, Note, Reminder
from memo.executor.reruns import may_rerun
from memo.tables import ITEMS
from tests.unit.capabilities.fakes import FakeScheduler

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
LATER = (NOW + timedelta(hours=9)).isoformat()


@pytest.fixture
def ddb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**ITEMS.create_table_kwargs())
        yield client


@pytest.fixture
def repo(ddb: Any) -> DynamoItemsRepository:
    repo = DynamoItemsRepository(ddb, ITEMS.default_name)
    for rid, title in (("r1", "call mom"), ("r2", "pay the bank")):
        repo.put_reminder(
            Reminder(
                reminder_id=rid,
                thread_id=THREAD,
                title=title,
                due_at=NOW + timedelta(hours=3),
                schedule_name=f"reminder-{rid}",
                created_at=NOW - timedelta(hours=1),
            )
        )
    for nid, text in (("n1", "wifi is hunter2"), ("n2", "parked on level 2")):
        repo.put_note(Note(note_id=nid, thread_id=THREAD, text=text, created_at=NOW - timedelta(hours=1)))
    for iid, text in (("i1", "milk"), ("i2", "eggs")):
        repo.add_list_item(
            ListItem(
                item_id=iid,
                thread_id=THREAD,
                list_name="shopping",
                text=text,
                created_at=NOW - timedelta(hours=1),
            )
        )
    return repo


@pytest.fixture
def scheduler() -> FakeScheduler:
    scheduler = FakeScheduler()
    for rid in ("r1", "r2"):
        scheduler.schedule(reminder_id=rid, thread_id=THREAD, at=NOW + timedelta(hours=3), timezone="UTC")
    return scheduler


def ctx(rerun_of: datetime | None = None) -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD, trace_id="wamid.T1", step_id="s1", timezone="UTC", now=NOW, rerun_of=rerun_of
    )


def world(ddb: Any, scheduler: FakeScheduler) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    items = ddb.scan(TableName=ITEMS.default_name)["Items"]
    return sorted(items, key=lambda i: i["sk"]["S"]), dict(scheduler.schedules)


SAFE_STEPS = [
    ("reminders", "create", {"title": "call the plumber", "when": LATER}),
    ("reminders", "list", {}),
    ("reminders", "delete", {"reminderIds": ["r1"]}),
    ("reminders", "delete_all", {"reminderIds": ["r1", "r2"]}),
    ("reminders", "done", {"reminderId": "r1"}),
    ("notes", "save", {"text": "the gate code is 4321"}),
    ("notes", "search", {"query": "wifi"}),
    ("notes", "delete", {"noteIds": ["n1"]}),
    ("notes", "delete_all", {"noteIds": ["n1", "n2"]}),
    ("lists", "add", {"listName": "shopping", "items": ["bread", "milk"]}),
    ("lists", "remove", {"listName": "shopping", "itemIds": ["i1"]}),
    ("lists", "show", {"listName": "shopping"}),
    ("lists", "show_all", {}),
    ("lists", "clear", {"listName": "shopping", "itemIds": ["i1", "i2"]}),
]


@pytest.mark.parametrize(
    ("capability", "action", "args"), SAFE_STEPS, ids=[f"{c}.{a}" for c, a, _ in SAFE_STEPS]
)
def test_a_rerun_of_a_safe_step_answers_what_the_crashed_attempt_did_and_changes_nothing(
    repo: DynamoItemsRepository,
    ddb: Any,
    scheduler: FakeScheduler,
    capability: str,
    action: str,
    args: dict[str, Any],
) -> None:
    assert may_rerun(capability, action, args)
    dispatcher = CapabilityDispatcher(repo, scheduler, lambda: NOW)
    first = dispatcher.execute(capability, action, args, ctx())
    assert first.success, first
    after_first = world(ddb, scheduler)

    rerun = dispatcher.execute(capability, action, args, ctx(rerun_of=NOW))

    assert rerun == first
    assert world(ddb, scheduler) == after_first


def test_a_create_rerun_after_its_time_passed_refuses_to_guess(
    repo: DynamoItemsRepository, scheduler: FakeScheduler
) -> None:
    when = NOW + timedelta(minutes=1)
    args = {"title": "call the plumber", "when": when.isoformat()}
    CapabilityDispatcher(repo, scheduler, lambda: NOW).execute("reminders", "create", args, ctx())
    late = CapabilityDispatcher(repo, scheduler, lambda: when + timedelta(minutes=1))

    with pytest.raises(RerunUnsafe):  # the crashed attempt set it, and it may have fired
        late.execute("reminders", "create", args, ctx(rerun_of=NOW))
    # Not a re-run: a time in the past is the person's mistake, told as such.
    fresh = late.execute(
        "reminders",
        "create",
        args,
        ExecutionContext(
            thread_id=THREAD,
            trace_id="wamid.T2",
            step_id="s1",
            timezone="UTC",
            now=when + timedelta(minutes=1),
        ),
    )
    assert fresh.error_code == "TIME_IN_PAST"
