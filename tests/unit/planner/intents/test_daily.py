"""Everyday questions and requests: the agenda of a day, "reminders", alarms."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.planner.intents import daily
from tests.unit.planner.conftest import NOW, pin


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


@pytest.mark.parametrize(
    ("message", "title", "rule", "when"),
    [
        (
            "wake me up every weekday at 7",
            "alarm",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU",
            "2024-05-02T07:00:00+03:00",
        ),
        ("set an alarm for 6:45 every day", "alarm", "FREQ=DAILY", "2024-05-02T06:45:00+03:00"),
        ("תעיר אותי כל בוקר בשש וחצי", "השכמה", "FREQ=DAILY", "2024-05-02T06:30:00+03:00"),
        ("תכוון לי שעון מעורר לשבע כל יום", "השכמה", "FREQ=DAILY", "2024-05-02T07:00:00+03:00"),
    ],
)
def test_a_repeating_alarm_keeps_its_repetition(message: str, title: str, rule: str, when: str) -> None:
    found = daily.alarm(message, pin(message))
    assert found is not None and found.missing == ()
    assert found.constraints == {"title": title, "recurrence": rule, "when": when}


def test_the_workweek_of_an_alarm_is_the_users() -> None:
    london = pin("x").model_copy(update={"timezone": "Europe/London"})
    found = daily.alarm("wake me up every weekday at 7", london)
    assert found is not None and found.constraints["recurrence"] == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"


@pytest.mark.parametrize(
    "asked",
    [
        "what do I have?",
        "what have I got",
        "what's on my plate?",
        "what is my schedule",
        "do i have anything planned?",
        "מה יש לי?",
    ],
)
def test_what_do_i_have_without_a_day_is_everything_to_come(asked: str) -> None:
    found = daily.agenda(asked, pin(asked))
    assert found is not None and found.action == "list" and found.constraints == {}


@pytest.mark.parametrize("greeting", ["what's up?", "whats up", "מה קורה?", "what's happening"])
def test_a_greeting_is_no_agenda(greeting: str) -> None:
    assert daily.agenda(greeting, pin(greeting)) is None


@pytest.mark.parametrize(
    "message",
    [
        "what do i have this weekend?", "what am i up to this weekend", "what's planned for the weekend",
        "show me the weekend", "מה יש לי בסוף השבוע?",
    ],
)  # fmt: skip
def test_the_weekend_lists_both_its_days(message: str) -> None:
    # Wednesday 1 May 2024 in Israel: the weekend is Friday 3 and Saturday 4 May.
    found = daily.agenda(message, pin(message))
    assert found is not None and found.constraints == {"day": "2024-05-03", "until": "2024-05-04"}


@pytest.mark.parametrize(
    ("message", "day"),
    [
        ("what am i doing tomorrow", "2024-05-02"),
        ("show me friday", "2024-05-03"),
        ("show me tomorrow", "2024-05-02"),
    ],
)
def test_what_am_i_doing_and_show_me_a_day_list_that_day(message: str, day: str) -> None:
    found = daily.agenda(message, pin(message))
    assert found is not None and found.constraints == {"day": day}


@pytest.mark.parametrize("message", ["show me how", "show me the money", "what am i doing wrong", "show me"])
def test_show_me_without_a_day_is_no_agenda(message: str) -> None:
    assert daily.agenda(message, pin(message)) is None


@pytest.mark.parametrize(
    "asked", ["is there anything", "have i got anything", "got anything", "anything", "do i have anything"]
)
@pytest.mark.parametrize(("day", "on"), [("today", 0), ("tomorrow", 1), ("on friday", 2)])
def test_asked_whether_there_is_anything_on_a_day(asked: str, day: str, on: int) -> None:
    # "is there anything today" was "I'm not sure I understood".
    for message in (f"{asked} {day}", f"{asked} {day}?"):
        found = daily.agenda(message, pin(message))
        assert found is not None and found.constraints == {"day": _days_on(on)}, message


def _days_on(days: int) -> str:
    """The day `days` after the planner tests' fixed now (a Wednesday), as a listing names it."""
    return (NOW + timedelta(days=days)).date().isoformat()


@pytest.mark.parametrize(("message", "on"), [("יש משהו היום?", 0), ("יש משהו מחר", 1)])
def test_hebrew_is_there_anything_on_a_day(message: str, on: int) -> None:
    found = daily.agenda(message, pin(message))
    assert found is not None and found.constraints == {"day": _days_on(on)}


@pytest.mark.parametrize(
    "message", ["is there anything i need to buy", "is there anything else", "יש משהו חדש?"]
)
def test_anything_about_something_else_is_no_agenda(message: str) -> None:
    assert daily.agenda(message, pin(message)) is None


@pytest.mark.parametrize(
    "message", ["tell me what i have tomorrow", "can you tell me what's on tomorrow", "תגיד לי מה יש לי מחר"]
)
def test_tell_me_what_i_have_is_the_agenda(message: str) -> None:
    found = daily.agenda(message, pin(message))
    assert found is not None and found.constraints == {"day": _days_on(1)}, message
