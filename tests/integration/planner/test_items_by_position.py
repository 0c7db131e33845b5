"""An item named by its place in what Memo shows, through the webhook: "remove the first item",
"take the last item off my shopping list", "item 2", "delete the second reminder", "תוריד את
הפריט השני", "את האחרון". Before, "the first item" was looked up as a thing called “first item”
and not found; now it is the item at that place, in the order Memo lists them (a list as its items
were added, reminders soonest first). A place past the end is said, and nothing is removed; a
list left unnamed while several have items is asked about, never guessed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


def test_the_first_and_the_last_item_of_the_one_list(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    assert chat.say("remove the first item") == "Removed milk from your shopping list."
    assert chat.say("take the last item off my shopping list") == "Removed bread from your shopping list."
    assert chat.say("show my shopping list") == "Your shopping list:\n• eggs"


def test_a_numbered_item_and_a_place_past_the_end(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    assert chat.say("remove item 2") == "Removed eggs from your shopping list."
    assert chat.say("remove the 5th item") == "Your shopping list has only 2 items."
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk\n• bread"


def test_with_several_lists_the_list_is_asked_about(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    chat.say("add call the plumber to my todo list")
    reply = chat.say("remove the first item")
    assert reply.startswith("Which list do you mean? You have: shopping, todo.")
    assert (
        chat.say("remove the first item from my todo list") == "Removed call the plumber from your todo list."
    )
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk"


def test_a_thing_whose_name_starts_like_a_place_is_a_thing(chat: Conversation) -> None:
    chat.say("add a first aid kit and batteries to my shopping list")
    assert chat.say("remove the first aid kit") == "Removed first aid kit from your shopping list."


def test_the_second_reminder_is_the_second_shown_and_is_approved_first(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to pay rent on friday at 9am")
    assert chat.say("show my reminders") == (
        "Your reminders:\n• “call mom” — Tue 3 Mar, 17:00\n• “pay rent” — Fri 6 Mar, 09:00"
    )
    question = chat.say("delete the second reminder")
    assert "“pay rent”" in question and "call mom" not in question
    assert chat.say("yes") == "Deleted the reminder “pay rent”."
    assert chat.say("cancel the third reminder") == "You have only 1 upcoming reminder."


def test_in_hebrew(chat: Conversation) -> None:
    chat.say("תוסיף חלב, ביצים ולחם לרשימת הקניות")
    assert chat.say("תוריד את הפריט השני") == "הורדתי ביצים מרשימת הקניות."
    assert chat.say("תוריד את האחרון מרשימת הקניות") == "הורדתי לחם מרשימת הקניות."
    assert chat.say("תוריד את פריט 4") == "ברשימת הקניות יש רק פריט אחד."
    assert chat.say("מה ברשימת הקניות?") == "רשימת הקניות:\n• חלב"


def test_the_last_one_right_after_adding_several_is_the_last_added(chat: Conversation) -> None:
    # "The last one" names the last of what the request just added; "it" still asks which.
    chat.say("add milk, eggs and bread to my shopping list")
    assert chat.say("remove the last one") == "Removed bread from your shopping list."
    chat.say("add apples and pears to my shopping list")
    assert chat.say("remove it").startswith("Which ones do you mean?")


def test_scratch_the_last_one_in_a_lists_own_words(chat: Conversation) -> None:
    chat.say("add apples, pears and plums to my shopping list")
    assert chat.say("scratch the last one") == "Removed plums from your shopping list."
    chat.say("add flour and sugar to my shopping list")
    assert chat.say("cross off the last one") == "Removed sugar from your shopping list."


def test_in_hebrew_the_last_one_and_take_it_off(chat: Conversation) -> None:
    chat.say("תוסיף חלב, ביצים ולחם לרשימת הקניות")
    assert chat.say("תוריד את האחרון") == "הורדתי לחם מרשימת הקניות."
    chat.say("תוסיף תפוחים לרשימת הקניות")
    assert chat.say("תוריד את זה") == "הורדתי תפוחים מרשימת הקניות."
    assert chat.say("מה ברשימת הקניות?") == "רשימת הקניות:\n• חלב\n• ביצים"


THINGS = ["milk", "eggs", "tea", "bread", "rice"]
SAID = [
    "remove {a} and {b} from the shopping list",
    "remove items {a} and {b} from my shopping list",
    "take #{a} and #{b} off the shopping list",
    "remove numbers {a}, {b} from the shopping list",
]


@pytest.mark.parametrize("said", SAID)
@pytest.mark.parametrize(("a", "b"), [(1, 2), (2, 5), (4, 1), (3, 3)])
def test_several_items_by_their_numbers(chat: Conversation, said: str, a: int, b: int) -> None:
    # "remove 2 and 3 from the shopping list" looked for items called “2” and “3” and found none.
    chat.say("add milk, eggs, tea, bread and rice to my shopping list")
    gone = [THINGS[n - 1] for n in sorted({a, b})]
    assert chat.say(said.format(a=a, b=b)) == f"Removed {', '.join(gone)} from your shopping list."
    left = [t for t in THINGS if t not in gone]
    assert chat.say("show my shopping list") == "Your shopping list:\n" + "\n".join(f"• {t}" for t in left)


def test_a_number_past_the_end_removes_none_of_them(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    assert chat.say("remove 2 and 7 from the shopping list") == "Your shopping list has only 3 items."
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk\n• eggs\n• bread"


def test_several_numbers_in_hebrew(chat: Conversation) -> None:
    chat.say("תוסיף חלב, ביצים ולחם לרשימת הקניות")
    assert chat.say("תמחק את פריטים 1 ו-3 מרשימת הקניות") == "הורדתי חלב, לחם מרשימת הקניות."
    assert chat.say("מה ברשימת הקניות?") == "רשימת הקניות:\n• ביצים"
