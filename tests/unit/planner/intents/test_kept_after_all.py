"""A removal taken back by name ("actually keep the bananas", "בעצם תשאיר את החלב"): what the latest
removal took goes back on its list; anything else is no command here. Generated over the ways it is
said and the things removed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memo.domain import LatestAction
from memo.planner.intents.kept_after_all import kept_after_all
from memo.planner.rules import RulePlanner
from tests.unit.planner.conftest import NOW, pin


def _removed(things: list[str], hebrew: bool = False, key: str = "shopping") -> LatestAction:
    names = ", ".join(things)
    return LatestAction(
        created_at=NOW - timedelta(minutes=1),
        capability="lists",
        action="remove",
        summary=f"הסרתי {names} מרשימת קניות" if hebrew else f"removed {names} from the shopping list",
        external_ids={"listItemIds": ["i-1"], "listKey": key},
    )


_EN_SAID = [
    "actually keep the {x}",
    "keep the {x}",
    "oh wait, keep the {x} on the list",
    "don't remove the {x}",
    "dont delete the {x} after all",
    "no, leave the {x}",
    "do not remove my {x}",
]
_HE_SAID = ["בעצם תשאיר את ה{x}", "אל תמחק את ה{x}", "רגע, אל תוריד את ה{x}", "תשאירי את ה{x} בכל זאת"]


@settings(deadline=None)  # the first plan of a process loads the planner's words
@given(
    said=st.sampled_from(_EN_SAID),
    removed=st.lists(
        st.sampled_from(["bananas", "apples", "bread", "oat milk", "eggs"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
    data=st.data(),
)
def test_what_the_latest_removal_took_goes_back(said: str, removed: list[str], data: st.DataObject) -> None:
    kept = data.draw(st.sampled_from(removed))
    step = RulePlanner().plan(pin(said.format(x=kept), actions=(_removed(removed),))).output.plan[0]
    assert (step.capability, step.action) == ("lists", "add")
    assert step.constraints == {"listName": "shopping"} and step.changes == {"items": [kept]}


@pytest.mark.parametrize("said", _HE_SAID)
def test_hebrew_what_the_latest_removal_took_goes_back(said: str) -> None:
    found = kept_after_all(
        said.format(x="חלב"), pin(said.format(x="חלב"), actions=(_removed(["חלב", "לחם"], True),))
    )
    assert found is not None and found.changes == {"items": ["חלב"]}


def test_two_named_both_go_back() -> None:
    found = kept_after_all(
        "keep the bananas and apples", pin("x", actions=(_removed(["bananas", "apples", "eggs"]),))
    )
    assert found is not None and found.changes == {"items": ["bananas", "apples"]}


@pytest.mark.parametrize(
    ("said", "actions"),
    [
        ("keep the milk", (_removed(["bananas"]),)),  # not what was taken
        ("keep the bananas and the milk", (_removed(["bananas"]),)),  # one of them was not
        ("keep the bananas", ()),  # nothing was removed
        ("keep calm", (_removed(["bananas"]),)),
    ],
)
def test_anything_the_removal_did_not_take_is_no_command_here(
    said: str, actions: tuple[LatestAction, ...]
) -> None:
    assert kept_after_all(said, pin(said, actions=actions)) is None
