"""A fake clock shared by every Lambda of the local stack (turns, executor, responder, reminders)."""

from __future__ import annotations

from datetime import datetime, timedelta


class FakeClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)

    def set(self, now: datetime) -> None:
        self.now = now
