"""The local ticker on moto and a fake clock: a one-time schedule fires once when due and is deleted;
a recurring one fires once per time that came; a failing handler is retried, then given up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo.errors import MemoError
from memo.local.ticker import ReminderTicker
from tests.support.clock import days_ahead

GROUP = "memo-reminders"
TARGET = {
    "Arn": "arn:aws:lambda:us-east-1:123456789012:function:r",
    "RoleArn": "arn:aws:iam::123456789012:role/r",
}


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Handler:
    def __init__(self, failures: int = 0) -> None:
        self.events: list[dict[str, Any]] = []
        self.failures = failures

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        self.events.append(event)
        if self.failures:
            self.failures -= 1
            raise MemoError("the send failed")
        return {"sent": True}


@pytest.fixture
def scheduler() -> Iterator[Any]:
    with mock_aws():
        yield boto3.client("scheduler", region_name="us-east-1")


def _ticker(scheduler: Any, handler: Handler, clock: Clock) -> ReminderTicker:
    ticker = ReminderTicker(scheduler=scheduler, group_name=GROUP, handler=handler, clock=clock)
    ticker.ensure_group()
    ticker.ensure_group()  # already there: fine
    return ticker


def _one_time(scheduler: Any, name: str, at: datetime) -> None:
    scheduler.create_schedule(
        Name=name,
        GroupName=GROUP,
        ScheduleExpression=at.strftime("at(%Y-%m-%dT%H:%M:%S)"),
        ScheduleExpressionTimezone="UTC",
        FlexibleTimeWindow={"Mode": "OFF"},
        ActionAfterCompletion="DELETE",
        Target={**TARGET, "Input": json.dumps({"reminderId": name})},
    )


def test_a_one_time_schedule_fires_once_when_due(scheduler: Any) -> None:
    due = days_ahead(1, 9)
    clock, handler = Clock(due - timedelta(minutes=1)), Handler()
    ticker = _ticker(scheduler, handler, clock)
    _one_time(scheduler, "r1", due)
    assert ticker.tick() == []
    clock.now = due
    [fired] = ticker.tick()
    assert (fired.name, fired.event, fired.result) == ("r1", {"reminderId": "r1"}, {"sent": True})
    assert scheduler.list_schedules(GroupName=GROUP)["Schedules"] == []
    assert ticker.tick() == []


def test_a_failing_delivery_is_retried_then_given_up(scheduler: Any) -> None:
    due = days_ahead(1, 9)
    clock, handler = Clock(due), Handler(failures=5)
    ticker = _ticker(scheduler, handler, clock)
    _one_time(scheduler, "r2", due)
    assert [f.error for f in ticker.tick() + ticker.tick() + ticker.tick()] == ["MemoError"] * 3
    assert ticker.tick() == [] and len(handler.events) == 3


def test_a_recurring_schedule_fires_once_per_time_that_came(scheduler: Any) -> None:
    start = days_ahead(1, 9)
    clock, handler = Clock(start - timedelta(minutes=1)), Handler()
    ticker = _ticker(scheduler, handler, clock)
    scheduler.create_schedule(
        Name="r3",
        GroupName=GROUP,
        ScheduleExpression="rate(1 hour)",
        ScheduleExpressionTimezone="UTC",
        StartDate=start,
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={**TARGET, "Input": json.dumps({"reminderId": "r3"})},
    )
    assert ticker.tick() == []
    clock.now = start + timedelta(hours=2, minutes=5)
    assert [f.name for f in ticker.tick()] == ["r3"] * 3  # 9:00, 10:00, 11:00
    assert ticker.tick() == []
    clock.now += timedelta(hours=1)
    assert len(ticker.tick()) == 1


def test_each_firing_says_the_time_it_was_scheduled_for(scheduler: Any) -> None:
    # EventBridge Scheduler replaces <aws.scheduler.scheduled-time> in the target's input with the
    # firing's own time in UTC; firings that came together each carry their own.
    start = days_ahead(1, 9)
    clock, handler = Clock(start - timedelta(minutes=1)), Handler()
    ticker = _ticker(scheduler, handler, clock)
    said = json.dumps({"reminderId": "r4", "scheduledAt": "<aws.scheduler.scheduled-time>"})
    scheduler.create_schedule(
        Name="r4",
        GroupName=GROUP,
        ScheduleExpression="rate(1 hour)",
        ScheduleExpressionTimezone="Asia/Jerusalem",
        StartDate=start,
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={**TARGET, "Input": said},
    )
    clock.now = start + timedelta(hours=1, minutes=30)
    times = [f.event["scheduledAt"] for f in ticker.tick()]
    utc = [(start + timedelta(hours=h)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") for h in (0, 1)]
    assert times == utc
