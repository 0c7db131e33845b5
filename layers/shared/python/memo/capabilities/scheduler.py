"""`ReminderScheduler` on EventBridge Scheduler: one one-time schedule per reminder.

Each reminder gets the schedule `reminder-<id>` in the configured group, with the expression
`at(YYYY-MM-DDTHH:MM:SS)` written in the user's local time and `ScheduleExpressionTimezone` set to
their IANA zone (so daylight-saving shifts are the Scheduler's business), `FlexibleTimeWindow` OFF
(delivered within the minute) and `ActionAfterCompletion` DELETE (no leftovers once fired). The
target (the reminders Lambda) receives `{"threadId": ..., "reminderId": ...}` and reads the rest
from the items table, so no message text travels through the Scheduler.

`schedule` creates the schedule, and on ConflictException (it exists: a move, or a retried create)
replaces it with `update_schedule`, which needs the full definition again; an update that finds
the schedule gone (it already fired and deleted itself) creates it. `cancel` ignores a schedule
that is already gone. A ValidationException (e.g. an unknown timezone) is not transient: it
becomes a `CapabilityError`; every other `ClientError` propagates for the caller's retry policy.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from botocore.exceptions import ClientError

from memo.capabilities.base import CapabilityError
from memo.observability import logger

SCHEDULE_PREFIX = "reminder-"
MAX_SCHEDULE_NAME = 64
_NAME_SAFE = re.compile(r"^[0-9A-Za-z_.-]+$")
SCHEDULE_REJECTED = "SCHEDULE_REJECTED"


def schedule_name_for(reminder_id: str) -> str:
    """`reminder-<id>`; an id that would not fit (64 chars, [0-9A-Za-z-_.]) is hashed instead."""
    name = SCHEDULE_PREFIX + reminder_id
    if len(name) <= MAX_SCHEDULE_NAME and _NAME_SAFE.match(reminder_id):
        return name
    digest = hashlib.sha256(reminder_id.encode()).hexdigest()
    return (SCHEDULE_PREFIX + digest)[:MAX_SCHEDULE_NAME]


def at_expression(at: datetime, timezone: str) -> str:
    """`at(...)` in the user's local wall-clock time (seconds dropped: the Scheduler is per minute)."""
    if at.tzinfo is None:
        raise ValueError("a reminder time must be timezone-aware")
    local = at.astimezone(ZoneInfo(timezone))
    return f"at({local:%Y-%m-%dT%H:%M}:00)"


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


class EventBridgeReminderScheduler:
    def __init__(self, scheduler_client: Any, *, group_name: str, target_arn: str, role_arn: str) -> None:
        self._client = scheduler_client
        self._group = group_name
        self._target_arn = target_arn
        self._role_arn = role_arn

    def _definition(
        self, *, name: str, reminder_id: str, thread_id: str, at: datetime, timezone: str
    ) -> dict[str, Any]:
        try:
            expression = at_expression(at, timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise CapabilityError(SCHEDULE_REJECTED, "unknown timezone") from exc
        return {
            "Name": name,
            "GroupName": self._group,
            "ScheduleExpression": expression,
            "ScheduleExpressionTimezone": timezone,
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "ActionAfterCompletion": "DELETE",
            "State": "ENABLED",
            "Target": {
                "Arn": self._target_arn,
                "RoleArn": self._role_arn,
                "Input": json.dumps(
                    {"threadId": thread_id, "reminderId": reminder_id}, separators=(",", ":")
                ),
            },
        }

    def schedule(self, *, reminder_id: str, thread_id: str, at: datetime, timezone: str) -> str:
        """Create or move the reminder's schedule; returns its name."""
        name = schedule_name_for(reminder_id)
        definition = self._definition(
            name=name, reminder_id=reminder_id, thread_id=thread_id, at=at, timezone=timezone
        )
        try:
            self._client.create_schedule(**definition)
            logger.info("REMINDER_SCHEDULED", extra={"scheduleName": name, "timezone": timezone})
            return name
        except ClientError as exc:
            if _code(exc) == "ValidationException":
                raise CapabilityError(SCHEDULE_REJECTED, "the schedule was rejected") from exc
            if _code(exc) != "ConflictException":
                raise
        return self._update(definition)

    def _update(self, definition: dict[str, Any]) -> str:
        name = str(definition["Name"])
        try:
            self._client.update_schedule(**definition)
        except ClientError as exc:
            if _code(exc) == "ValidationException":
                raise CapabilityError(SCHEDULE_REJECTED, "the schedule was rejected") from exc
            if _code(exc) != "ResourceNotFoundException":
                raise
            # Gone between our create and update (it fired and deleted itself): create it again.
            self._client.create_schedule(**definition)
        logger.info("REMINDER_SCHEDULE_MOVED", extra={"scheduleName": name})
        return name

    def cancel(self, schedule_name: str) -> None:
        """Delete the schedule; one that is already gone (fired, or deleted before) is fine."""
        try:
            self._client.delete_schedule(Name=schedule_name, GroupName=self._group)
        except ClientError as exc:
            if _code(exc) != "ResourceNotFoundException":
                raise
            logger.info("REMINDER_SCHEDULE_ALREADY_GONE", extra={"scheduleName": schedule_name})
            return
        logger.info("REMINDER_SCHEDULE_DELETED", extra={"scheduleName": schedule_name})
