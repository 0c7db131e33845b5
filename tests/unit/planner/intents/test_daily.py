"""Everyday questions and requests: the agenda of a day, "reminders", alarms."""

from __future__ import annotations

from memo.planner.intents import daily
from tests.unit.planner.conftest import pin


def test_the_agenda_of_a_day_lists_its_reminders() -> None:
    found = daily.agenda("what do I have tomorrow?", pin("x"))
    assert found is not None and (found.capability, found.action) == ("reminders", "list")
    assert found.constraints == {"day": "2024-05-02"}


def test_an_alarm_is_a_reminder() -> None:
    found = daily.alarm("wake me up at 7", pin("x"))
    assert found is not None and found.action == "create"
    assert found.constraints["when"] == "2024-05-02T07:00:00+03:00"


def test_listing() -> None:
    found = daily.listing({"day": "2024-05-02"}, "reminders:list")
    assert found.constraints == {"day": "2024-05-02"} and found.pattern == "reminders:list"
