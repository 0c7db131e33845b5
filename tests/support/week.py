"""A week of the fake clock for reminder tests: a Monday at least a week ahead of the real clock,
10:00 in Jerusalem. EventBridge Scheduler (and moto) refuse a recurring schedule whose start is more
than 5 minutes before the real time, so a repeating reminder's first time must be in the future."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.text.dates import format_when
from memo.text.language import Language

TZ = ZoneInfo("Asia/Jerusalem")
_today = datetime.now(TZ).date()
MONDAY = _today + timedelta(days=7 + (7 - _today.weekday()) % 7)
START = datetime(MONDAY.year, MONDAY.month, MONDAY.day, 10, 0, tzinfo=TZ)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """Wall-clock time in Jerusalem, `day` days after that Monday."""
    on = MONDAY + timedelta(days=day)
    return datetime(on.year, on.month, on.day, hour, minute, tzinfo=TZ)


def shown(day: int, hour: int, minute: int = 0, language: Language = "en") -> str:
    """That time as Memo's replies write it."""
    return format_when(at(day, hour, minute), language, "Asia/Jerusalem")
