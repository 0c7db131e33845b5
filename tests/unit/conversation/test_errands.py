"""Errands Memo cannot run, over the space of how people ask them (`memo.conversation.errands`)."""

from __future__ import annotations

import itertools

import pytest

from memo.conversation.errands import errand, refusal

_LEADS = ("", "can you ", "could you please ", "please ", "pls ")
_ASKS = (
    ("book me a table", "book a table"),
    ("book us a table for 4", "book a table"),
    ("reserve a room", "reserve a room"),
    ("order pizza", "order pizza"),
    ("order some sushi", "order sushi"),
    ("get me an uber", "get an uber"),
    ("hail a cab", "get a cab"),
    ("book 2 tickets", "book tickets"),
    ("book flights", "book flights"),
    ("order dinner", "order dinner"),
    ("call me an uber", "call an uber"),
    ("call a taxi", "call a taxi"),
    ("order groceries", "order groceries"),
    ("make a reservation", "make a reservation"),
    ("buy me tickets", "buy tickets"),
    ("pay my electricity bill", "pay the electricity bill"),
    ("send flowers", "send flowers"),
)
_TAILS = ("", " at 8 tonight", " for tomorrow at 7pm", "?", " to the airport!")


@pytest.mark.parametrize(("lead", "ask", "tail"), list(itertools.product(_LEADS, _ASKS, _TAILS)))
def test_every_way_of_asking_an_errand_is_one(lead: str, ask: tuple[str, str], tail: str) -> None:
    found = errand(f"{lead}{ask[0]}{tail}")
    assert found is not None and (found.what, found.language) == (ask[1], "en")


@pytest.mark.parametrize(
    ("message", "what"),
    [
        ("תזמין לי מונית למחר ב-7", "להזמין מונית"),
        ("תזמין פיצה", "להזמין פיצה"),
        ("אפשר להזמין לנו שולחן הערב?", "להזמין שולחן"),
        ("תזמיני את הטיסה", "להזמין הטיסה"),
        ("תקנה לי כרטיסים להופעה", "לקנות כרטיסים"),
        ("תשלם את חשבון החשמל", "לשלם חשבון"),
    ],
)
def test_hebrew_errands(message: str, what: str) -> None:
    found = errand(message)
    assert found is not None and (found.what, found.language) == (what, "he")


@pytest.mark.parametrize(
    "message",
    [
        "remind me to book a table tomorrow at 6pm",
        "book club on thursday",
        "add pizza to the shopping list",
        "get milk",
        "order of the day",
        "תזכיר לי להזמין מונית",
        "the table is booked",
        "call mom at 5",
        "pay the cleaner",
        "buy tickets for the concert",
        "get the bill",
        "make dinner",
        "send the report to Dana",
        "תקנה כרטיסים",
        "תקבע פגישה עם דנה",
        "תשלם לגנן",
        "book an appointment with the doctor",
        "תקבע לי תור לרופא",
        "תזמין לי תור למספרה",
    ],
)
def test_what_is_not_an_errand(message: str) -> None:
    assert errand(message) is None


def test_the_refusal_offers_a_reminder_in_the_users_language() -> None:
    found = errand("book me a table")
    assert found is not None
    assert refusal(found, "en").endswith("e.g. “remind me to book a table in an hour”.")
    # A Hebrew speaker who asked in English is answered in Hebrew, without the English words.
    assert "book" not in refusal(found, "he") and "תזכיר לי להזמין" in refusal(found, "he")
