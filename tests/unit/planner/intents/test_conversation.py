"""Small talk and conversation: no plan steps."""

from __future__ import annotations

import pytest

from memo.planner.intents import conversation
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin


def test_small_talk_is_recognised() -> None:
    found = conversation.small_talk("thanks!")
    assert found is not None and found.pattern.startswith("smalltalk:")
    assert conversation.small_talk("remind me to call mom") is None


@pytest.mark.parametrize(
    "message",
    [
        "book me a table for 2 at 8 tonight",
        "can you order pizza for 7",
        "order me a taxi for 7am",
        "reserve a table at nino tomorrow at 8",
        "תזמין לי שולחן לשניים בשמונה",
        "תזמין לי מונית לשש",
    ],
)
def test_an_errand_memo_cannot_run_is_no_reminder(message: str) -> None:
    output = RulePlanner().plan(pin(message)).output
    assert output.plan == [] and output.missing_fields == ["intent_unclear"]


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("remind me to book a table for 2 at 8 tonight", "book a table for 2"),
        ("remind me about the meeting with dan tomorrow at 3", "the meeting with dan"),
        ("תזכיר לי להזמין מונית מחר בשש", "להזמין מונית"),
    ],
)
def test_asked_to_be_reminded_of_an_errand_or_a_meeting_is_a_reminder(message: str, title: str) -> None:
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action, step.constraints["title"]) == ("reminders", "create", title)


def test_what_can_you_do_for_me_asks_for_help() -> None:
    found = conversation.chat("what can you do for me?", pin("x"))
    assert found is not None and found.constraints == {"kind": "help"}
