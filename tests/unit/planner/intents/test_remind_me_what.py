""" "Remind me what I have on monday": a question asked with "remind me", read when it names no time;
a reminder when it does, or when what follows is something to do."""

from __future__ import annotations

import pytest

from memo.planner.intents.remind_me_what import remind_me_what
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

_ASKING = [
    "remind me {}",
    "Remind me {}?",
    "can you remind me {}",
    "please remind me {}",
    "remind me again {}",
]

_QUESTIONS = [
    # (what is asked, the read it is)
    ("what I have on monday", ("reminders", "list")),
    ("what i have tomorrow", ("reminders", "list")),
    ("what my reminders are", ("reminders", "list")),
    ("which reminders I have this week", ("reminders", "list")),
    ("how many reminders i have", ("reminders", "list")),
    ("what I asked you to remind me about", ("reminders", "list")),
    ("what time the dentist is", ("reminders", "list")),
    ("of my reminders for tomorrow", ("reminders", "list")),
    ("what I need to buy", ("lists", "show")),
    ("what's on my shopping list", ("lists", "show")),
    ("about my shopping list", ("lists", "show")),
    ("where I parked", ("notes", "search")),
    ("where i left my keys", ("notes", "search")),
    ("what the wifi password is", ("notes", "search")),
    ("what my passport number is", ("notes", "search")),
    ("where's my passport", ("notes", "search")),
    ("what I noted about the car", ("notes", "search")),
]

_HE_QUESTIONS = [
    ("תזכיר לי מה יש לי ביום שני", ("reminders", "list")),
    ("תזכירי לי מה התזכורות שלי", ("reminders", "list")),
    ("תזכיר לי איפה חניתי", ("notes", "search")),
    ("תזכיר לי מה הסיסמה של הוויפי", ("notes", "search")),
    ("תזכיר לי שוב מה אני צריך לקנות", ("lists", "show")),
]


@pytest.mark.parametrize("asking", _ASKING)
@pytest.mark.parametrize(("asked", "read"), _QUESTIONS)
def test_a_question_asked_with_remind_me_is_read_and_makes_nothing(
    asking: str, asked: str, read: tuple[str, str]
) -> None:
    # Each was a reminder titled with the question ("what i have"), asked "what time?".
    message = asking.format(asked)
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action) == read, message


@pytest.mark.parametrize(("message", "read"), _HE_QUESTIONS)
def test_a_hebrew_question_asked_with_remind_me_is_read(message: str, read: tuple[str, str]) -> None:
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action) == read, message


def test_the_day_a_question_names_is_the_day_listed() -> None:
    asked = RulePlanner().plan(pin("remind me what I have on monday")).output.plan[0]
    told = RulePlanner().plan(pin("what do I have on monday")).output.plan[0]
    assert asked.constraints == told.constraints and "day" in asked.constraints


@pytest.mark.parametrize(
    "message",
    [
        "remind me at 5 what I need to buy",  # a time: when to be told
        "remind me what I need to buy at 5pm",
        "remind me what i have tomorrow at 9am",
        "remind me tomorrow what I need to buy",  # the day is before the question: when to be told
        "remind me what to bring tomorrow",  # something to do
        "remind me what to say to mom",
        "remind me where to park",
        "remind me when the dentist is",  # "when": a condition as often as a question
        "remind me who called",  # nothing here answers it
        "remind me to call mom",
        "remind me about the shopping list at 6pm",
        "תזכיר לי מחר מה לקנות",
    ],
)
def test_a_time_or_something_to_do_keeps_it_a_reminder(message: str) -> None:
    assert remind_me_what(message.lower() if message.isascii() else message, pin(message)) is None
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action) == ("reminders", "create"), message
