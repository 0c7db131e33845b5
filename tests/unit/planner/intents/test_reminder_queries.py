"""Asking about reminders: all of them, a day's, a week's, and when one is."""

from __future__ import annotations

from memo.planner.intents import reminder_queries
from tests.unit.planner.conftest import pin

# NOW is Wednesday 1 May 2024 in Jerusalem.


def test_the_reminders_of_a_day() -> None:
    found = reminder_queries.show("what are my reminders for tomorrow?", pin("x"))
    assert found is not None and found.action == "list"
    assert found.constraints == {"day": "2024-05-02"}


def test_the_reminders_of_this_week_and_next() -> None:
    this_week = reminder_queries.show("show my reminders this week", pin("x"))
    assert this_week is not None and this_week.constraints == {"day": "2024-05-01", "until": "2024-05-07"}
    next_week = reminder_queries.show("show my reminders next week", pin("x"))
    assert next_week is not None and next_week.constraints == {"day": "2024-05-05", "until": "2024-05-11"}


def test_when_is_a_reminder() -> None:
    found = reminder_queries.when_is("when is the rent reminder?", pin("x"))
    assert found is not None and found.constraints == {"about": "rent"}


def test_the_days_a_period_names() -> None:
    assert reminder_queries.days_named("trash tomorrow", pin("x")) == (
        {"from": "2024-05-02", "until": "2024-05-03"},
        "trash",
    )
    assert reminder_queries.days_named("trash", pin("x")) == ({}, "trash")
