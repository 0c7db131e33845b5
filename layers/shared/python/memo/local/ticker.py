"""The local ticker: EventBridge Scheduler's part in the local runtime.

It lists the one-time schedules of the reminders' schedule group (on moto, or whatever
AWS_ENDPOINT_URL points at), and for each whose `at(...)` time, read in its
ScheduleExpressionTimezone, has come, invokes the reminders handler with the target's Input as the
event (what the Scheduler sends), then deletes the schedule (ActionAfterCompletion DELETE; a schedule
kept after completion is remembered so it fires once).

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
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from botocore.exceptions import ClientError

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
                when = due_time(expression, schedule.get("ScheduleExpressionTimezone"))
                if when is None or when > now or (name, expression) in self._completed:
                    continue
                fired.append(self._fire(name, expression, schedule))
            return fired

    def _fire(self, name: str, expression: str, schedule: dict[str, Any]) -> Fired:
        event = json.loads(schedule.get("Target", {}).get("Input") or "{}")
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
