"""A reminder's one-time schedule: its name and its `at(...)` expression.

Each reminder gets the schedule `reminder-<id>`, with the expression `at(YYYY-MM-DDTHH:MM:SS)` written
in the user's local time and the user's IANA zone as the schedule's timezone (so daylight-saving
shifts are the Scheduler's business). The EventBridge Scheduler adapter of the `ReminderScheduler`
port is `memo.aws.scheduler.EventBridgeReminderScheduler`.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from zoneinfo import ZoneInfo

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
