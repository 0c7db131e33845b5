"""Requests for services Memo is not connected to: a calendar, email."""

from __future__ import annotations

from memo.planner.intents import unconnected
from tests.unit.planner.conftest import pin


def test_calendar_and_email_are_recognised() -> None:
    calendar = unconnected.calendar("add a meeting to my google calendar", pin("x"))
    assert calendar is not None and calendar.pattern == "calendar"
    email = unconnected.email("send an email to dan", pin("x"))
    assert email is not None and email.pattern == "email"
