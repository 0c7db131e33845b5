"""A request said as a correction: the correction words set aside, the request read as its own; a
list add instead of the one just made is an exchange, asked first; never a change of another item."""

from __future__ import annotations

import pytest

from memo.domain import LatestAction
from memo.planner.intents.instead import corrected_request
from memo.planner.match import GUESS
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, latest, pin

PLANNER = RulePlanner()
READ = PLANNER._match  # the rule planner's matching, as `RulePlanner` hands it in

LEADS = ["no, ", "no wait, ", "wait no, ", "actually, ", "oops, ", "sorry, "]
HE_LEADS = ["לא, ", "רגע, ", "רגע לא, ", "בעצם, ", "אופס, "]


def _added(summary: str = "added milk to the shopping list") -> LatestAction:
    return LatestAction(
        created_at=NOW,
        capability="lists",
        action="add",
        summary=summary,
        external_ids={"listItemIds": ["i-1"], "listKey": "shopping"},
    )


@pytest.mark.parametrize("lead", LEADS)
@pytest.mark.parametrize("tail", [" instead", ""])
def test_a_list_add_after_a_reminder_is_the_add_alone(lead: str, tail: str) -> None:
    text = f"{lead}add eggs to the shopping list{tail}"
    [found] = corrected_request(text, pin(text, actions=(latest(),)), READ) or []
    assert (found.capability, found.action) == ("lists", "add")
    assert found.changes == {"items": ["eggs"]}


@pytest.mark.parametrize("lead", HE_LEADS)
def test_in_hebrew_too(lead: str) -> None:
    text = f"{lead}תוסיף ביצים לרשימת הקניות במקום"
    [found] = corrected_request(text, pin(text, actions=(latest(),)), READ) or []
    assert (found.capability, found.action) == ("lists", "add")


@pytest.mark.parametrize("lead", [*LEADS, "", *HE_LEADS])
def test_another_item_instead_of_the_one_just_added_is_an_exchange_asked_first(lead: str) -> None:
    text = (
        f"{lead}add oat milk instead"
        if not any("\u0590" <= c <= "\u05ff" for c in lead)
        else f"{lead}תוסיף חלב סויה במקום"
    )
    steps = corrected_request(text, pin(text, actions=(_added(),)), READ)
    assert steps is not None
    assert [(s.capability, s.action) for s in steps] == [("lists", "remove"), ("lists", "add")]
    assert steps[0].changes == {"items": ["milk"]}
    assert all(s.confidence <= GUESS for s in steps)
    assert {s.constraints["listName"] for s in steps} == {"shopping"}


def test_an_add_to_another_list_leaves_what_was_added_and_is_asked() -> None:
    text = "no wait, add eggs to the todo list instead"
    [found] = corrected_request(text, pin(text, actions=(_added(),)), READ) or []
    assert found.action == "add" and found.confidence <= GUESS


@pytest.mark.parametrize(
    "text",
    [
        "no, call dad instead",  # a new title for the reminder just set: `corrections`
        "no wait, remind me to call dad at 6 instead",  # the same kind: `followups`
        "oops i meant tomorrow",
        "add eggs to the shopping list",  # no correction at all
        "no",
        "instead",
        # a request of its own before another: never set aside as a correction
        "cancel the dentist reminder, add milk to the shopping list",
        "skip tomorrow's reminder. add milk to the shopping list",
    ],
)
def test_what_is_no_correction_of_another_kind_is_left_to_the_other_matchers(text: str) -> None:
    assert corrected_request(text, pin(text, actions=(latest(),)), READ) is None


@pytest.mark.parametrize(
    "text",
    [
        "no, add eggs to the shopping list instead",
        "לא, תוסיף ביצים לרשימת הקניות במקום",
        "instead add oat milk",
    ],
)
def test_the_planner_never_renames_the_reminder_just_set(text: str) -> None:
    plan = PLANNER.plan(pin(text, actions=(latest(),))).output.plan
    assert plan and all(step.capability == "lists" for step in plan)


MEANT_EN = [
    "oops i meant the todo list",
    "i meant my todo list",
    "no, the todo list",
    "sorry, it's for the todo list",
    "put them on the todo list",
    "move it to my todo list",
    "actually the todo list",
]
MEANT_HE = [
    "התכוונתי לרשימת המשימות",
    "לא, לרשימת המשימות",
    "אופס, התכוונתי למשימות",
    "תעביר את זה לרשימת המשימות",
]


@pytest.mark.parametrize("text", MEANT_EN + MEANT_HE)
def test_the_list_meant_after_an_add_moves_those_things_asked_first(text: str) -> None:
    added = _added("added milk, eggs to the shopping list")
    steps = corrected_request(text, pin(text, actions=(added,)), READ)
    assert steps is not None, text
    removed, moved = steps
    assert (removed.action, removed.constraints, removed.changes) == (
        "remove",
        {"listName": "shopping"},
        {"items": ["milk", "eggs"]},
    )
    assert moved.action == "add" and moved.changes == {"items": ["milk", "eggs"]}
    assert moved.constraints["listName"] in ("todo", "משימות")
    assert removed.confidence == moved.confidence == GUESS  # the person confirms the move


@pytest.mark.parametrize(
    "text", ["i meant the shopping list", "no, my shopping list", "התכוונתי לרשימת הקניות"]
)
def test_the_list_the_things_are_on_already_moves_nothing(text: str) -> None:
    added = _added("added milk to the shopping list")
    steps = corrected_request(text, pin(text, actions=(added,)), READ) or []
    assert all(step.action != "remove" for step in steps)


@pytest.mark.parametrize("text", MEANT_EN[:3] + MEANT_HE[:1])
def test_the_list_meant_after_anything_but_a_list_add_moves_nothing(text: str) -> None:
    for actions in ((latest(),), ()):
        steps = corrected_request(text, pin(text, actions=actions), READ) or []
        assert all(step.action != "remove" and step.pattern != "lists:moved" for step in steps)


@pytest.mark.parametrize(
    "text", ["i meant asdf qwer zxcv", "no, the todo", "i meant call mom", "the todo list"]
)
def test_words_that_name_no_list_move_nothing(text: str) -> None:
    added = _added("added milk to the shopping list")
    steps = corrected_request(text, pin(text, actions=(added,)), READ) or []
    assert all(step.pattern != "lists:moved" for step in steps)
