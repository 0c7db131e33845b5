"""EventBridge Scheduler: the `ReminderScheduler` port, one schedule per reminder.

A one-time reminder has an `at(...)` schedule; a repeating one ONE recurring schedule (`cron(...)` or
`rate(...)` from `memo.capabilities.scheduler.recurring_expression`, with `StartDate` at its first
occurrence and `EndDate` after its last when the series ends). Both use the same API calls on the
same group, so the executor's permissions are the same for both.

Each schedule (`memo.capabilities.scheduler` names it and writes its `at(...)` expression) is in the
configured group, with `ScheduleExpressionTimezone` set to the user's IANA zone, `FlexibleTimeWindow`
OFF (delivered within the minute) and `ActionAfterCompletion` DELETE (no leftovers once fired). The
target (the reminders Lambda) receives `{"threadId": ..., "reminderId": ..., "scheduledAt": ...}`
(the last is the Scheduler's `<aws.scheduler.scheduled-time>`, the time of that firing) and reads the
rest from the items table, so no message text travels through the Scheduler. The target carries the
delivery settings (`memo.settings.ScheduleDeliverySettings`): a retry policy, and the dead-letter
queue where the Scheduler puts an invocation it could not make instead of dropping the reminder.

`schedule` creates the schedule, and on ConflictException (it exists: a move, or a retried create)
replaces it with `update_schedule`, which needs the full definition again; an update that finds
the schedule gone (it already fired and deleted itself) creates it. `cancel` ignores a schedule
that is already gone. A ValidationException (e.g. an unknown timezone) is not transient: it
becomes a `CapabilityError`; every other error a `TransientFault` / `ServiceFault` for the caller's
retry policy.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfoNotFoundError

from botocore.exceptions import BotoCoreError, ClientError

from memo.aws.faults import call, error_code, fault
from memo.capabilities.base import CapabilityError
from memo.capabilities.scheduler import (
    SCHEDULE_REJECTED,
    SCHEDULED_TIME,
    at_expression,
    recurring_expression,
    schedule_name_for,
)
from memo.observability import logger
from memo.settings import ScheduleDeliverySettings

if TYPE_CHECKING:
    from mypy_boto3_scheduler import EventBridgeSchedulerClient

CONFLICT = "ConflictException"
NOT_FOUND = "ResourceNotFoundException"
VALIDATION = "ValidationException"


def _rejected_or_fault(exc: ClientError, *, expected: str) -> None:
    """Return when `exc` is the `expected` code; raise the domain error for any other."""
    code = error_code(exc)
    if code == VALIDATION:
        raise CapabilityError(SCHEDULE_REJECTED, "the schedule was rejected") from exc
    if code != expected:
        raise fault(exc) from exc


class EventBridgeReminderScheduler:
    def __init__(
        self,
        scheduler_client: EventBridgeSchedulerClient,
        *,
        group_name: str,
        target_arn: str,
        role_arn: str,
        delivery: ScheduleDeliverySettings | None = None,
    ) -> None:
        self._client = scheduler_client
        self._group = group_name
        self._target_arn = target_arn
        self._role_arn = role_arn
        self._delivery = delivery or ScheduleDeliverySettings()

    def _target(self, thread_id: str, reminder_id: str) -> dict[str, Any]:
        delivery = self._delivery
        target: dict[str, Any] = {
            "Arn": self._target_arn,
            "RoleArn": self._role_arn,
            "Input": json.dumps(
                {"threadId": thread_id, "reminderId": reminder_id, "scheduledAt": SCHEDULED_TIME},
                separators=(",", ":"),
            ),
            "RetryPolicy": {
                "MaximumRetryAttempts": delivery.retry_attempts,
                "MaximumEventAgeInSeconds": delivery.max_event_age_seconds,
            },
        }
        if delivery.dead_letter_arn:
            target["DeadLetterConfig"] = {"Arn": delivery.dead_letter_arn}
        return target

    def _definition(
        self,
        *,
        name: str,
        reminder_id: str,
        thread_id: str,
        at: datetime,
        timezone: str,
        recurrence: str | None = None,
        not_before: datetime | None = None,
    ) -> dict[str, Any]:
        window: dict[str, Any] = {}
        try:
            if recurrence is None:
                expression = at_expression(at, timezone)
            else:
                recurring = recurring_expression(recurrence, timezone, not_before=not_before)
                expression = recurring.expression
                window["StartDate"] = recurring.start
                if recurring.end is not None:
                    window["EndDate"] = recurring.end
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise CapabilityError(SCHEDULE_REJECTED, "unknown timezone or unsupported series") from exc
        return {
            "Name": name,
            "GroupName": self._group,
            "ScheduleExpression": expression,
            **window,
            "ScheduleExpressionTimezone": timezone,
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "ActionAfterCompletion": "DELETE",
            "State": "ENABLED",
            "Target": self._target(thread_id, reminder_id),
        }

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
        """Create or move the reminder's schedule (recurring for a series); returns its name. A
        recurring schedule starts no earlier than the series' next occurrence after `not_before`
        (`recurring_expression`); a one-time schedule is at `at` whatever `not_before` says."""
        name = schedule_name_for(reminder_id)
        definition = self._definition(
            name=name,
            reminder_id=reminder_id,
            thread_id=thread_id,
            at=at,
            timezone=timezone,
            recurrence=recurrence,
            not_before=not_before,
        )
        try:
            self._client.create_schedule(**definition)
            logger.info("REMINDER_SCHEDULED", extra={"scheduleName": name, "timezone": timezone})
            return name
        except ClientError as exc:
            _rejected_or_fault(exc, expected=CONFLICT)
        except BotoCoreError as exc:
            raise fault(exc) from exc
        return self._update(definition)

    def _update(self, definition: dict[str, Any]) -> str:
        name = str(definition["Name"])
        try:
            self._client.update_schedule(**definition)
        except ClientError as exc:
            _rejected_or_fault(exc, expected=NOT_FOUND)
            # Gone between our create and update (it fired and deleted itself): create it again.
            call(self._client.create_schedule, **definition)
        except BotoCoreError as exc:
            raise fault(exc) from exc
        logger.info("REMINDER_SCHEDULE_MOVED", extra={"scheduleName": name})
        return name

    def cancel(self, schedule_name: str) -> None:
        """Delete the schedule; one that is already gone (fired, or deleted before) is fine."""
        delete_schedule(self._client, self._group, schedule_name)


class LeftoverSchedules:
    """Deletes schedules only (the reminders Lambda's: a schedule that fired for a deleted reminder)."""

    def __init__(self, scheduler_client: EventBridgeSchedulerClient, *, group_name: str) -> None:
        self._client = scheduler_client
        self._group = group_name

    def cancel(self, schedule_name: str) -> None:
        delete_schedule(self._client, self._group, schedule_name)


def delete_schedule(client: EventBridgeSchedulerClient, group: str, schedule_name: str) -> None:
    """Delete the schedule; one that is already gone (fired, or deleted before) is fine."""
    try:
        client.delete_schedule(Name=schedule_name, GroupName=group)
    except ClientError as exc:
        if error_code(exc) != NOT_FOUND:
            raise fault(exc) from exc
        logger.info("REMINDER_SCHEDULE_ALREADY_GONE", extra={"scheduleName": schedule_name})
        return
    except BotoCoreError as exc:
        raise fault(exc) from exc
    logger.info("REMINDER_SCHEDULE_DELETED", extra={"scheduleName": schedule_name})
