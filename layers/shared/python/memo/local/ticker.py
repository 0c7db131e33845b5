"""The local ticker: EventBridge Scheduler's part in the local runtime.

It lists the schedules of the reminders' schedule group (on moto, or whatever AWS_ENDPOINT_URL
points at), and for each one-time schedule whose `at(...)` time, read in its
ScheduleExpressionTimezone, has come, invokes the reminders handler with the target's Input as the
event (what the Scheduler sends, its `<aws.scheduler.scheduled-time>` replaced by the firing's time), then deletes the schedule (ActionAfterCompletion DELETE; a schedule
kept after completion is remembered so it fires once). A recurring schedule (`cron(...)` or
`rate(...)`, a repeating reminder) fires once for each of its times, in its timezone and between its
StartDate and EndDate, that came since the previous tick, on the same (fake) clock.

A handler that fails with a domain error (`MemoError`, e.g. the WhatsApp send failed) or an AWS error
is tried again on the next ticks, up to `max_attempts` in all (Lambda's async invoke: 1 + 2 retries),
then given up with an error log and deleted, like a delivery that went to the dead-letter queue.

`tick()` runs one pass (tests drive it with a fake clock); `start()` / `stop()` run it every
`interval` seconds on a daemon thread that waits on a `threading.Event`.

    ticker = ReminderTicker(scheduler=memo.local.aws.client("scheduler"))
    ticker.ensure_group()
    ticker.start()  # ... ticker.stop()
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from botocore.exceptions import ClientError

from memo.capabilities.scheduler import SCHEDULED_TIME
from memo.clock import Clock, utc_now
from memo.errors import MemoError
from memo.local.context import LocalLambdaContext
from memo.local.functions import Handler, load_handler
from memo.observability import logger

DEFAULT_GROUP = "memo-reminders"
_AT = re.compile(r"^at\((?P<when>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$")


def due_time(expression: str, timezone: str | None) -> datetime | None:
    """The instant of a one-time `at(yyyy-mm-ddThh:mm:ss)` expression in `timezone` (UTC if unset);
    None for rate/cron expressions or an unknown zone."""
    match = _AT.match(expression.strip())
    if not match:
        return None
    try:
        zone = ZoneInfo(timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return datetime.fromisoformat(match.group("when")).replace(tzinfo=zone)


_RATE = re.compile(r"^rate\((?P<n>\d+)\s+(?P<unit>minutes?|hours?|days?)\)$")
_CRON = re.compile(r"^cron\((?P<fields>[^)]+)\)$")
_DOW = {"SUN": 1, "MON": 2, "TUE": 3, "WED": 4, "THU": 5, "FRI": 6, "SAT": 7}
_RATE_UNITS = {"minute": timedelta(minutes=1), "hour": timedelta(hours=1), "day": timedelta(days=1)}


def _cron_values(field: str, low: int, high: int, names: dict[str, int] | None = None) -> set[int] | None:
    """The values of one cron field; None for "*" / "?" (any)."""
    if field in ("*", "?"):
        return None
    values: set[int] = set()
    for part in field.split(","):
        base, _, step_text = part.partition("/")
        step = int(step_text) if step_text else 1

        def value(token: str) -> int:
            return names[token.upper()] if names and token.upper() in names else int(token)

        if base == "*":
            start, end = low, high
        elif "-" in base:
            first, last = base.split("-", 1)
            start, end = value(first), value(last)
        else:
            start = value(base)
            end = high if step_text else start
        values.update(range(start, end + 1, step))
    return values


def _nth_weekday(field: str) -> tuple[int, int] | None:
    """A day-of-week field naming one week of the month: (cron weekday, week; -1 the last)."""
    match = re.fullmatch(r"(?P<day>[1-7]|[A-Za-z]{3})(?:#(?P<n>[1-5])|(?P<last>L))", field)
    if match is None:
        return None
    said = match.group("day").upper()
    return _DOW[said] if said in _DOW else int(said), -1 if match.group("last") else int(match.group("n"))


def _is_nth(day: date, cron_weekday: int, weekday: int, week: int) -> bool:
    if cron_weekday != weekday:
        return False
    if week == -1:
        return (day + timedelta(days=7)).month != day.month
    return (day.day - 1) // 7 + 1 == week


def _cron_times(fields: str, zone: ZoneInfo, after: datetime, until: datetime) -> list[datetime]:
    """The instants in (after, until] of a six-field Scheduler cron expression, in `zone`."""
    minute, hour, dom, month, dow, year = fields.split()
    minutes = _cron_values(minute, 0, 59) or set(range(60))
    hours = _cron_values(hour, 0, 23) or set(range(24))
    last_of_month = dom == "L"  # the month's last day, as EventBridge Scheduler reads "L"
    days = None if last_of_month else _cron_values(dom, 1, 31)
    months = _cron_values(month, 1, 12)
    nth_weekday = _nth_weekday(dow)  # "2#1": the first Monday; "6L": the last Friday
    weekdays = None if nth_weekday else _cron_values(dow, 1, 7, _DOW)
    years = _cron_values(year, 1970, 2199)
    found: list[datetime] = []
    day = after.astimezone(zone).date()
    last = until.astimezone(zone).date()
    while day <= last:
        cron_weekday = (day.isoweekday() % 7) + 1  # SUN=1 ... SAT=7
        if (
            (days is None or day.day in days)
            and (not last_of_month or (day + timedelta(days=1)).month != day.month)
            and (months is None or day.month in months)
            and (weekdays is None or cron_weekday in weekdays)
            and (nth_weekday is None or _is_nth(day, cron_weekday, *nth_weekday))
            and (years is None or day.year in years)
        ):
            for h in sorted(hours):
                for m in sorted(minutes):
                    instant = datetime(day.year, day.month, day.day, h, m, tzinfo=zone)
                    if after < instant <= until:
                        found.append(instant)
        day += timedelta(days=1)
    return found


def recurring_times(
    expression: str,
    timezone: str | None,
    *,
    start: datetime | None,
    end: datetime | None,
    after: datetime,
    until: datetime,
) -> list[datetime]:
    """The occurrences in (after, until] of a recurring `rate(...)` / `cron(...)` expression, within
    the schedule's StartDate/EndDate ([] for a one-time expression or an unknown zone)."""
    try:
        zone = ZoneInfo(timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return []
    if start is not None:
        after = max(after, start - timedelta(microseconds=1))
    if end is not None:
        until = min(until, end)
    if until <= after:
        return []
    rate = _RATE.match(expression.strip())
    if rate is not None:
        if start is None:
            return []
        step = int(rate.group("n")) * _RATE_UNITS[rate.group("unit").rstrip("s")]
        skipped = max(0, int((after - start) / step))
        instant = start + skipped * step
        found: list[datetime] = []
        while instant <= until:
            if instant > after:
                found.append(instant)
            instant += step
        return found
    cron = _CRON.match(expression.strip())
    if cron is not None:
        return _cron_times(cron.group("fields"), zone, after, until)
    return []


@dataclass(frozen=True)
class Fired:
    name: str
    event: dict[str, Any]
    result: Any
    error: str | None = None


class ReminderTicker:
    def __init__(
        self,
        *,
        scheduler: Any,
        group_name: str = DEFAULT_GROUP,
        handler: Handler | None = None,
        clock: Clock = utc_now,
        interval: float = 1.0,
        max_attempts: int = 3,
    ) -> None:
        self._scheduler = scheduler
        self._group = group_name
        self._handler = handler
        self._clock = clock
        self._interval = interval
        self._max_attempts = max_attempts
        self._attempts: dict[str, int] = {}
        self._completed: set[tuple[str, str]] = set()
        self._recurring_seen: dict[tuple[str, str], datetime] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def group_name(self) -> str:
        return self._group

    def ensure_group(self) -> None:
        """Create the schedule group if it does not exist (the deployed stack's CDK creates it)."""
        try:
            self._scheduler.create_schedule_group(Name=self._group)
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConflictException":
                raise

    def _reminders_handler(self) -> Handler:
        if self._handler is None:
            self._handler = load_handler("reminders")
        return self._handler

    def _schedule_names(self) -> list[str]:
        names: list[str] = []
        kwargs: dict[str, Any] = {"GroupName": self._group}
        while True:
            page = self._scheduler.list_schedules(**kwargs)
            names += [s["Name"] for s in page.get("Schedules", []) if s.get("State", "ENABLED") == "ENABLED"]
            if not page.get("NextToken"):
                return names
            kwargs["NextToken"] = page["NextToken"]

    def tick(self) -> list[Fired]:
        """Fire every due schedule once; returns what was fired (with the handler's result)."""
        with self._lock:
            now = self._clock()
            fired: list[Fired] = []
            for name in self._schedule_names():
                try:
                    schedule = self._scheduler.get_schedule(Name=name, GroupName=self._group)
                except ClientError as exc:
                    if exc.response["Error"]["Code"] == "ResourceNotFoundException":
                        continue  # deleted since it was listed (the reminder was deleted)
                    raise
                expression = schedule.get("ScheduleExpression", "")
                if not expression.startswith("at("):
                    fired += self._fire_recurring(name, expression, schedule, now)
                    continue
                when = due_time(expression, schedule.get("ScheduleExpressionTimezone"))
                if when is None or when > now or (name, expression) in self._completed:
                    continue
                fired.append(self._fire(name, expression, schedule, when))
            return fired

    def _fire_recurring(
        self, name: str, expression: str, schedule: dict[str, Any], now: datetime
    ) -> list[Fired]:
        """A recurring schedule fires once for each of its times that came since the last tick (the
        first tick that sees it looks back to its StartDate); a failed invocation is retried on the
        next ticks like a one-time one, then given up for that time."""
        key = (name, expression)
        since = self._recurring_seen.get(key)
        if since is None:
            since = schedule.get("StartDate") or now
            since = since - timedelta(microseconds=1)
        times = recurring_times(
            expression,
            schedule.get("ScheduleExpressionTimezone"),
            start=schedule.get("StartDate"),
            end=schedule.get("EndDate"),
            after=since,
            until=now,
        )
        fired: list[Fired] = []
        for instant in times:
            result = self._invoke(name, schedule, instant)
            fired.append(result)
            if result.error is not None and self._attempts.get(name, 0) > 0:
                self._recurring_seen[key] = instant - timedelta(microseconds=1)
                return fired  # retried from this time on the next tick
            self._recurring_seen[key] = instant
        if not times:
            self._recurring_seen.setdefault(key, since)
        return fired

    def _invoke(self, name: str, schedule: dict[str, Any], instant: datetime) -> Fired:
        event = target_event(schedule, instant)
        context = LocalLambdaContext(function_name="memo-reminders-local")
        try:
            result = self._reminders_handler()(event, context)
        except (MemoError, ClientError) as exc:
            attempts = self._attempts.get(name, 0) + 1
            self._attempts[name] = attempts
            if attempts < self._max_attempts:
                logger.warning("LOCAL_REMINDER_RETRY", extra={"schedule": name, "attempt": attempts})
            else:
                logger.error("LOCAL_REMINDER_GIVEN_UP", extra={"schedule": name, "attempts": attempts})
                self._attempts.pop(name, None)
            return Fired(name=name, event=event, result=None, error=type(exc).__name__)
        self._attempts.pop(name, None)
        return Fired(name=name, event=event, result=result)

    def _fire(self, name: str, expression: str, schedule: dict[str, Any], instant: datetime) -> Fired:
        event = target_event(schedule, instant)
        context = LocalLambdaContext(function_name="memo-reminders-local")
        try:
            result = self._reminders_handler()(event, context)
        except (MemoError, ClientError) as exc:
            attempts = self._attempts.get(name, 0) + 1
            self._attempts[name] = attempts
            if attempts < self._max_attempts:
                logger.warning("LOCAL_REMINDER_RETRY", extra={"schedule": name, "attempt": attempts})
                return Fired(name=name, event=event, result=None, error=type(exc).__name__)
            logger.error("LOCAL_REMINDER_GIVEN_UP", extra={"schedule": name, "attempts": attempts})
            self._complete(name, expression, schedule)
            return Fired(name=name, event=event, result=None, error=type(exc).__name__)
        self._complete(name, expression, schedule)
        return Fired(name=name, event=event, result=result)

    def _complete(self, name: str, expression: str, schedule: dict[str, Any]) -> None:
        self._attempts.pop(name, None)
        if schedule.get("ActionAfterCompletion") != "DELETE":
            self._completed.add((name, expression))
            return
        try:
            self._scheduler.delete_schedule(Name=name, GroupName=self._group)
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ResourceNotFoundException":
                raise

    def start(self) -> ReminderTicker:
        if self._thread is not None:
            return self
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="memo-reminder-ticker", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                self.tick()
            except ClientError as exc:  # the local AWS is gone or refusing: keep ticking
                logger.warning("LOCAL_TICKER_AWS_ERROR", extra={"code": exc.response["Error"]["Code"]})

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None


def target_event(schedule: dict[str, Any], instant: datetime) -> dict[str, Any]:
    """The event the Scheduler sends for the firing at `instant`: the target's Input with its
    `<aws.scheduler.scheduled-time>` replaced by that time in UTC, as the Scheduler writes it."""
    text = schedule.get("Target", {}).get("Input") or "{}"
    scheduled = instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    event: dict[str, Any] = json.loads(text.replace(SCHEDULED_TIME, scheduled))
    return event


def restorable(schedule: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A saved schedule as it can be created again at `now` (the local stack's restart): the
    Scheduler refuses a StartDate in the past, so a recurring schedule's start moves to its next
    time (a rate keeps its phase); a one-time schedule is returned as it is."""
    start = schedule.get("StartDate")
    expression = str(schedule.get("ScheduleExpression", ""))
    if not isinstance(start, datetime) or start > now or expression.startswith("at("):
        return schedule
    rate = _RATE.match(expression.strip())
    if rate is None:  # cron: the expression alone says when
        return {k: v for k, v in schedule.items() if k != "StartDate"}
    step = int(rate.group("n")) * _RATE_UNITS[rate.group("unit").rstrip("s")]
    skipped = int((now - start) / step) + 1
    return {**schedule, "StartDate": start + skipped * step}
