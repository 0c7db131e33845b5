"""Corrections right after something was done: a new time, a new title, a note's new value."""

from __future__ import annotations

from memo.domain import LatestAction
from memo.planner.intents import corrections
from tests.unit.planner.conftest import NOW, latest, pin


def test_a_new_time_for_the_reminder_just_set() -> None:
    inp = pin("oops i meant tomorrow", actions=(latest(),))
    assert corrections.correction("oops i meant tomorrow", inp) == "move it tomorrow"


def test_a_new_title_for_the_reminder_just_set() -> None:
    inp = pin("no, call dad instead", actions=(latest(),))
    assert corrections.correction("no, call dad instead", inp) == "change it to call dad"


def test_replacement_title_tells_a_title_from_a_time() -> None:
    assert corrections.replacement_title("i meant call dad", now=NOW) == "call dad"
    assert corrections.replacement_title("i meant tomorrow", now=NOW) is None
    assert corrections.replacement_title("i meant call dad tomorrow", with_time=True) == "call dad tomorrow"


def test_names_a_time() -> None:
    assert corrections.names_a_time("the evening", NOW)
    assert corrections.names_a_time("בשש", NOW)
    assert not corrections.names_a_time("call dad", NOW)


def test_a_note_said_again_replaces_its_value() -> None:
    saved = LatestAction(
        created_at=NOW,
        capability="notes",
        action="save",
        summary="wifi password is sunshine42",
        external_ids={"noteId": "n-1"},
    )
    inp = pin("actually it's sunshine43", actions=(saved,))
    found = corrections.note_said_again("actually it's sunshine43", inp)
    assert found is not None and found.changes == {"text": "sunshine43"}
