"""The DynamoDB repository, the EventBridge scheduler and the executor together, on moto."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from memo.aws.items_table import DynamoItemsRepository
from memo.aws.scheduler import EventBridgeReminderScheduler
from memo.capabilities.base import CapabilityError, ExecutionContext
from memo.capabilities.dispatch import CapabilityDispatcher
from memo.capabilities.items import ListItem, Reminder
from memo.capabilities.scheduler import schedule_name_for
from memo.domain import PlannerOutput, PlanStep, TurnInput, TurnState
from memo.resolution.entity import resolve_entities
from memo.resolution.router import resolve_all
from memo.tables import ITEMS

THREAD = "972501234567"
GROUP = "memo-reminders"
TARGET = "arn:aws:lambda:us-east-1:123456789012:function:memo-reminders"
ROLE = "arn:aws:iam::123456789012:role/memo-scheduler"
NOW = datetime.now(UTC).replace(microsecond=0)


@pytest.fixture
def aws() -> Iterator[dict[str, Any]]:
    with mock_aws():
        ddb = boto3.client("dynamodb", region_name="us-east-1")
        ddb.create_table(**ITEMS.create_table_kwargs())
        scheduler = boto3.client("scheduler", region_name="us-east-1")
        scheduler.create_schedule_group(Name=GROUP)
        yield {"ddb": ddb, "scheduler": scheduler}


@pytest.fixture
def repo(aws: dict[str, Any]) -> DynamoItemsRepository:
    return DynamoItemsRepository(aws["ddb"], ITEMS.default_name)


@pytest.fixture
def reminder_scheduler(aws: dict[str, Any]) -> EventBridgeReminderScheduler:
    return EventBridgeReminderScheduler(aws["scheduler"], group_name=GROUP, target_arn=TARGET, role_arn=ROLE)


def reminder(reminder_id: str, title: str, hours: int) -> Reminder:
    return Reminder(
        reminder_id=reminder_id,
        thread_id=THREAD,
        title=title,
        due_at=NOW + timedelta(hours=hours),
        timezone="Asia/Jerusalem",
        created_at=NOW,
    )


def get_schedule(aws: dict[str, Any], name: str) -> dict[str, Any]:
    schedule: dict[str, Any] = aws["scheduler"].get_schedule(Name=name, GroupName=GROUP)
    return schedule


def test_schedule_created_moved_and_deleted(
    aws: dict[str, Any], reminder_scheduler: EventBridgeReminderScheduler
) -> None:
    at = datetime(2030, 7, 1, 15, 30, tzinfo=UTC)  # 18:30 in Jerusalem (summer time, UTC+3)
    name = reminder_scheduler.schedule(
        reminder_id="abc123", thread_id=THREAD, at=at, timezone="Asia/Jerusalem"
    )
    assert name == "reminder-abc123"
    created = get_schedule(aws, name)
    assert created["ScheduleExpression"] == "at(2030-07-01T18:30:00)"
    assert created["ScheduleExpressionTimezone"] == "Asia/Jerusalem"
    assert created["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert created["ActionAfterCompletion"] == "DELETE"
    assert created["Target"]["Arn"] == TARGET and created["Target"]["RoleArn"] == ROLE
    assert json.loads(created["Target"]["Input"]) == {
        "threadId": THREAD,
        "reminderId": "abc123",
        "scheduledAt": "<aws.scheduler.scheduled-time>",
    }

    winter = datetime(2030, 12, 1, 7, 0, tzinfo=UTC)  # 09:00 in Jerusalem (UTC+2)
    assert (
        reminder_scheduler.schedule(
            reminder_id="abc123", thread_id=THREAD, at=winter, timezone="Asia/Jerusalem"
        )
        == name
    )
    moved = get_schedule(aws, name)
    assert moved["ScheduleExpression"] == "at(2030-12-01T09:00:00)"
    assert len(aws["scheduler"].list_schedules(GroupName=GROUP)["Schedules"]) == 1

    reminder_scheduler.cancel(name)
    with pytest.raises(ClientError) as gone:
        get_schedule(aws, name)
    assert gone.value.response["Error"]["Code"] == "ResourceNotFoundException"
    reminder_scheduler.cancel(name)  # already gone: not an error


def test_unknown_timezone_is_a_capability_error(reminder_scheduler: EventBridgeReminderScheduler) -> None:
    with pytest.raises(CapabilityError) as err:
        reminder_scheduler.schedule(reminder_id="x", thread_id=THREAD, at=NOW, timezone="Mars/Olympus")
    assert err.value.code == "SCHEDULE_REJECTED"


def test_schedule_names_fit_the_limit() -> None:
    long_name = schedule_name_for("x" * 100)
    odd = schedule_name_for("a/b c")
    assert len(long_name) <= 64 and long_name.startswith("reminder-")
    assert odd.startswith("reminder-") and "/" not in odd and " " not in odd


def test_mark_sent_only_once(repo: DynamoItemsRepository) -> None:
    assert repo.put_reminder(reminder("r1", "call mom", 1))
    assert not repo.put_reminder(reminder("r1", "call mom again", 1))  # conditional create
    assert repo.mark_reminder_sent(THREAD, "r1", sent_at=NOW)
    assert not repo.mark_reminder_sent(THREAD, "r1", sent_at=NOW)
    stored = repo.get_reminder(THREAD, "r1")
    assert stored is not None and stored.status == "sent" and stored.sent_at == NOW
    assert not repo.mark_reminder_sent(THREAD, "missing", sent_at=NOW)


def test_reminder_update_delete_and_listing(repo: DynamoItemsRepository) -> None:
    repo.put_reminder(reminder("r1", "later", 5))
    repo.put_reminder(reminder("r2", "sooner", 2))
    repo.put_reminder(reminder("r3", "past", -1))
    assert [r.reminder_id for r in repo.list_upcoming_reminders(THREAD, NOW)] == ["r2", "r1"]
    assert [r.reminder_id for r in repo.list_reminders(THREAD)] == ["r3", "r2", "r1"]
    repo.mark_reminder_sent(THREAD, "r2", sent_at=NOW)
    moved = repo.update_reminder(THREAD, "r2", due_at=NOW + timedelta(days=1), title="renamed")
    assert (
        moved is not None
        and moved.status == "scheduled"
        and moved.sent_at is None
        and moved.title == "renamed"
    )
    assert repo.update_reminder(THREAD, "nope", title="x") is None
    assert repo.delete_reminder(THREAD, "r1") is not None
    assert repo.delete_reminder(THREAD, "r1") is None


def test_notes_and_lists(repo: DynamoItemsRepository) -> None:
    for index, text in enumerate(["milk", "eggs", "bread"]):
        repo.add_list_item(
            ListItem(
                item_id=f"i{index}",
                thread_id=THREAD,
                list_name="Shopping",
                text=text,
                created_at=NOW + timedelta(seconds=index),
            )
        )
    assert [i.text for i in repo.list_items(THREAD, "shopping ")] == ["milk", "eggs", "bread"]
    assert repo.remove_list_item(THREAD, "shopping", "i1") is not None
    assert repo.remove_list_item(THREAD, "shopping", "i1") is None
    assert [i.text for i in repo.clear_list(THREAD, "SHOPPING")] == ["milk", "bread"]
    assert repo.list_items(THREAD, "shopping") == []


def ctx(step_id: str) -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD,
        trace_id="wamid.T",
        step_id=step_id,
        timezone="Asia/Jerusalem",
        language="en",
        now=NOW,
    )


def test_executor_on_moto_from_create_to_delete_by_name(
    aws: dict[str, Any], repo: DynamoItemsRepository, reminder_scheduler: EventBridgeReminderScheduler
) -> None:
    executor = CapabilityDispatcher(repo, reminder_scheduler, lambda: NOW)
    when = (NOW + timedelta(hours=3)).isoformat()
    created = executor.execute(
        "reminders", "create", {"title": "Dentist appointment", "when": when}, ctx("s1")
    )
    rid = created.external_ids["reminderId"]
    assert isinstance(rid, str)
    name = schedule_name_for(rid)
    assert get_schedule(aws, name)["ScheduleExpressionTimezone"] == "Asia/Jerusalem"

    # The next turn: "delete the dentst reminder" -> resolvers -> entity resolution -> executor.
    state = TurnState(
        trace_id="wamid.T2",
        thread_id=THREAD,
        input=TurnInput(message="m", language="en", timezone="Asia/Jerusalem"),
        planner_output=PlannerOutput(
            intent_type="operation",
            confidence=0.9,
            risk_level="high",
            plan=[
                PlanStep(id="s1", capability="reminders", action="delete", constraints={"target": "dentst"})
            ],
        ),
    )
    resolution = resolve_entities(resolve_all(state), repo, NOW)
    args = resolution.state.executor_args["s1"]
    assert args == {"reminderIds": [rid]}
    deleted = executor.execute("reminders", "delete", args, ctx("s2"))
    assert deleted.success and repo.get_reminder(THREAD, rid) is None
    with pytest.raises(ClientError):
        get_schedule(aws, name)


class _Throttled:
    """A DynamoDB client whose batch writes leave items unprocessed `times` times, then pass through."""

    def __init__(self, real: object, times: int) -> None:
        self._real = real
        self._times = times
        self.batches = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)

    def batch_write_item(self, **kwargs: object) -> dict[str, object]:
        self.batches += 1
        if self._times > 0:
            self._times -= 1
            return {"UnprocessedItems": kwargs["RequestItems"]}
        return self._real.batch_write_item(**kwargs)  # type: ignore[attr-defined, no-any-return]


def test_clearing_a_list_retries_unprocessed_deletes_with_backoff_and_gives_up_clearly() -> None:
    from datetime import UTC, datetime

    import boto3
    from moto import mock_aws

    from memo import tables
    from memo.aws.items_table import DynamoItemsRepository
    from memo.capabilities.items import ListItem
    from memo.errors import UnprocessedWrites

    with mock_aws():
        real = boto3.client("dynamodb", region_name="us-east-1")
        real.create_table(**tables.ITEMS.create_table_kwargs("items-throttled"))
        now = datetime(2026, 11, 22, tzinfo=UTC)
        seed = DynamoItemsRepository(real, "items-throttled")
        for i in range(3):
            seed.add_list_item(
                ListItem(item_id=f"i{i}", thread_id="t", list_name="shopping", text=f"x{i}", created_at=now)
            )

        delays: list[float] = []
        flaky = _Throttled(real, times=2)
        repo = DynamoItemsRepository(flaky, "items-throttled", sleep=delays.append)
        assert len(repo.clear_list("t", "shopping")) == 3
        assert flaky.batches == 3 and delays == [0.05, 0.1]
        assert repo.list_items("t", "shopping") == []

        for i in range(2):
            seed.add_list_item(
                ListItem(item_id=f"j{i}", thread_id="t", list_name="shopping", text=f"y{i}", created_at=now)
            )
        stuck = DynamoItemsRepository(_Throttled(real, times=99), "items-throttled", sleep=delays.append)
        with pytest.raises(UnprocessedWrites) as gave_up:
            stuck.clear_list("t", "shopping")
        assert gave_up.value.count == 2


def test_a_note_is_revised_only_from_the_text_it_had(repo: DynamoItemsRepository) -> None:
    from memo.capabilities.items import Note

    repo.put_note(Note(note_id="n1", thread_id=THREAD, text="gate code is 4321", created_at=NOW))
    revised = repo.update_note(
        THREAD, "n1", text="gate code is 4312", expected="gate code is 4321", changed_at=NOW
    )
    assert revised is not None and revised.text == "gate code is 4312"
    # The same step again (a re-run after a crash): the note already reads the new text.
    again = repo.update_note(
        THREAD, "n1", text="gate code is 4312", expected="gate code is 4321", changed_at=NOW
    )
    assert again is not None and again.text == "gate code is 4312"
    # Changed meanwhile (it reads neither the text it had nor the new one): left alone.
    assert (
        repo.update_note(THREAD, "n1", text="gate code is 1", expected="gate code is 4321", changed_at=NOW)
        is None
    )
    assert repo.update_note(THREAD, "gone", text="x", expected="y", changed_at=NOW) is None
    assert [n.text for n in repo.list_notes(THREAD)] == ["gate code is 4312"]
