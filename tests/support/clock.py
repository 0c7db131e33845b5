"""The suite's time: one frozen instant every test starts from, and a fake clock for the stack.

No test reads the real clock. `pytest_configure` (tests/conftest.py) moves the process's clock to
`TEST_NOW` before any test module is imported; time then ticks on from there (timeouts still elapse,
and nothing made by an earlier test is dated in a later test's future). `TEST_NOW` is `MEMO_TEST_NOW` when it is set (CI runs
the suite once more years ahead, and in another timezone, so a date written into a test cannot turn
red when the calendar moves on); dates a test needs are built from it (`days_ahead`, `next_weekday`).

moto, Powertools and botocore read the process clock, which is why it is moved and not only passed
in: EventBridge Scheduler (and moto) refuse a recurring schedule that starts more than 5 minutes
before the process's now.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, date, datetime, timedelta, tzinfo

import time_machine

# A Monday morning, so the week's days in tests read in order; any instant works (see module doc).
DEFAULT_TEST_NOW = "2026-11-16T08:00:00+00:00"


def _test_now() -> datetime:
    raw = os.environ.get("MEMO_TEST_NOW", "").strip() or DEFAULT_TEST_NOW
    moment = datetime.fromisoformat(raw)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


TEST_NOW: datetime = _test_now()


def freeze_process_clock() -> time_machine.travel:
    """Move the process's clock to `TEST_NOW`, ticking from there; the caller stops it."""
    travel = time_machine.travel(TEST_NOW, tick=True)
    travel.start()
    return travel


def days_ahead(days: int, hour: int, minute: int = 0, tz: tzinfo = UTC) -> datetime:
    """`hour`:`minute` in `tz`, `days` days after `TEST_NOW`'s date there."""
    on = TEST_NOW.astimezone(tz).date() + timedelta(days=days)
    return datetime(on.year, on.month, on.day, hour, minute, tzinfo=tz)


def next_weekday(weekday: int, tz: tzinfo = UTC, weeks: int = 1) -> date:
    """The date of `weekday` (Monday 0) at least `weeks` weeks after `TEST_NOW`'s date in `tz`."""
    today = TEST_NOW.astimezone(tz).date()
    return today + timedelta(days=7 * weeks + (weekday - today.weekday()) % 7)


def python_on_the_test_clock(module: str, *args: str) -> list[str]:
    """The command that runs `python -m module args...` in a child process on this process's clock (a
    child would read the real clock otherwise: a dev token made here would be dated in its future, or
    long past)."""
    # The child's clock is this one's now plus the real time the child took to start, so the two
    # clocks agree to the microsecond (a token issued here is never dated in the child's future).
    now, real = datetime.now(UTC).timestamp(), time_machine.escape_hatch.time.time()
    start = (
        "import runpy, sys, time, time_machine; "
        f"time_machine.travel({now!r} + time.time() - {real!r}, tick=True).start(); "
        f"sys.argv = [{module!r}, *sys.argv[1:]]; "
        f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"
    )
    return [sys.executable, "-c", start, *args]


class FakeClock:
    """A fake clock shared by every Lambda of the local stack (turns, executor, responder, reminders)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)

    def set(self, now: datetime) -> None:
        self.now = now
