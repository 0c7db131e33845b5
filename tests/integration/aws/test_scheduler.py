"""The EventBridge Scheduler adapter on moto: a repeating reminder is ONE recurring schedule in the
user's zone from its first time; `schedule` on an existing name replaces it (recurring <-> one-time);
a schedule gone between the create and the update is created again; errors become domain errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from memo.aws.scheduler import EventBridgeReminderScheduler
from memo.capabilities.base import CapabilityError
from memo.errors import ServiceFault, TransientFault
from memo.settings import ConfigurationError, ScheduleDeliverySettings
from memo.text.series import series
from tests.support.clock import days_ahead

GROUP = "memo-reminders"
TARGET = "arn:aws:lambda:us-east-1:123456789012:function:memo-reminders"
ROLE = "arn:aws:iam::123456789012:role/memo-scheduler"
TZ = "Asia/Jerusalem"
THREAD = "972501234567"


@pytest.fixture
def scheduler() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("scheduler", region_name="us-east-1")
        client.create_schedule_group(Name=GROUP)
        yield client


def _adapter(client: Any) -> EventBridgeReminderScheduler:
    return EventBridgeReminderScheduler(client, group_name=GROUP, target_arn=TARGET, role_arn=ROLE)


def _recurrence(rule: str) -> str:
    text = series(rule, days_ahead(3, 8, tz=ZoneInfo(TZ)), TZ)
    assert text is not None
    return text


def test_a_weekly_reminder_is_one_cron_schedule_in_the_users_zone(scheduler: Any) -> None:
    first = days_ahead(3, 8, tz=ZoneInfo(TZ))
    name = _adapter(scheduler).schedule(
        reminder_id="r1", thread_id=THREAD, at=first, timezone=TZ, recurrence=_recurrence("FREQ=WEEKLY")
    )
    created = scheduler.get_schedule(Name=name, GroupName=GROUP)
    assert created["ScheduleExpression"].startswith("cron(0 8 ? * ")
    assert created["ScheduleExpressionTimezone"] == TZ
    assert created["StartDate"].astimezone(UTC) == first.astimezone(UTC)
    assert "EndDate" not in created
    assert json.loads(created["Target"]["Input"]) == {
        "threadId": THREAD,
        "reminderId": "r1",
        "scheduledAt": "<aws.scheduler.scheduled-time>",
    }
    assert created["ActionAfterCompletion"] == "DELETE"


def test_a_series_with_an_end_gets_an_end_date(scheduler: Any) -> None:
    first = days_ahead(3, 8, tz=ZoneInfo(TZ))
    name = _adapter(scheduler).schedule(
        reminder_id="r2",
        thread_id=THREAD,
        at=first,
        timezone=TZ,
        recurrence=_recurrence("FREQ=DAILY;COUNT=3"),
    )
    created = scheduler.get_schedule(Name=name, GroupName=GROUP)
    assert created["ScheduleExpression"] == "cron(0 8 * * ? *)"
    assert created["StartDate"] < created["EndDate"]
    assert (created["EndDate"] - created["StartDate"]).days == 2


def test_scheduling_again_replaces_the_schedule_both_ways(scheduler: Any) -> None:
    adapter = _adapter(scheduler)
    first = days_ahead(3, 8, tz=ZoneInfo(TZ))
    name = adapter.schedule(reminder_id="r3", thread_id=THREAD, at=first, timezone=TZ)
    assert (
        adapter.schedule(
            reminder_id="r3", thread_id="US.1", at=first, timezone=TZ, recurrence=_recurrence("FREQ=DAILY")
        )
        == name
    )
    recurring = scheduler.get_schedule(Name=name, GroupName=GROUP)
    assert recurring["ScheduleExpression"] == "cron(0 8 * * ? *)"
    assert json.loads(recurring["Target"]["Input"])["threadId"] == "US.1"
    adapter.schedule(reminder_id="r3", thread_id=THREAD, at=first, timezone=TZ)
    assert scheduler.get_schedule(Name=name, GroupName=GROUP)["ScheduleExpression"].startswith("at(")
    assert len(scheduler.list_schedules(GroupName=GROUP)["Schedules"]) == 1


DLQ = "arn:aws:sqs:us-east-1:123456789012:memo-reminder-schedules-dlq"


def test_every_schedule_retries_then_goes_to_the_dead_letter_queue_also_when_moved(scheduler: Any) -> None:
    """A reminder the Scheduler could not deliver is kept on the dead-letter queue, not dropped: the
    target's retry policy and dead-letter queue are in the schedule when created and when moved (an
    update writes the whole definition: without them the move would drop them)."""
    delivery = ScheduleDeliverySettings.from_env(
        {
            "REMINDER_DEAD_LETTER_ARN": DLQ,
            "REMINDER_RETRY_ATTEMPTS": "7",
            "REMINDER_MAX_EVENT_AGE_SECONDS": "900",
        }
    )
    adapter = EventBridgeReminderScheduler(
        scheduler, group_name=GROUP, target_arn=TARGET, role_arn=ROLE, delivery=delivery
    )
    first = days_ahead(3, 8, tz=ZoneInfo(TZ))
    name = adapter.schedule(reminder_id="r9", thread_id=THREAD, at=first, timezone=TZ)
    adapter.schedule(reminder_id="r9", thread_id="US.1", at=first, timezone=TZ)  # moved: an update
    target = scheduler.get_schedule(Name=name, GroupName=GROUP)["Target"]
    assert json.loads(target["Input"])["threadId"] == "US.1"
    assert target["DeadLetterConfig"] == {"Arn": DLQ}
    assert target["RetryPolicy"] == {"MaximumRetryAttempts": 7, "MaximumEventAgeInSeconds": 900}
    # Without settings (the local stack): the default retry policy, and no dead-letter queue to name.
    plain = _adapter(scheduler).schedule(reminder_id="r10", thread_id=THREAD, at=first, timezone=TZ)
    target = scheduler.get_schedule(Name=plain, GroupName=GROUP)["Target"]
    assert target["RetryPolicy"] == {"MaximumRetryAttempts": 20, "MaximumEventAgeInSeconds": 3600}
    assert "DeadLetterConfig" not in target


@pytest.mark.parametrize(
    ("variable", "at_the_limit", "past_it"),
    [
        ("REMINDER_RETRY_ATTEMPTS", ["0", "185"], ["-1", "186"]),
        ("REMINDER_MAX_EVENT_AGE_SECONDS", ["60", "86400"], ["59", "86401"]),
    ],
)
def test_the_retry_policy_stays_within_the_schedulers_bounds(
    variable: str, at_the_limit: list[str], past_it: list[str]
) -> None:
    for value in at_the_limit:
        ScheduleDeliverySettings.from_env({variable: value})
    for value in past_it:
        with pytest.raises(ConfigurationError, match=variable):
            ScheduleDeliverySettings.from_env({variable: value})


def _error(code: str, operation: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": code}}, operation)


class _GoneOnUpdate:
    """A schedule that exists at the create and has fired (deleted itself) by the update."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.creates = 0

    def create_schedule(self, **definition: Any) -> Any:
        self.creates += 1
        if self.creates == 1:
            raise _error("ConflictException", "CreateSchedule")
        return self.real.create_schedule(**definition)

    def update_schedule(self, **definition: Any) -> Any:
        raise _error("ResourceNotFoundException", "UpdateSchedule")


def test_a_schedule_gone_before_the_update_is_created_again(scheduler: Any) -> None:
    client = _GoneOnUpdate(scheduler)
    at = days_ahead(1, 9)
    name = _adapter(client).schedule(reminder_id="r4", thread_id=THREAD, at=at, timezone="UTC")
    assert client.creates == 2
    assert scheduler.get_schedule(Name=name, GroupName=GROUP)["ScheduleExpression"] == at.strftime(
        "at(%Y-%m-%dT%H:%M:%S)"
    )


class _Refusing:
    def __init__(self, code: str) -> None:
        self.code = code

    def create_schedule(self, **definition: Any) -> Any:
        raise _error(self.code, "CreateSchedule")

    def delete_schedule(self, **key: Any) -> Any:
        raise _error(self.code, "DeleteSchedule")


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("ValidationException", CapabilityError),
        ("ThrottlingException", TransientFault),
        ("AccessDeniedException", ServiceFault),
    ],
)
def test_a_refused_schedule_is_a_domain_error(code: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        _adapter(_Refusing(code)).schedule(
            reminder_id="r5", thread_id=THREAD, at=days_ahead(1, 9), timezone="UTC"
        )


def test_cancel_ignores_only_a_schedule_already_gone() -> None:
    _adapter(_Refusing("ResourceNotFoundException")).cancel("reminder-r6")
    with pytest.raises(TransientFault):
        _adapter(_Refusing("ThrottlingException")).cancel("reminder-r6")
