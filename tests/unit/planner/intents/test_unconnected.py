"""Requests for services Memo is not connected to: a calendar, email."""

from __future__ import annotations

from memo.planner.intents import unconnected
from tests.unit.planner.conftest import pin


def test_calendar_and_email_are_recognised() -> None:
    calendar = unconnected.calendar("add a meeting to my google calendar", pin("x"))
    assert calendar is not None and calendar.pattern == "calendar"
    email = unconnected.email("send an email to dan", pin("x"))
    assert email is not None and email.pattern == "email"


def test_an_appointment_in_hebrew_is_the_calendars() -> None:
    for message in ("תקבע לי תור לרופא", "תזמין לי תור למספרה"):
        found = unconnected.calendar(message, pin(message))
        assert found is not None and found.action == "create_event", message
    assert unconnected.calendar("תזכיר לי לעמוד בתור בדואר", pin("x")) is None  # "in line": no appointment
