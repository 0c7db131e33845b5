"""How far a repetition may reach: an end date at most `max_years` from today, at most `max_count`
occurrences (`MEMO_RECURRENCE_MAX_YEARS`, `MEMO_RECURRENCE_MAX_COUNT` in `memo.settings`); and
what one schedule can say (`schedule_problem`).

A repetition that says no end goes on, and is only ever expanded an occurrence at a time
(`memo.text.series`); one that says its end is held to these bounds, so no single message can ask
for a series that runs for centuries or a count nobody can read. At the bound it is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

from memo.text.recurrence import Recurrence
from memo.text.recurrence_ends import span_end

DEFAULT_MAX_YEARS = 5
DEFAULT_MAX_COUNT = 1000


@dataclass(frozen=True)
class RecurrenceLimits:
    max_years: int = DEFAULT_MAX_YEARS
    max_count: int = DEFAULT_MAX_COUNT

    def last_day(self, today: date) -> date:
        """The last day a repetition may end on: `max_years` from today, that day included."""
        return span_end(today, self.max_years, "years")

    def allows(self, recurrence: Recurrence, today: date) -> bool:
        """Whether the end `recurrence` says is within the bounds (one with no end is)."""
        if recurrence.count is not None and recurrence.count > self.max_count:
            return False
        return recurrence.until is None or recurrence.until <= self.last_day(today)

    def allows_rule(self, rule: str, today: date) -> bool:
        """The same for an RRULE value ("FREQ=DAILY;COUNT=10", "...;UNTIL=20301231T235959")."""
        parts = dict(p.split("=", 1) for p in rule.split(";") if "=" in p)
        count = parts.get("COUNT")
        if count is not None and (not count.isdigit() or int(count) > self.max_count):
            return False
        until = parts.get("UNTIL")
        if until is None:
            return True
        digits = until[:8]
        if not digits.isdigit():
            return False
        return digits <= f"{self.last_day(today):%Y%m%d}"


def one_schedule_says(recurrence: Recurrence) -> bool:
    """Whether one EventBridge schedule can repeat it (`memo.capabilities.scheduler`): a cron's
    months repeat each year, so every N months only for N dividing 12 ("every 5 months" is asked
    again, never set to drift); every other week only on one day."""
    if recurrence.freq == "MONTHLY":
        return 12 % recurrence.interval == 0
    return not (recurrence.freq == "WEEKLY" and recurrence.interval > 1 and len(recurrence.weekdays) > 1)


def over_midnight_on_days(recurrence: Recurrence) -> bool:
    """Hours past midnight on some days of the week only ("every hour from 10pm to 2am on
    weekdays"). One schedule's days are the days of each of its times, so the hours after midnight
    would come on the mornings of those days (Sunday's, after Saturday night), not the mornings
    after them: asked, never set on the wrong mornings. Every day, it is one schedule."""
    window = recurrence.window
    if window is None or not recurrence.weekdays or len(set(recurrence.weekdays)) == 7:
        return False
    hours = window.by_parts(recurrence.freq, recurrence.interval)[0].split("=", 1)[1]
    return any(int(hour) < window.start.hour for hour in hours.split(","))


def schedule_problem(recurrence: Recurrence) -> Literal["unschedulable", "over_midnight"] | None:
    """What keeps one schedule from saying `recurrence`, or None."""
    if not one_schedule_says(recurrence):
        return "unschedulable"  # "every 5 months": asked how often instead
    return "over_midnight" if over_midnight_on_days(recurrence) else None
