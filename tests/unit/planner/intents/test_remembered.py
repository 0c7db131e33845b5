""" "Remember ..." in English: a note when the words hold something to keep, a reminder when they
name a time, a question about a note when they only name a thing."""

from __future__ import annotations

import pytest

from memo.planner.intents import remembered
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

_KEPT = [
    # (what follows the verb, the note it saves)
    ("the dose: 5ml twice a day", "the dose: 5ml twice a day"),
    ("wifi password: Blue2024!", "wifi password: Blue2024!"),
    ("where I parked: level 3", "where I parked: level 3"),
    ("my passport number 12345678", "my passport number 12345678"),
    ("parking spot B12 level 3", "parking spot B12 level 3"),
    ("John's number 054-1234567", "John's number 054-1234567"),
    ("mom's shoe size is 38", "mom's shoe size is 38"),
    ("flight LY315", "flight LY315"),
    ("ur keys r in the blue bag", "ur keys r in the blue bag"),
]
_VERBS = [
    "remember {}",
    "please remember {}",
    "Remember {}",
    "remember that {}",
    "remember: {}",
    "Remember, {}",
]


@pytest.mark.parametrize("verb", _VERBS)
@pytest.mark.parametrize(("said", "note"), _KEPT)
def test_remember_with_something_to_keep_saves_it_as_typed(verb: str, said: str, note: str) -> None:
    # "remember the dose: 5ml twice a day" searched the notes; "remember wifi password: ..." was
    # not understood.
    message = verb.format(said)
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action, step.changes) == ("notes", "save", {"text": note}), message


@pytest.mark.parametrize(
    "said",
    ["the plumber comes on Thursday", "the kids have swimming after school", "buy the blue one, not the red"],
)
@pytest.mark.parametrize("apart", [": ", ", ", " - "])
def test_words_set_apart_after_remember_are_the_note(said: str, apart: str) -> None:
    (step,) = RulePlanner().plan(pin(f"remember{apart}{said}")).output.plan
    assert (step.action, step.changes) == ("save", {"text": said})


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("remember the meeting at 5pm tomorrow", "the meeting"),
        ("remember the dentist on thursday at 10", "the dentist"),
        ("remember mom's birthday party on friday at 6pm", "mom's birthday party"),
    ],
)
def test_remember_a_thing_at_a_time_is_a_reminder(message: str, title: str) -> None:
    # "remember the meeting at 5pm tomorrow" asked the calendar Memo has no access to.
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action, step.constraints["title"]) == ("reminders", "create", title)
    assert step.constraints.get("when")


@pytest.mark.parametrize(
    "message",
    [
        "remember my wifi password",
        "remember my wifi password?",
        "remember the gate code is what?",
        "remember where I parked?",
        "do you remember the gate code",
    ],
)
def test_remember_a_thing_alone_asks_for_it_and_saves_nothing(message: str) -> None:
    steps = RulePlanner().plan(pin(message)).output.plan
    assert [(s.capability, s.action) for s in steps] in ([("notes", "search")], []), message


@pytest.mark.parametrize("message", ["remember to buy milk", "remember when we went to Eilat", "remember"])
def test_remember_to_or_when_is_not_a_note(message: str) -> None:
    assert remembered.remembered(message, pin(message)) is None


@pytest.mark.parametrize(
    ("message", "capability", "action"),
    [
        ("Remember, remind me to call mom at 5", "reminders", "create"),
        ("remember: add milk to my shopping list", "lists", "add"),
        ("remember, delete all my reminders", "reminders", "delete_all"),
    ],
)
def test_a_request_after_remember_is_that_request_not_a_note(
    message: str, capability: str, action: str
) -> None:
    (step,) = RulePlanner().plan(pin(message)).output.plan
    assert (step.capability, step.action) == (capability, action)
