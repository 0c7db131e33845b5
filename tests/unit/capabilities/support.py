"""What the capability tests share: the thread, a fixed instant the operations' clock returns, and
the execution context of a step."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memo.capabilities.base import ExecutionContext

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)
#: 18:30 in Jerusalem on NOW's day.
LATER = "2026-03-10T18:30:00+02:00"
TZ = "Asia/Jerusalem"


def ctx(step_id: str = "s1", language: Any = "en", trace: str = "wamid.1", **more: Any) -> ExecutionContext:
    return ExecutionContext(
        thread_id=THREAD, trace_id=trace, step_id=step_id, timezone=TZ, language=language, now=NOW, **more
    )
