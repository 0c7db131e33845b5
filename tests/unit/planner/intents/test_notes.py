"""Note commands: save, search, recall, change and delete."""

from __future__ import annotations

from memo.planner.intents import notes
from tests.unit.planner.conftest import pin


def test_save_a_note() -> None:
    found = notes.save("save a note: wifi password is sunshine42", pin("x"))
    assert found is not None and (found.capability, found.action) == ("notes", "save")


def test_search_the_notes() -> None:
    found = notes.search("search my notes for wifi", pin("x"))
    assert found is not None and found.action == "search"


def test_delete_a_note_by_name() -> None:
    found = notes.delete_named("delete the wifi note", pin("x"))
    assert found is not None and found.action == "delete" and found.risk == "high"
