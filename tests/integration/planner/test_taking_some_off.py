"""Taking some of a thing off a list, through the webhook on the local stack: "remove one tomato" with
"3 tomatoes" on the list leaves "2 tomatoes" (not the whole line), "undo" gives the 3 back, a count
as large as the line's takes the line off, and "one milk" off "2 liters of milk" changes nothing and
says how to say it; in English and Hebrew."""

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


def _listed(chat: Conversation, ask: str = "what's on my shopping list?") -> list[str]:
    """The list's lines, sorted: lines added by one message share one fake instant."""
    return sorted(line.removeprefix("• ") for line in chat.say(ask).splitlines()[1:])


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("remove one tomato", "2 tomatoes"),
        ("take a tomato off the list", "2 tomatoes"),
        ("remove 2 tomatoes from my shopping list", "1 tomato"),
        ("take two tomatoes off my shopping list", "1 tomato"),
    ],
)
def test_some_of_a_line_taken_off_leaves_the_rest(chat: Conversation, said: str, left: str) -> None:
    chat.say("add 3 tomatoes and bread to my shopping list")
    # Was "Removed 3 tomatoes from your shopping list.": the whole line went.
    assert chat.say(said) == f"Changed “3 tomatoes” to “{left}” on your shopping list."
    assert _listed(chat) == sorted([left, "bread"])
    assert chat.say("undo") == "↩️ Undone: the item on your shopping list is “3 tomatoes” again."
    assert _listed(chat) == ["3 tomatoes", "bread"]


@pytest.mark.parametrize("said", ["remove 3 tomatoes", "remove 5 tomatoes", "remove the tomatoes"])
def test_as_many_as_the_line_has_or_no_count_takes_the_line_off(chat: Conversation, said: str) -> None:
    chat.say("add 3 tomatoes and bread to my shopping list")
    assert chat.say(said) == "Removed 3 tomatoes from your shopping list."
    assert _listed(chat) == ["bread"]


def test_a_count_of_another_kind_changes_nothing_and_says_how(chat: Conversation) -> None:
    chat.say("add 2 liters of milk and bread to my shopping list")
    # Was "Removed 2 liters of milk from your shopping list.": "one milk" took both liters.
    assert chat.say("remove one milk") == (
        "I left “2 liters of milk” as it is: I'm not sure how much of it to take off. "
        "To take it all off, say “remove milk”."
    )
    assert _listed(chat) == sorted(["2 liters of milk", "bread"])
    assert chat.say("remove 1 liter of milk") == (
        "Changed “2 liters of milk” to “1 liter of milk” on your shopping list."
    )
    assert chat.say("remove milk") == "Removed 1 liter of milk from your shopping list."
    assert _listed(chat) == ["bread"]


def test_some_taken_off_one_line_and_another_line_taken_off_at_once(chat: Conversation) -> None:
    chat.say("add 6 eggs, bread and 2 liters of milk to my shopping list")
    assert chat.say("remove 2 eggs and the bread") == (
        "Removed bread from your shopping list. Changed “6 eggs” to “4 eggs” on your shopping list."
    )
    assert chat.say("remove one egg and one milk") == (
        "Changed “4 eggs” to “3 eggs” on your shopping list. I left “2 liters of milk” as it is: "
        "I'm not sure how much of it to take off. To take it all off, say “remove milk”."
    )
    assert _listed(chat) == sorted(["3 eggs", "2 liters of milk"])


def test_hebrew_one_tomato_off_three(chat: Conversation) -> None:
    chat.say("תוסיף לרשימת קניות 3 עגבניות ו5 מלפפונים")
    # Was "לא מצאתי את „עגבניה אחת” ברשימות שלך.": the singular did not name the line.
    assert chat.say("תוריד עגבניה אחת") == "שיניתי את „3 עגבניות” ל„2 עגבניות” ברשימת הקניות."
    assert chat.say("תוריד 4 מלפפונים") == "שיניתי את „5 מלפפונים” ל„1 מלפפון” ברשימת הקניות."
    assert _listed(chat, "מה יש ברשימת הקניות?") == sorted(["2 עגבניות", "1 מלפפון"])
    assert chat.say("תחזיר את זה").startswith("↩️ ")
    assert _listed(chat, "מה יש ברשימת הקניות?") == sorted(["2 עגבניות", "5 מלפפונים"])
    assert chat.say("תוריד את העגבניות") == "הורדתי 2 עגבניות מרשימת הקניות."


def test_hebrew_a_count_of_another_kind_changes_nothing(chat: Conversation) -> None:
    chat.say("תוסיף לרשימת קניות 2 ליטר חלב")
    assert chat.say("תוריד חלב אחד") == (
        "השארתי את „2 ליטר חלב” כמו שהוא: לא בטוח כמה להוריד ממנו. כדי להוריד הכול, אפשר לכתוב „תוריד חלב”."
    )
    assert _listed(chat, "מה יש ברשימת הקניות?") == ["2 ליטר חלב"]
