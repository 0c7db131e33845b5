"""Deleting reminders: which part of a repeating one the words say."""

from __future__ import annotations

import pytest

from memo.planner.intents import reminder_deletes
from tests.unit.planner.conftest import pin


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("delete the vitamins reminder just this one", "occurrence"),
        ("delete the reminder vitamins, the whole series", "series"),
        ("תמחק את התזכורת ויטמינים רק הפעם הזאת", "occurrence"),
        ("תמחק את התזכורת ויטמינים את כל הסדרה", "series"),
    ],
)
def test_delete_scope_words(message: str, scope: str) -> None:
    found = reminder_deletes.delete(message, pin(message))
    assert found is not None
    assert found.constraints["scope"] == scope
    assert "vitamins" in str(found.constraints["target"]) or "ויטמינים" in str(found.constraints["target"])
