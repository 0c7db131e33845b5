"""Two reminders in one message, one short of what the other names: the day, or the time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memo.planner.match import GUESS
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

PLANNER = RulePlanner()
DAYS = ["tomorrow", "on friday", "on monday", "the day after tomorrow"]


def _steps(message: str) -> list[tuple[str, str]]:
    return [
        (s.constraints["title"], s.constraints.get("when", ""))
        for s in PLANNER.plan(pin(message)).output.plan
    ]


@given(day=st.sampled_from(DAYS), hour=st.integers(1, 11))
def test_a_time_said_for_the_second_is_on_the_day_said_for_the_first(day: str, hour: int) -> None:
    message = f"remind me {day} to call mom and at {hour}pm to call dad"
    result = PLANNER.plan(pin(message))
    (_, when), *_ = _steps(f"remind me {day} at {hour}pm to call mom")
    assert _steps(message) == [("call mom", when), ("call dad", when)]
    assert result.output.confidence <= GUESS  # a guess the person confirms


@given(day=st.sampled_from(DAYS), hour=st.integers(1, 11))
def test_a_time_after_the_things_to_do_is_the_one_request_s(day: str, hour: int) -> None:
    """ "on monday to buy milk and eggs at 10": one reminder on that day, never a second for today."""
    message = f"remind me {day} to buy milk and eggs at {hour}pm"
    assert _steps(message) == _steps(f"remind me {day} at {hour}pm to buy milk and eggs")


@pytest.mark.parametrize(
    "message",
    ["תזכיר לי מחר לקנות חלב וביצים ב-10", "תזכיר לי ביום שני לקנות לחם וחלב ב-8 בערב"],
)
def test_hebrew_things_to_do_with_one_time_are_one_reminder(message: str) -> None:
    (step,) = PLANNER.plan(pin(message)).output.plan
    assert "ו" in step.constraints["title"] and "when" in step.constraints


def test_a_second_reminder_with_a_day_of_its_own_keeps_it() -> None:
    steps = _steps("remind me tomorrow to call mom and on friday at 6 to call dad")
    assert [t for t, _ in steps] == ["call mom", "call dad"]
    assert steps[0][1].startswith("2024-05-02T18:00") and steps[1][1].startswith("2024-05-03T18:00")


@given(
    items=st.lists(
        st.sampled_from(["eggs", "milk", "bread", "batteries"]), min_size=1, max_size=3, unique=True
    ),
    verb=st.sampled_from(["buy them", "pick them up", "get those"]),
)
def test_them_in_a_reminder_is_what_the_same_message_put_on_a_list(items: list[str], verb: str) -> None:
    # "add eggs to my list and remind me tomorrow at 9 to buy them" set "buy them".
    said = ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]
    text = f"add {said} to my shopping list and remind me tomorrow at 9 to {verb}"
    output = RulePlanner().plan(pin(text)).output
    added, reminder = output.plan
    assert (added.capability, added.action, reminder.capability) == ("lists", "add", "reminders")
    title = str(reminder.constraints["title"])
    assert said in title and "them" not in title and "those" not in title


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("תוסיף ביצים וחלב לרשימת הקניות ותזכיר לי מחר ב-9 לקנות אותם", "לקנות ביצים וחלב"),
        ("add a birthday card to my list and remind me friday at 5 to sign it", "sign birthday card"),
        ("add paint to my list and remind me at 5 to make it count", "make it count"),  # no "it" mid-title
        ("remind me tomorrow at 9 to buy them", "buy them"),  # nothing named before: kept as said
    ],
)
def test_a_word_pointing_back_names_the_things_only_when_there_are_some(text: str, title: str) -> None:
    output = RulePlanner().plan(pin(text)).output
    assert output.plan[-1].constraints["title"] == title
