"""A week of the fake clock for reminder tests: a Monday at least a week after the suite's `TEST_NOW`,
10:00 in Jerusalem. EventBridge Scheduler (and moto) refuse a recurring schedule whose start is more
than 5 minutes before the real time, so a repeating reminder's first time must be in the future."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from memo.text.dates import format_when
from memo.text.language import Language
from tests.support.clock import next_weekday

if TYPE_CHECKING:
    from tests.support.clock import FakeClock
    from tests.support.conversation import Conversation

TZ = ZoneInfo("Asia/Jerusalem")
MONDAY = next_weekday(0, TZ)
START = datetime(MONDAY.year, MONDAY.month, MONDAY.day, 10, 0, tzinfo=TZ)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """Wall-clock time in Jerusalem, `day` days after that Monday."""
    on = MONDAY + timedelta(days=day)
    return datetime(on.year, on.month, on.day, hour, minute, tzinfo=TZ)


def shown(day: int, hour: int, minute: int = 0, language: Language = "en") -> str:
    """That time as Memo's replies write it."""
    return format_when(at(day, hour, minute), language, "Asia/Jerusalem")


def fired(chat: Conversation, clock: FakeClock, day: int, hour: int, minute: int = 1) -> list[str]:
    """Set the fake clock to `day` at `hour`:`minute` (a minute past, by default), run the ticker,
    and return what Memo sent: the reminders that fired."""
    assert chat.stack.ticker is not None
    clock.set(at(day, hour, minute))
    chat.stack.ticker.tick()
    return chat.replies()
