"""Follow-ups that point back at the latest actions: "delete it", "move it to 6", "and again"."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import LatestAction
from memo.planner.base import PlannerResult
from memo.planner.intents import followups
from memo.planner.match import GUESS, Match
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, latest, pin


def test_delete_it_after_a_list_item_takes_it_off_that_list() -> None:
    item = latest("lists", "milk")
    item = item.model_copy(update={"external_ids": {"listKey": "shopping"}})
    found = followups.referential("delete it", pin("delete it", actions=(item,)))
    assert isinstance(found, Match) and found.pattern == "ref:remove"
    assert found.constraints == {"listName": "shopping", "targetRef": "latest_action"}


def test_delete_it_with_nothing_done_asks() -> None:
    assert isinstance(followups.referential("delete it", pin("delete it")), PlannerResult)


def test_move_it_to_a_time_keeps_the_reminders_day() -> None:
    found = followups.referential("move it to 6pm", pin("move it to 6pm", actions=(latest(),)))
    assert isinstance(found, Match) and found.pattern == "ref:move"
    assert found.changes == {"time": "18:00"}


def test_push_it_by_an_hour() -> None:
    found = followups.referential("push it by an hour", pin("push it by an hour", actions=(latest(),)))
    assert isinstance(found, Match) and found.changes == {"shiftMinutes": 60}


def test_a_bare_time_just_after_a_reminder_is_a_guess_at_its_time() -> None:
    just_set = latest(hours=1)
    assert followups.a_time_for_the_reminder_just_set("8", [just_set], NOW)
    assert not followups.a_time_for_the_reminder_just_set("8", [just_set], NOW + timedelta(hours=1))
    found = followups.referential("8", pin("8", actions=(just_set,)))
    assert isinstance(found, Match) and found.confidence == GUESS


def test_again_at_another_time() -> None:
    assert followups.says_again("and again in 4 hours")
    found = followups.again("and again in 4 hours", pin("x", actions=(latest(),)))
    assert found is not None
    assert found.constraints == {"title": "call mom", "when": "2024-05-01T14:00:00+03:00"}


@pytest.mark.parametrize(
    ("said", "day"), [("move it to sunday", "2024-05-05"), ("תעביר את זה ליום ראשון", "2024-05-05")]
)
def test_a_day_for_a_reminder_whose_time_is_not_known_here_keeps_its_own(said: str, day: str) -> None:
    """After a listing ("what are my reminders?" showing one), the latest action has no time: the
    day alone is the change, and the reminder keeps its time (it asked "When?")."""
    listed = latest(summary="listed 1 reminder(s)").model_copy(update={"action": "list", "when": None})
    found = followups.referential(said, pin(said, actions=(listed,)))
    assert isinstance(found, Match) and found.changes == {"day": day} and found.missing == ()


_OFF_THE_LIST = [
    "take it off the list",
    "remove it from the list",
    "remove it from my shopping list",
    "cross it off",
    "cross that off the list",
    "take it off",
    "delete it from the list",
    "תוריד את זה מהרשימה",
    "תמחק את זה מרשימת הקניות",
]


@pytest.mark.parametrize("text", _OFF_THE_LIST)
def test_it_off_the_list_is_the_item_just_added(text: str) -> None:
    # "take it off the list" took a thing called "it" off the list ("I couldn't find “it”").
    added = LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="lists",
        action="add",
        summary="added pears to your shopping list",
        external_ids={"listKey": "shopping"},
    )
    found = RulePlanner().plan(pin(text, actions=(added,))).output
    (step,) = found.plan
    assert (step.capability, step.action) == ("lists", "remove")
    assert step.constraints["targetRef"] == "latest_action" and step.constraints["listName"] == "shopping"
    assert "items" not in (step.changes or {})


@pytest.mark.parametrize("text", ["take them off the list", "remove them from my list", "תוריד אותם מהרשימה"])
def test_them_off_the_list_is_every_item_just_added(text: str) -> None:
    added = LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="lists",
        action="add",
        summary="added pears, plums to your shopping list",
        external_ids={"listKey": "shopping"},
    )
    (step,) = RulePlanner().plan(pin(text, actions=(added,))).output.plan
    assert step.constraints.get("plural") is True


@pytest.mark.parametrize("text", [*_OFF_THE_LIST, "take them off the list"])
def test_it_off_the_list_after_a_reminder_is_asked_not_guessed(text: str) -> None:
    output = RulePlanner().plan(pin(text, actions=(latest(),))).output
    assert not output.plan and "intent_unclear" in output.missing_fields


@pytest.mark.parametrize(
    ("said", "two"),
    [
        ("delete both", True),
        ("delete both of them", True),
        ("cancel them both", True),
        ("delete the two of them", True),
        ("תמחק את שתיהן", True),
        ("תמחק את שניהם", True),
        ("delete them", False),
        ("delete it", False),
        ("תמחק אותם", False),
    ],
)
def test_both_names_two_of_the_latest_and_them_what_one_request_made(said: str, two: bool) -> None:
    found = followups.referential(said, pin(said, actions=(latest(),)))
    assert isinstance(found, Match) and found.constraints["targetRef"] == "latest_action"
    assert found.constraints.get("refCount") == (2 if two else None)


@pytest.mark.parametrize("said", ["switch it to hebrew", "switch it to english please", "switch it off"])
def test_switch_it_is_a_new_time_or_days_never_a_new_title(said: str) -> None:
    found = followups.referential(said, pin(said, actions=(latest(),)))
    assert not (isinstance(found, Match) and "title" in (found.changes or {})), found
    moved = followups.referential("switch it to 6pm", pin("switch it to 6pm", actions=(latest(),)))
    assert isinstance(moved, Match) and moved.changes == {"time": "18:00"}


_HOURS_EN = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]
_MINUTES_EN = {"": 0, "fifteen": 15, "thirty": 30, "forty five": 45, "o'clock": 0, "oh five": 5}


@pytest.mark.parametrize(
    "said", ["change it to {}", "make it {}", "move it to {}", "change to {}", "move to {}", "no, make it {}"]
)
def test_a_clock_time_in_words_moves_the_reminder_and_is_never_its_title(said: str) -> None:
    # "change it to nine" renamed the reminder "nine"; "make it nine thirty" was not understood.
    for hour, word in enumerate(_HOURS_EN, start=1):
        for minutes_word, minutes in _MINUTES_EN.items():
            message = said.format(f"{word} {minutes_word}".strip())
            (step,) = RulePlanner().plan(pin(message, actions=(latest(),))).output.plan
            either = {f"{hour % 12:02d}:{minutes:02d}", f"{hour % 12 + 12:02d}:{minutes:02d}"}
            assert step.action == "update" and (step.changes or {}).get("time") in either, (
                message,
                step.changes,
            )
            assert "title" not in (step.changes or {}), message


_HOURS_HE = [
    "אחת",
    "שתיים",
    "שלוש",
    "ארבע",
    "חמש",
    "שש",
    "שבע",
    "שמונה",
    "תשע",
    "עשר",
    "אחת עשרה",
    "שתים עשרה",
]


@pytest.mark.parametrize("verb", ["תשנה", "תשני", "תעביר", "תזיז", "תשנה את זה", "תעביר את זה"])
def test_hebrew_change_to_a_time_with_it_unsaid_moves_the_reminder(verb: str) -> None:
    # "תשנה לתשע" (change to nine, "it" unsaid, as Hebrew says it) was not understood.
    for hour, word in enumerate(_HOURS_HE, start=1):
        for said, minutes in ((f"ל{word}", 0), (f"ל{word} וחצי", 30), (f"ל-{hour}:15", 15), (f"ל{hour}", 0)):
            message = f"{verb} {said}"
            (step,) = RulePlanner().plan(pin(message, actions=(latest(),))).output.plan
            either = {f"{hour % 12:02d}:{minutes:02d}", f"{hour % 12 + 12:02d}:{minutes:02d}"}
            assert (step.changes or {}).get("time") in either, (message, step.changes)


@pytest.mark.parametrize(
    ("message", "title"),
    [
        ("change it to seven apples", "seven apples"),
        ("change it to buy milk", "buy milk"),
        ("rename it to nine", "nine"),
    ],
)
def test_words_that_are_more_than_a_time_are_still_a_new_title(message: str, title: str) -> None:
    (step,) = RulePlanner().plan(pin(message, actions=(latest(),))).output.plan
    assert step.changes == {"title": title}


@pytest.mark.parametrize(
    "message", ["move to the shopping list", "תעביר לרשימת הקניות", "change to call dad"]
)
def test_it_unsaid_before_anything_but_a_time_is_not_guessed(message: str) -> None:
    output = RulePlanner().plan(pin(message, actions=(latest(),))).output
    assert output.plan == [] and output.missing_fields == ["intent_unclear"], message
