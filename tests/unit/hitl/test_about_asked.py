"""Whether an answer to a removal's question names what was asked about or something else."""

from __future__ import annotations

import pytest

from memo.hitl import gate
from memo.hitl.about_asked import names_another_thing
from tests.unit.hitl.conftest import NOW, make_state, plan, step

PLUMBER = step(action="delete", constraints={"target": "call the plumber"})
GYM_SKIP = step(action="delete", constraints={"target": "גם החדר כושר", "scope": "occurrence"})


def _pending(asked: object) -> object:
    pending = gate.check_planner(make_state(plan(asked, risk="high")), now=NOW).pending
    assert pending is not None
    return pending


@pytest.mark.parametrize(
    ("asked", "said", "another"),
    [
        (PLUMBER, "move call mom to friday", True),
        (PLUMBER, "move the plumber to friday", False),
        (PLUMBER, "move it to friday", False),
        (PLUMBER, "move that to 6pm", False),
        (GYM_SKIP, "תעביר את החדר כושר ל8 בערב", False),
        (GYM_SKIP, "תעביר את אמא ליום שישי", True),
        (GYM_SKIP, "תעביר אותה לשישי", False),
    ],
)
def test_a_move_names_another_thing_only_with_none_of_its_words(
    asked: object, said: str, another: bool
) -> None:
    assert names_another_thing(asked, _pending(asked), said) is another  # type: ignore[arg-type]


def test_only_a_removal_question_is_asked_this() -> None:
    create = step(constraints={"title": "call the plumber", "when": "2024-05-02T17:00:00+03:00"})
    assert names_another_thing(create, _pending(PLUMBER), "move call mom to friday") is False  # type: ignore[arg-type]
    assert names_another_thing(None, _pending(PLUMBER), "move call mom to friday") is False  # type: ignore[arg-type]
