"""A thing moved from one list to another: off the list it is on, then on the other. Generated over
the verbs, the things and the lists, in English and Hebrew."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.planner.intents.list_moves import moved_to_list
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import pin

PLANNER = RulePlanner()


@settings(deadline=None)
@given(
    verb=st.sampled_from(["move", "transfer", "shift"]),
    thing=st.sampled_from(["batteries", "milk", "the light bulbs", "oat milk and bread"]),
    src=st.sampled_from(["", "shopping", "groceries", "todo"]),
    dst=st.sampled_from(["hardware", "pharmacy", "camping"]),
)
def test_a_thing_moved_comes_off_then_goes_on(verb: str, thing: str, src: str, dst: str) -> None:
    said = f"{verb} {thing} " + (f"from the {src} list " if src else "") + f"to the {dst} list"
    plan = PLANNER.plan(pin(said)).output.plan
    assert [(s.action, s.constraints["listName"]) for s in plan] == [
        ("remove", src or "default"),
        ("add", dst),
    ]
    items = plan[0].changes["items"]
    assert items == plan[1].changes["items"] and all(not i.startswith("the ") for i in items)


@pytest.mark.parametrize(
    ("said", "items", "dst"),
    [
        ("תעביר את החלב לרשימת בית מרקחת", ["חלב"], "בית מרקחת"),
        ("תעבירי את הסוללות מרשימת הקניות לרשימה של כלי עבודה", ["סוללות"], "כלי עבודה"),
    ],
)
def test_hebrew_a_thing_moved_comes_off_then_goes_on(said: str, items: list[str], dst: str) -> None:
    plan = PLANNER.plan(pin(said)).output.plan
    assert [s.action for s in plan] == ["remove", "add"]
    assert plan[1].changes["items"] == items and plan[1].constraints["listName"] == dst


@pytest.mark.parametrize(
    "said",
    [
        "move the gym to friday",
        "move milk from the shopping list to the groceries list",
        "put milk on the shopping list",
    ],
)
def test_no_move_between_lists(said: str) -> None:
    # a reminder's move; the same list by another name; an add
    assert moved_to_list(said, pin(said)) == []
