"""The wall clock every Lambda's wiring defaults to, and the `Clock` type its components take.

Logic takes a `Clock` instead of calling `datetime.now`, so tests and the local stack pass their own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)
