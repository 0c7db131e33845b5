"""`memo.resolution.position`: which words name a place in a list Memo shows, and which place."""

from __future__ import annotations

import pytest

from memo.resolution.position import position


@pytest.mark.parametrize(
    ("words", "place"),
    [
        ("first item", 0),
        ("the first one", 0),
        ("1st", 0),
        ("second item", 1),
        ("the 3rd one", 2),
        ("last item", -1),
        ("the last item on the list", -1),
        ("the second to last item", -2),
        ("one before last", -2),
        ("item 2", 1),
        ("number 3", 2),
        ("#2", 1),
        ("הפריט הראשון", 0),
        ("את השנייה", 1),
        ("התזכורת השנייה", 1),
        ("את הפריט השלישי", 2),
        ("האחרונה", -1),
        ("זה שלפני האחרון", -2),
        ("פריט 3", 2),
        ("מספר 2", 1),
    ],
)
def test_a_place(words: str, place: int) -> None:
    assert position(words) == place


@pytest.mark.parametrize(
    "words",
    ["first aid kit", "milk", "the second hand bookshop", "item 0", "שני", "אחרון", "השקית", "", "  "],
)
def test_not_a_place(words: str) -> None:
    # A title is a title; a bare Hebrew ordinal may be a name ("שני") or Monday.
    assert position(words) is None
