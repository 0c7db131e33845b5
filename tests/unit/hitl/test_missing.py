"""Which step a missing-fields question is about, over plans of several kinds in either order."""

from __future__ import annotations

import itertools

import pytest

from memo.hitl.missing import asked_step_id, satisfied_fields
from tests.unit.hitl.conftest import plan, step

LIST_ADD = {
    "capability": "lists",
    "action": "add",
    "constraints": {"listName": "shopping"},
    "changes": {"items": ["tape"]},
}
NOTE = {"capability": "notes", "action": "save", "changes": {"text": "gate code 4411"}}
TIMED = {"constraints": {"title": "call mom", "when": "2024-05-02T09:00:00+03:00"}}
UNTIMED = {"constraints": {"title": "call dana"}}


@pytest.mark.parametrize("others", [[LIST_ADD], [NOTE], [LIST_ADD, NOTE], [TIMED], [LIST_ADD, TIMED]])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_the_time_asked_is_the_untimed_reminders(others: list[dict[str, object]], at: int) -> None:
    kinds = [*others]
    kinds.insert(min(at, len(kinds)), UNTIMED)
    steps = [step(step_id=f"s{i}", **kind) for i, kind in enumerate(kinds, start=1)]
    asked = next(s.id for s in steps if s.constraints.get("title") == "call dana")
    assert asked_step_id(plan(*steps, missing=["reminder_time_required"])) == asked


def test_items_asked_are_the_lists_and_a_field_of_no_kind_is_the_first_steps() -> None:
    asked = step(step_id="s2", capability="lists", action="add", constraints={"listName": "packing"})
    assert asked_step_id(plan(step(**TIMED), asked, missing=["list_items_required"])) == "s2"
    assert asked_step_id(plan(step(**TIMED), asked, missing=["target_unclear"])) == "s1"


@pytest.mark.parametrize(
    ("bags", "has"),
    [
        ({"constraints": {"when": "x"}}, {"reminder_time_required", "time_unclear"}),
        ({"constraints": {"title": "x"}}, {"reminder_title_required"}),
        ({"capability": "notes", "changes": {"text": "x"}}, {"note_text_required"}),
        (LIST_ADD, {"list_items_required", "list_name_required"}),
        ({"capability": "lists", "constraints": {"listName": "default"}}, set()),
    ],
)
def test_satisfied_fields(bags: dict[str, object], has: set[str]) -> None:
    assert satisfied_fields(step(**bags)) == has


def test_every_order_of_three_kinds() -> None:
    for kinds in itertools.permutations([LIST_ADD, NOTE, UNTIMED]):
        steps = [step(step_id=f"s{i}", **kind) for i, kind in enumerate(kinds, start=1)]
        expected = f"s{kinds.index(UNTIMED) + 1}"
        assert asked_step_id(plan(*steps, missing=["reminder_time_required"])) == expected
