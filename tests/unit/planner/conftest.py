"""Fixtures for the planner unit tests: a fixed clock in Israel (Wednesday 1 May 2024, 10:00)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.domain import LatestAction
from memo.planner.base import PlannerInput

TZ = "Asia/Jerusalem"
NOW = datetime(2024, 5, 1, 10, 0, tzinfo=ZoneInfo(TZ))


def latest(capability: str = "reminders", summary: str = "call mom", hours: int = 7) -> LatestAction:
    return LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability=capability,
        action="create" if capability != "lists" else "add",
        summary=summary,
        when=NOW + timedelta(hours=hours) if capability == "reminders" else None,
        external_ids={"reminderId": "r-1"},
    )


def pin(
    message: str, *, language: str | None = None, actions: tuple[LatestAction, ...] = (), **kwargs: object
) -> PlannerInput:
    lang = language or ("he" if any("\u0590" <= ch <= "\u05ff" for ch in message) else "en")
    return PlannerInput(
        message=message,
        now=NOW,
        timezone=TZ,
        language=lang,
        latest_actions=actions,
        **kwargs,
    )
