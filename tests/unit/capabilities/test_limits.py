"""The caps of what one person keeps: at the cap a request is taken, past it refused whole, with
words in the person's language that say which cap, that nothing was done, and what to do."""

from __future__ import annotations

import pytest

from memo.capabilities.limits import (
    Asked,
    CapReached,
    Held,
    ListAdd,
    UserCaps,
    reached_by_lists,
    reached_by_reminders,
)

CAPS = UserCaps(reminders=10, repeating_reminders=3, list_add_items=5, list_items=8)


def test_reminders_at_the_cap_are_taken_and_past_it_refused() -> None:
    assert reached_by_reminders(CAPS, Asked(reminders=2), Held(reminders=8)) is None
    reached = reached_by_reminders(CAPS, Asked(reminders=3), Held(reminders=8))
    assert reached == CapReached(cap="reminders", limit=10, held=8)


def test_repeating_reminders_are_capped_apart() -> None:
    assert reached_by_reminders(CAPS, Asked(reminders=1, repeating=1), Held(reminders=2, repeating=2)) is None
    reached = reached_by_reminders(CAPS, Asked(reminders=1, repeating=1), Held(reminders=2, repeating=3))
    assert reached is not None and reached.cap == "repeating_reminders" and reached.held == 3


def test_a_request_that_adds_nothing_passes_whatever_is_held() -> None:
    assert reached_by_reminders(CAPS, Asked(), Held(reminders=99, repeating=99)) is None
    full = ListAdd(name="shopping", held=99, new=0)  # only items already on the list
    assert reached_by_lists(CAPS, Asked(list_items=1, lists=(full,))) is None


def test_the_items_of_one_message_are_capped_before_any_list_is_read() -> None:
    assert reached_by_lists(CAPS, Asked(list_items=5)) is None
    assert reached_by_lists(CAPS, Asked(list_items=6)) == CapReached(cap="list_add_items", limit=5, held=6)


def test_a_list_at_its_length_is_taken_and_past_it_refused() -> None:
    at = ListAdd(name="shopping", held=6, new=2)
    assert reached_by_lists(CAPS, Asked(list_items=2, lists=(at,))) is None
    past = ListAdd(name="shopping", held=7, new=2)
    reached = reached_by_lists(CAPS, Asked(list_items=2, lists=(at, past)))
    assert reached == CapReached(cap="list_items", limit=8, held=7, list_name="shopping")


@pytest.mark.parametrize(
    ("reached", "english", "hebrew"),
    [
        (CapReached(cap="reminders", limit=500, held=500), "500 reminders", "500 תזכורות"),
        (
            CapReached(cap="repeating_reminders", limit=50, held=50),
            "50 repeating reminders",
            "תזכורות חוזרות",
        ),
        (CapReached(cap="list_add_items", limit=50, held=500), "500 items in one message", "500 פריטים"),
        (
            CapReached(cap="list_items", limit=500, held=499, list_name="shopping"),
            "shopping list has 499 items",
            "ברשימת הקניות יש 499",
        ),
    ],
)
def test_every_cap_is_said_in_english_and_hebrew(reached: CapReached, english: str, hebrew: str) -> None:
    en, he = reached.words("en"), reached.words("he")
    assert english in en and "I haven't done anything" in en and str(reached.limit) in en
    assert hebrew in he and "לא עשיתי כלום" in he and str(reached.limit) in he
