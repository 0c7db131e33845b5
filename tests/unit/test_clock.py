"""The wall clock the wiring defaults to: the process's now, always in UTC."""

from __future__ import annotations

from datetime import UTC, timedelta, timezone

import time_machine

from memo.clock import utc_now
from tests.support.clock import TEST_NOW


def test_now_is_the_process_clocks_instant_in_utc() -> None:
    elsewhere = TEST_NOW.astimezone(timezone(timedelta(hours=5, minutes=30))) + timedelta(days=3)
    with time_machine.travel(elsewhere, tick=False):
        now = utc_now()
    assert now == elsewhere
    assert now.tzinfo is UTC and now.isoformat().endswith("+00:00")


def test_now_moves_on_with_the_process_clock() -> None:
    with time_machine.travel(TEST_NOW, tick=False) as traveller:
        first = utc_now()
        traveller.shift(timedelta(minutes=90))
        second = utc_now()
    assert (first, second - first) == (TEST_NOW, timedelta(minutes=90))
