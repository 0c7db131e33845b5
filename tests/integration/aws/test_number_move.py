"""A user's changed number on moto: every item under the old number is moved to the new one (the
thread id inside it too), a scheduled reminder's schedule re-pointed (a repeating one from its next
time), the new number's own profile kept over the old one, a second run moves nothing, and changes
applied out of order end where the newest one says."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo import tables
from memo.aws.dynamo import from_item, to_item
from memo.aws.number_move import DynamoNumberMove
from tests.support.clock import TEST_NOW, days_ahead

OLD, NEW, LATEST = "972501111111", "972502222222", "972503333333"
DUE = days_ahead(2, 9)
T1 = int(TEST_NOW.timestamp())


class Repointed:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def schedule(
        self,
        *,
        reminder_id: str,
        thread_id: str,
        at: datetime,
        timezone: str,
        recurrence: str | None = None,
        not_before: datetime | None = None,
    ) -> str:
        self.calls.append(
            {
                "reminder_id": reminder_id,
                "thread_id": thread_id,
                "at": at,
                "timezone": timezone,
                "recurrence": recurrence,
                "not_before": not_before,
            }
        )
        return f"reminder-{reminder_id}"


@pytest.fixture
def ddb() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        for spec in (tables.ITEMS, tables.CONVERSATION):
            client.create_table(**spec.create_table_kwargs())
        yield client


def _put(ddb: Any, table: tables.TableSpec, item: dict[str, Any]) -> None:
    ddb.put_item(TableName=table.default_name, Item=to_item(item))


def _items(ddb: Any, table: tables.TableSpec, pk: str) -> dict[str, dict[str, Any]]:
    response = ddb.query(
        TableName=table.default_name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": pk}},
    )
    return {str(item["sk"]): item for item in map(from_item, response["Items"])}


def _mover(ddb: Any, scheduler: Repointed | None) -> DynamoNumberMove:
    return DynamoNumberMove(
        ddb,
        conversation_table=tables.CONVERSATION.default_name,
        items_table=tables.ITEMS.default_name,
        scheduler=scheduler,
    )


def _reminder(reminder_id: str, status: str) -> dict[str, Any]:
    return {
        "pk": f"USER#{OLD}",
        "sk": f"REMINDER#{reminder_id}",
        "kind": "reminder",
        "reminder_id": reminder_id,
        "thread_id": OLD,
        "status": status,
        "schedule_name": f"reminder-{reminder_id}",
        "due_at": DUE.isoformat(),
        "timezone": "Asia/Jerusalem",
    }


def _seed(ddb: Any) -> None:
    _put(ddb, tables.ITEMS, _reminder("r1", "scheduled"))
    _put(ddb, tables.ITEMS, _reminder("r2", "sent"))
    _put(ddb, tables.ITEMS, {"pk": f"USER#{OLD}", "sk": "NOTE#n1", "kind": "note", "text": "wifi: hunter2"})
    profile = {"thread_id": OLD, "wa_id": OLD, "name": "Dana"}
    _put(ddb, tables.CONVERSATION, {"pk": f"THREAD#{OLD}", "sk": "PROFILE", "profile": profile})
    _put(ddb, tables.CONVERSATION, {"pk": f"THREAD#{OLD}", "sk": "MSG#0001", "text": "hello"})


def test_everything_moves_to_the_new_number_once(ddb: Any) -> None:
    _seed(ddb)
    scheduler = Repointed()
    assert _mover(ddb, scheduler).move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "moved"

    assert _items(ddb, tables.ITEMS, f"USER#{OLD}") == {}
    assert _items(ddb, tables.CONVERSATION, f"THREAD#{OLD}") == {}
    items = _items(ddb, tables.ITEMS, f"USER#{NEW}")
    assert set(items) == {"REMINDER#r1", "REMINDER#r2", "NOTE#n1"}
    assert items["REMINDER#r1"]["thread_id"] == NEW and "thread_id" not in items["NOTE#n1"]
    conversation = _items(ddb, tables.CONVERSATION, f"THREAD#{NEW}")
    assert conversation["PROFILE"]["profile"] == {"thread_id": NEW, "wa_id": NEW, "name": "Dana"}
    assert conversation["MSG#0001"]["text"] == "hello"
    # Only the scheduled reminder's schedule is re-pointed, at its own time and zone.
    assert scheduler.calls == [
        {
            "reminder_id": "r1",
            "thread_id": NEW,
            "at": DUE,
            "timezone": "Asia/Jerusalem",
            "recurrence": None,
            "not_before": TEST_NOW,
        }
    ]

    assert _mover(ddb, scheduler).move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "nothing_to_move"
    assert len(scheduler.calls) == 1


def test_the_new_numbers_own_profile_wins(ddb: Any) -> None:
    _seed(ddb)
    mine = {"thread_id": NEW, "wa_id": NEW, "name": "Dana (new phone)"}
    _put(ddb, tables.CONVERSATION, {"pk": f"THREAD#{NEW}", "sk": "PROFILE", "profile": mine})
    assert _mover(ddb, Repointed()).move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "moved"
    assert _items(ddb, tables.CONVERSATION, f"THREAD#{NEW}")["PROFILE"]["profile"] == mine
    assert _items(ddb, tables.CONVERSATION, f"THREAD#{OLD}") == {}


def test_the_same_number_moves_nothing(ddb: Any) -> None:
    _seed(ddb)
    assert _mover(ddb, Repointed()).move(OLD, OLD, now=TEST_NOW, changed_at=T1) == "same_number"
    assert len(_items(ddb, tables.ITEMS, f"USER#{OLD}")) == 3


def test_without_a_scheduler_the_reminder_still_moves(ddb: Any) -> None:
    _seed(ddb)
    assert _mover(ddb, None).move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "moved"
    assert "REMINDER#r1" in _items(ddb, tables.ITEMS, f"USER#{NEW}")


# --- changes out of order -------------------------------------------------------------------------


def _where(ddb: Any) -> list[str]:
    """The numbers holding the user's items."""
    return [n for n in (OLD, NEW, LATEST) if _items(ddb, tables.ITEMS, f"USER#{n}")]


def test_a_change_delivered_before_the_one_it_follows_still_ends_on_the_newest_number(ddb: Any) -> None:
    _seed(ddb)
    mover = _mover(ddb, Repointed())
    assert mover.move(NEW, LATEST, now=TEST_NOW, changed_at=T1 + 60) == "nothing_to_move"  # B -> C first
    assert mover.move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "moved"  # A -> B follows B -> C
    assert _where(ddb) == [LATEST]
    assert _items(ddb, tables.CONVERSATION, f"THREAD#{LATEST}")["PROFILE"]["profile"]["wa_id"] == LATEST
    # Redelivered in any order, under new ids: nothing moves again.
    assert mover.move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "nothing_to_move"
    assert mover.move(NEW, LATEST, now=TEST_NOW, changed_at=T1 + 60) == "nothing_to_move"
    assert _where(ddb) == [LATEST]


def test_an_older_change_never_undoes_a_newer_one(ddb: Any) -> None:
    """A -> B, then back B -> A; the older one applied last must leave the data on A."""
    _seed(ddb)
    mover = _mover(ddb, Repointed())
    assert mover.move(NEW, OLD, now=TEST_NOW, changed_at=T1 + 60) == "nothing_to_move"
    assert mover.move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "superseded"
    assert _where(ddb) == [OLD]
    # A later A -> C moves it; the stale A -> B delivered again after that moves nothing.
    assert mover.move(OLD, LATEST, now=TEST_NOW, changed_at=T1 + 120) == "moved"
    assert mover.move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "stale"
    assert _where(ddb) == [LATEST]
    assert mover.change_of(OLD) == (LATEST, T1 + 120)  # the newest change kept, never overwritten


def test_what_lands_after_the_destination_moved_on_follows_it(ddb: Any) -> None:
    """B -> C recorded while A -> B was moving (the two notices run in parallel): A's data, already
    written to B, is moved on to C by the same run."""
    _seed(ddb)
    mover = _mover(ddb, Repointed())
    move_all = mover._move_all

    def racing(old: str, new: str, now: datetime) -> tuple[int, int]:
        moved = move_all(old, new, now)
        if new == NEW:  # B -> C arrives now: recorded, then B is still empty of A's data when it looked
            mover._record(NEW, LATEST, T1 + 60)
        return moved

    mover._move_all = racing  # type: ignore[method-assign]
    assert mover.move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "moved"
    assert _where(ddb) == [LATEST]


def test_a_repeating_reminder_is_scheduled_again_from_its_next_time(ddb: Any) -> None:
    text = "DTSTART:20200106T090000\nRRULE:FREQ=DAILY"
    _put(ddb, tables.ITEMS, _reminder("r3", "scheduled") | {"recurrence": text})
    scheduler = Repointed()
    assert _mover(ddb, scheduler).move(OLD, NEW, now=TEST_NOW, changed_at=T1) == "moved"
    [call] = scheduler.calls
    assert (call["recurrence"], call["not_before"]) == (text, TEST_NOW)
