"""Things typed without commas ("milk eggs bread"): split only when the words read as known things,
a pair that makes one thing ("apple juice") kept together."""

from __future__ import annotations

import pytest

from memo.planner.groceries import COMPOUNDS, run_together


@pytest.mark.parametrize(
    ("item", "things"),
    [
        ("milk eggs", ["milk", "eggs"]),
        ("soap shampoo toothpaste", ["soap", "shampoo", "toothpaste"]),
        ("Milk Eggs", ["Milk", "Eggs"]),
        ("חלב ביצים", ["חלב", "ביצים"]),
        ("החלב הביצים", ["החלב", "הביצים"]),
        ("חלב סויה שמן זית", ["חלב סויה", "שמן זית"]),
        ("apple juice bread", ["apple juice", "bread"]),
    ],
)
def test_known_words_typed_together_are_apart(item: str, things: list[str]) -> None:
    assert run_together(item) == things


@pytest.mark.parametrize(
    "item",
    ["milk", "peanut butter", "apple juice", "chicken soup", "olive oil", "call the plumber", "שמן זית",
     "milk and honey bread", "גבינה לבנה", "new phone charger"],
)  # fmt: skip
def test_one_thing_stays_one(item: str) -> None:
    assert run_together(item) is None


def test_every_compound_is_two_words() -> None:
    assert all(len(c.split()) == 2 for c in COMPOUNDS)
