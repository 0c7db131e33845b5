"""Typed undo: the words, and the latest change they undo past any read since."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import LatestAction
from memo.turn.undo import is_undo_said, undo_said
from tests.support.clock import TEST_NOW


def _action(action: str, trace: str, minutes_ago: int, capability: str = "reminders") -> LatestAction:
    return LatestAction(
        created_at=TEST_NOW - timedelta(minutes=minutes_ago),
        capability=capability,
        action=action,
        summary="x",
        operation_id=f"{trace}:s1",
    )


@pytest.mark.parametrize(
    "text",
    [
        "undo",
        "bring it back",
        "אופס תחזיר",
        "תחזיר את הכל",
        "תחזיר",
        "תחזירי הכל בבקשה",
        "אופס, תחזיר את הכול",
    ],
)
def test_undo_words(text: str) -> None:
    assert is_undo_said(text)


@pytest.mark.parametrize(
    "text", ["תחזיר לי תשובה", "remind me to bring it back", "show my reminders", "", "תחזיר את הספר לספרייה"]
)
def test_not_undo_words(text: str) -> None:
    assert not is_undo_said(text)


@pytest.mark.parametrize(
    ("read", "capability"),
    [("list", "reminders"), ("show", "lists"), ("show_all", "lists"), ("search", "notes")],
)
def test_a_read_since_the_delete_is_passed_over(read: str, capability: str) -> None:
    latest = [_action(read, "t-read", 1, capability), _action("delete", "t-delete", 2)]
    request = undo_said(latest)
    assert request is not None and request.undo_key == "t-delete"


def test_a_change_since_the_delete_is_not_passed_over() -> None:
    latest = [_action("create", "t-new", 1), _action("delete", "t-delete", 2)]
    assert undo_said(latest) is None
