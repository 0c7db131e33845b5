"""A user's changed number on moto: every item under the old number is moved to the new one (the
thread id inside it too), a scheduled reminder's schedule re-pointed, the new number's own profile
kept over the old one, and a second run moves nothing."""

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

OLD, NEW = "972501111111", "972502222222"
DUE = days_ahead(2, 9)


class Repointed:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def schedule(
        self, *, reminder_id: str, thread_id: str, at: datetime, timezone: str, recurrence: str | None = None
    ) -> str:
        self.calls.append(
            {
                "reminder_id": reminder_id,
                "thread_id": thread_id,
                "at": at,
                "timezone": timezone,
                "recurrence": recurrence,
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
    assert _mover(ddb, scheduler).move(OLD, NEW, now=TEST_NOW) == "moved"

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
        {"reminder_id": "r1", "thread_id": NEW, "at": DUE, "timezone": "Asia/Jerusalem", "recurrence": None}
    ]

    assert _mover(ddb, scheduler).move(OLD, NEW, now=TEST_NOW) == "nothing_to_move"
    assert len(scheduler.calls) == 1


def test_the_new_numbers_own_profile_wins(ddb: Any) -> None:
    _seed(ddb)
    mine = {"thread_id": NEW, "wa_id": NEW, "name": "Dana (new phone)"}
    _put(ddb, tables.CONVERSATION, {"pk": f"THREAD#{NEW}", "sk": "PROFILE", "profile": mine})
    assert _mover(ddb, Repointed()).move(OLD, NEW, now=TEST_NOW) == "moved"
    assert _items(ddb, tables.CONVERSATION, f"THREAD#{NEW}")["PROFILE"]["profile"] == mine
    assert _items(ddb, tables.CONVERSATION, f"THREAD#{OLD}") == {}


def test_the_same_number_moves_nothing(ddb: Any) -> None:
    _seed(ddb)
    assert _mover(ddb, Repointed()).move(OLD, OLD, now=TEST_NOW) == "same_number"
    assert len(_items(ddb, tables.ITEMS, f"USER#{OLD}")) == 3


def test_without_a_scheduler_the_reminder_still_moves(ddb: Any) -> None:
    _seed(ddb)
    assert _mover(ddb, None).move(OLD, NEW, now=TEST_NOW) == "moved"
    assert "REMINDER#r1" in _items(ddb, tables.ITEMS, f"USER#{NEW}")
