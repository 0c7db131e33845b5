"""Deletes that name no kind of thing: a reminder by its time, or what was just done."""

from __future__ import annotations

from memo.planner.intents import nounless_deletes
from tests.unit.planner.conftest import latest, pin


def test_stop_the_one_at_a_time() -> None:
    found = nounless_deletes.stop_by_time("stop the 8pm one", pin("x"))
    assert found is not None
    assert found.constraints == {"target": "8pm", "scope": "series"}
    assert nounless_deletes.stop_by_time("stop the music", pin("x")) is None


def test_delete_by_time_or_by_what_was_just_done() -> None:
    by_time = nounless_deletes.noun_less_delete("cancel the 8pm one", pin("x"))
    assert by_time is not None and by_time.pattern == "reminders:delete_by_time"
    just_done = nounless_deletes.noun_less_delete("delete call mom", pin("x", actions=(latest(),)))
    assert just_done is not None and just_done.pattern == "delete:latest_match"
    guess = nounless_deletes.noun_less_delete("delete the dentist", pin("x"))
    assert guess is not None and guess.pattern == "delete:guess"
