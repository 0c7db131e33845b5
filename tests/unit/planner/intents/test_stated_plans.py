"""Plans told with a time, offered as a reminder to confirm."""

from __future__ import annotations

from memo.planner.intents import stated_plans
from memo.planner.match import GUESS
from tests.unit.planner.conftest import pin


def test_a_plan_told_with_its_time_is_offered() -> None:
    found = stated_plans.stated_plan("I have a dentist appointment on thursday at 4", pin("x"))
    assert found is not None and found.confidence == GUESS
    assert found.constraints == {"title": "dentist appointment", "when": "2024-05-02T16:00:00+03:00"}


def test_without_a_time_of_day_nothing_is_offered() -> None:
    assert stated_plans.stated_plan("I have a dentist appointment on thursday", pin("x")) is None


def test_words_to_someone_are_no_plan() -> None:
    assert stated_plans.timed_phrase("see you at 6", pin("x")) is None
    found = stated_plans.timed_phrase("call the bank tomorrow at 10", pin("x"))
    assert found is not None and found.constraints["title"] == "call the bank"
