"""Building turn states and seeding the fake repository for resolution tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from memo.capabilities.items import ListItem, Note, Reminder
from memo.domain import PlannerOutput, PlanStep, TurnInput, TurnState
from tests.unit.capabilities.fakes import FakeItemsRepository

THREAD = "972501234567"
NOW = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def step(
    step_id: str, capability: Any, action: str, depends_on: list[str] | None = None, **bags: Any
) -> PlanStep:
    return PlanStep(
        id=step_id,
        capability=capability,
        action=action,
        constraints=bags.get("constraints", {}),
        changes=bags.get("changes", {}),
        depends_on=depends_on or [],
    )


def state_for(*steps: PlanStep, language: Any = "en", timezone: str = "Asia/Jerusalem") -> TurnState:
    return TurnState(
        trace_id="wamid.trace-1",
        thread_id=THREAD,
        input=TurnInput(message="m", language=language, timezone=timezone),
        planner_output=PlannerOutput(
            intent_type="operation", confidence=0.9, risk_level="low", plan=list(steps)
        ),
    )


def add_reminder(repo: FakeItemsRepository, reminder_id: str, title: str, hours: int = 5) -> Reminder:
    reminder = Reminder(
        reminder_id=reminder_id,
        thread_id=THREAD,
        title=title,
        due_at=NOW + timedelta(hours=hours),
        timezone="Asia/Jerusalem",
        schedule_name=f"reminder-{reminder_id}",
        created_at=NOW,
    )
    repo.put_reminder(reminder)
    return reminder


def add_note(repo: FakeItemsRepository, note_id: str, text: str) -> Note:
    note = Note(note_id=note_id, thread_id=THREAD, text=text, created_at=NOW)
    repo.put_note(note)
    return note


def add_list_item(repo: FakeItemsRepository, item_id: str, list_name: str, text: str) -> ListItem:
    item = ListItem(item_id=item_id, thread_id=THREAD, list_name=list_name, text=text, created_at=NOW)
    repo.add_list_item(item)
    return item
