"""A reminder's schedule: its name, its one-time `at(...)` expression, or its recurring one.

Each reminder gets the schedule `reminder-<id>`, with the expression `at(YYYY-MM-DDTHH:MM:SS)` written
in the user's local time and the user's IANA zone as the schedule's timezone (so daylight-saving
shifts are the Scheduler's business). The EventBridge Scheduler adapter of the `ReminderScheduler`
port is `memo.aws.scheduler.EventBridgeReminderScheduler`.

A repeating reminder has ONE recurring schedule under the same name: `recurring_expression` turns
its series (RFC 5545 RRULE, `memo.text.recurrence`) into `cron(...)` or `rate(...)` with a start
and end date; the reminders Lambda then advances the reminder to its next occurrence.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from memo.text.series import first_occurrence, next_occurrence, rule_part, series_end

SCHEDULE_PREFIX = "reminder-"
MAX_SCHEDULE_NAME = 64
_NAME_SAFE = re.compile(r"^[0-9A-Za-z_.-]+$")
SCHEDULE_REJECTED = "SCHEDULE_REJECTED"
# In a schedule's target input, replaced by the Scheduler with the time that firing was scheduled
# for (an ISO instant in UTC, e.g. "2026-03-22T18:59:00Z"): a firing says which time it is for.
SCHEDULED_TIME = "<aws.scheduler.scheduled-time>"


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


@dataclass(frozen=True)
class RecurringExpression:
    """One recurring schedule for a series: `cron(...)` or `rate(...)` in the series' timezone,
    from `start` (its first occurrence) to `end` (after its last one; None: no end)."""

    expression: str
    start: datetime
    end: datetime | None


_CRON_DAYS = {"MO": "MON", "TU": "TUE", "WE": "WED", "TH": "THU", "FR": "FRI", "SA": "SAT", "SU": "SUN"}
#: Cron's day-of-week numbers (Sunday is 1), for "#" and "L", which take a number.
_CRON_NUMBERS = {"SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7}


def _rate(n: int, unit: str) -> str:
    return f"rate({n} {unit if n == 1 else unit + 's'})"


def _monthly_cron(parts: dict[str, str], start: datetime, n: int, days: list[str]) -> str:
    """A monthly series' cron: on a day of the month, or on a weekday of one of its weeks."""
    if 12 % n:
        # Cron's months repeat each year: every 5 months does not (it is refused, not drifted).
        raise ValueError("every N months, N not a divisor of 12, is not one schedule")
    # Every month of the start's class: "every 2 months" from March is 1/2 (January included, as
    # the series goes on from November); StartDate leaves out those before the start.
    months = "*" if n == 1 else f"{(start.month - 1) % n + 1}/{n}"
    week = parts.get("BYDAY", "")[:-2]
    if week:
        # BYDAY=1MO ("the first Monday of every month") is cron's 2#1, BYDAY=-1FR (the last Friday)
        # its 6L: the day of the week numbered from Sunday (1).
        number = _CRON_NUMBERS[days[0]]
        return f"cron({start.minute} {start.hour} ? {months} {number}{'L' if week == '-1' else '#' + week} *)"
    # BYMONTHDAY=-1 ("at the end of every month") is cron's L: the last day of each month.
    day = int(parts.get("BYMONTHDAY", str(start.day)))
    return f"cron({start.minute} {start.hour} {'L' if day == -1 else day} {months} ? *)"


def _past_midnight(hours: str) -> bool:
    """Whether BYHOUR is the hours of a window that goes past midnight ("22,23,0,1,2": every hour
    from 10pm to 2am, in steps of the same size): its hours after midnight belong to the night
    before, which a cron's days cannot say."""
    said = sorted({int(h) for h in hours.split(",")})
    if len(said) < 2:
        return False
    gaps = [(said[(i + 1) % len(said)] - h) % 24 for i, h in enumerate(said)]
    widest = max(range(len(said)), key=lambda i: gaps[i])
    if gaps.count(gaps[widest]) > 1:
        return False  # "9,21": twice a day, no window
    ordered = said[widest + 1 :] + said[: widest + 1]
    steps = {(b - a) % 24 for a, b in pairwise(ordered)}
    return len(steps) == 1 and ordered[0] > ordered[-1]


def recurring_expression(
    series_text: str, timezone: str, *, not_before: datetime | None = None
) -> RecurringExpression:
    """The Scheduler expression of a series (`memo.text.recurrence`). Daily, weekly (on given days),
    monthly (on a day of the month, or a weekday of its weeks) and yearly series are cron in the user's zone, so 08:00 stays
    08:00 across daylight-saving changes; every N minutes / hours, every N days and every N weeks on
    one day are `rate(...)` from the first occurrence. ValueError for what one schedule cannot say
    (every other week on several days, every 5 months).

    `not_before` (a schedule made again for a series that began earlier: the Scheduler refuses a
    recurring start more than 5 minutes in the past): the start is then the series' next occurrence
    after it, the expression unchanged (a rate keeps its phase, a cron its rule and time of day);
    ValueError when the series has no occurrence left."""
    zone = ZoneInfo(timezone)
    start = first_occurrence(series_text, timezone)
    parts = rule_part(series_text)
    freq = parts.get("FREQ", "")
    n = int(parts.get("INTERVAL", "1"))
    days = [d[-2:] for d in parts.get("BYDAY", "").split(",") if d]
    # Within the hours of a day ("every hour from 9 to 5"), the cron's minutes and hours are lists.
    minute, hour = parts.get("BYMINUTE", str(start.minute)), parts.get("BYHOUR", str(start.hour))
    if freq == "MINUTELY":
        expression = _rate(n, "minute")
    elif freq == "HOURLY":
        expression = _rate(n, "hour")
    elif freq == "DAILY":
        expression = f"cron({minute} {hour} * * ? *)" if n == 1 else _rate(n, "day")
    elif freq == "WEEKLY":
        if 0 < len(set(days)) < 7 and _past_midnight(hour):
            raise ValueError("hours past midnight on some days are not one schedule")
        if n == 1:
            names = (
                ",".join(_CRON_DAYS[d] for d in days)
                if days
                else _CRON_DAYS[("MO", "TU", "WE", "TH", "FR", "SA", "SU")[start.weekday()]]
            )
            expression = f"cron({minute} {hour} ? * {names} *)"
        elif len(days) <= 1:
            expression = _rate(7 * n, "day")
        else:
            raise ValueError("every N weeks on several days is not one schedule")
    elif freq == "MONTHLY":
        expression = _monthly_cron(parts, start, n, days)
    elif freq == "YEARLY":
        years = "*" if n == 1 else f"{start.year}/{n}"
        expression = f"cron({minute} {hour} {start.day} {start.month} ? {years})"
    else:
        raise ValueError(f"unsupported frequency {freq!r}")
    last = series_end(series_text, timezone)
    end = (last + timedelta(minutes=1)).astimezone(UTC) if last is not None else None
    if not_before is not None and start < not_before:
        upcoming = next_occurrence(series_text, timezone, not_before)
        if upcoming is None:
            raise ValueError("the series has no occurrence left")
        start = upcoming
    return RecurringExpression(expression=expression, start=start.astimezone(zone).astimezone(UTC), end=end)
