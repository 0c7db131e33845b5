"""A list started with nothing on it, and things put on the wrong list, through the webhook.

"create a packing list", "add to my todo list", "תפתח רשימה חדשה לטיול": Memo asks what to put on
that list, by name, and adds the answer; "never mind" leaves no list behind. "add milk to the
shopping list" -> "oops i meant the todo list": the things move, asked first, and a "no" moves
nothing. A message that only names the list the things are already on changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


@pytest.mark.parametrize(
    "start",
    [
        "create a packing list",
        "start a new packing list",
        "make me a packing list please",
        "can you make a new list called packing",
        "new list: packing",
        "add to my packing list",
        "put something on the packing list",
    ],
)
def test_a_list_started_in_english_asks_for_its_items_by_name(chat: Conversation, start: str) -> None:
    assert chat.say(start) == "What should I add to your packing list?"
    assert chat.say("sunscreen and a hat") == "Added sunscreen, a hat to your packing list."
    assert chat.say("show my packing list") == "Your packing list:\n• sunscreen\n• a hat"


@pytest.mark.parametrize(
    ("start", "name"),
    [
        ("תפתח רשימה חדשה לטיול", "טיול"),
        ("תיצור לי רשימה בשם טיול", "טיול"),
        ("תפתחי רשימת טיול חדשה", "טיול"),
        ("תוסיף לרשימת הקניות", "קניות"),
        ("תוסיף משהו לרשימה של הקניות", "קניות"),
    ],
)
def test_a_list_started_in_hebrew_asks_for_its_items_by_name(
    chat: Conversation, start: str, name: str
) -> None:
    assert chat.say(start) == f"מה להוסיף לרשימת ה{name}?"
    assert chat.say("מגבת וכובע") == f"הוספתי מגבת, כובע לרשימת ה{name}."


def test_a_started_list_left_unanswered_is_no_list(chat: Conversation) -> None:
    assert chat.say("create a books list") == "What should I add to your books list?"
    assert chat.say("never mind") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my lists") == "You have no lists yet. Try: add milk to my shopping list"


def test_open_my_shopping_list_shows_it_and_starts_nothing(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    assert chat.say("open the shopping list") == "Your shopping list:\n• milk"


def test_things_put_on_the_wrong_list_move_once_approved(chat: Conversation) -> None:
    chat.say("add milk and eggs to my shopping list")
    asked = chat.say("oops i meant the todo list")
    assert asked.startswith(
        "Just to check — you want me to remove milk, eggs from your shopping list, "
        "then add milk, eggs to your todo list?"
    )
    chat.tap(1)
    assert chat.say("show my todo list") == "Your todo list:\n• milk\n• eggs"
    assert chat.say("show my shopping list") == "Your shopping list is empty."


def test_a_move_said_no_to_moves_nothing(chat: Conversation) -> None:
    chat.say("add bread to the shopping list")
    assert "packing list" in chat.say("no, the packing list")
    chat.tap(2)
    assert chat.say("show my shopping list") == "Your shopping list:\n• bread"
    assert "packing" not in chat.say("show my lists")


def test_hebrew_things_moved_to_the_list_meant(chat: Conversation) -> None:
    chat.say("תוסיף חלב לרשימת הקניות")
    assert chat.say("התכוונתי לרשימת המשימות").startswith(
        "רק מוודא — להוריד חלב מרשימת הקניות ואז להוסיף חלב לרשימת המשימות?"
    )
    chat.tap(1)
    assert chat.say("מה יש ברשימת המשימות") == "רשימת המשימות:\n• חלב"


def test_naming_the_list_the_things_are_on_changes_nothing(chat: Conversation) -> None:
    chat.say("add fix the fence to my todo list")
    chat.say("i meant the todo list")
    assert chat.say("show my todo list") == "Your todo list:\n• fix the fence"


@pytest.mark.parametrize(
    "said",
    [
        "sorry, those are for the packing list",
        "wrong list, it's for the packing list",
        "they were for my packing list",
    ],
)
def test_other_ways_to_say_the_things_were_for_another_list(chat: Conversation, said: str) -> None:
    chat.say("add bread to the shopping list")
    assert chat.say(said).startswith(
        "Just to check — you want me to remove bread from your shopping list, then add bread to your packing list?"
    )
    chat.tap(1)
    assert chat.say("show my packing list") == "Your packing list:\n• bread"


def test_hebrew_it_is_for_another_list(chat: Conversation) -> None:
    chat.say("תוסיף עגבניות לרשימת הקניות")
    assert chat.say("לא, זה לרשימת המשימות").startswith(
        "רק מוודא — להוריד עגבניות מרשימת הקניות ואז להוסיף עגבניות לרשימת המשימות?"
    )


def test_the_answer_to_what_to_add_is_never_a_question_or_another_list(chat: Conversation) -> None:
    assert chat.say("create a books list") == "What should I add to your books list?"
    # A question adds nothing: asked again.
    assert chat.say("what time is it") == "Sorry, I didn't catch that.\nWhat should I add to your books list?"
    # Another list started instead: that list's question, and nothing goes on the books list.
    assert chat.say("let's make a grocery list") == "What should I add to your grocery list?"
    assert chat.say("eggs") == "Added eggs to your grocery list."
    assert chat.say("show my lists") == "Your lists:\n• grocery (1 item)"


def test_hebrew_leave_it_said_to_a_woman_cancels_the_list(chat: Conversation) -> None:
    assert chat.say("תפתחי לי רשימה חדשה בשם מתנות") == "מה להוסיף לרשימת המתנות?"
    assert chat.say("תעזבי") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert chat.say("show my lists") == "You have no lists yet. Try: add milk to my shopping list"


def test_a_list_started_with_its_items_holds_them(chat: Conversation) -> None:
    # Was "I'm not sure I understood"; the Hebrew one was taken for a goodbye ("וגרביים").
    assert chat.say("create a packing list with passport, charger and socks") == (
        "Added passport, charger, socks to your packing list."
    )
    assert chat.say("what's on my packing list?") == "Your packing list:\n• passport\n• charger\n• socks"
    assert chat.say("תיצור רשימת טיול עם דרכון, מטען וגרביים") == "הוספתי דרכון, מטען, גרביים לרשימת הטיול."


def test_delete_an_item_just_added_takes_it_off_the_list(chat: Conversation) -> None:
    # Was "I can't do that yet."
    chat.say("add milk, eggs and bread to the shopping list")
    assert chat.say("delete eggs") == "Removed eggs from your shopping list."
    assert chat.say("what's on the shopping list?") == "Your shopping list:\n• milk\n• bread"
