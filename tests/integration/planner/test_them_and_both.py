""" "Delete both" / "delete them" / "תמחק את שניהם" right after one message made two things: both
are meant, shown in one approval; "it" is still only the last one; and "them" after a reminder and
a list item (two kinds) is asked about, never guessed. Through the webhook, on the fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def test_delete_both_after_two_reminders_in_one_message(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 9am")
    chat.say("remind me to call dad tomorrow at 5pm and remind me to call grandma tomorrow at 6pm")
    question = chat.say("delete both")
    assert question.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "call dad" in question and "call grandma" in question and "call mom" not in question
    assert chat.say("yes") == "Deleted 2 reminders: “call dad”, “call grandma”."
    assert chat.say("show my reminders") == "Your reminders:\n• “call mom” — Tue 3 Mar, 09:00"


def test_hebrew_delete_both_then_it_is_only_the_last(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר ב-5 להתקשר לאבא ותזכיר לי מחר ב-6 להתקשר לסבתא")
    question = chat.say("תמחק את שניהם")
    assert "להתקשר לאבא" in question and "להתקשר לסבתא" in question
    assert chat.say("לא").startswith("בסדר, ביטלתי")
    single = chat.say("תמחק את זה")
    assert "להתקשר לסבתא" in single and "להתקשר לאבא" not in single


def test_them_after_two_kinds_is_asked_about(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm and add milk to my shopping list")
    assert chat.say("delete them").startswith("I'm not sure I understood")
    assert "call mom" in chat.say("show my reminders")
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"


def test_delete_it_after_adding_to_a_list_takes_those_items_off(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    chat.say("add eggs and bread to my shopping list")
    assert chat.say("delete them") == "Removed eggs, bread from your shopping list."
    chat.say("תוסיף חמאה לרשימת הקניות")
    assert chat.say("תמחק את זה") == "הורדתי חמאה מרשימת הקניות."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"


def test_delete_it_after_adding_two_items_asks_which(chat: Conversation) -> None:
    chat.say("add milk and eggs to my shopping list")
    # "it" is one thing: which one is asked, nothing comes off on a guess.
    question = chat.say("delete it")
    assert question.startswith("Which ones do you mean?") and "milk" in question and "eggs" in question
    assert chat.say("the eggs") == "Removed eggs from your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"
    chat.say("add bread and butter to my shopping list")
    chat.say("delete that")
    assert chat.say("both") == "Removed bread, butter from your shopping list."


def test_hebrew_delete_it_after_adding_two_items_asks_which(chat: Conversation) -> None:
    chat.say("תוסיף חלב וביצים לרשימת קניות")
    question = chat.say("תמחק את זה")
    assert question.startswith("לאילו מהם התכוונת?") and "חלב" in question and "ביצים" in question
    # A new request mid-question is its own request; the question is not answered by it.
    assert chat.say("מה יש ברשימת קניות?") == "רשימת הקניות:\n• חלב\n• ביצים"


def test_delete_both_after_two_messages_is_those_two(chat: Conversation) -> None:
    # It was the last one only: "I'm about to delete 1 reminder: “pay rent”".
    chat.say("remind me to call mom tomorrow at 9am")
    chat.say("remind me to call dad tomorrow at 5pm")
    chat.say("remind me to pay rent on friday at 10am")
    question = chat.say("delete both")
    assert question.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "call dad" in question and "pay rent" in question and "call mom" not in question
    assert chat.say("yes") == "Deleted 2 reminders: “call dad”, “pay rent”."
    assert chat.say("show my reminders") == "Your reminders:\n• “call mom” — Tue 3 Mar, 09:00"


def test_hebrew_both_after_two_messages_and_both_off_a_list(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר ב-5 להתקשר לאבא")
    chat.say("תזכיר לי מחר ב-6 להתקשר לסבתא")
    question = chat.say("תמחק את שתיהן")
    assert question.startswith("רגע לפני: אני עומד למחוק 2 תזכורות:"), question
    chat.say("לא")
    chat.say("add milk to my shopping list")
    chat.say("add eggs to my shopping list")
    removed = chat.say("remove both")
    assert removed in (
        "Removed milk, eggs from your shopping list.",
        "Removed eggs, milk from your shopping list.",  # added at the same instant of the fake clock
    )
    assert chat.say("what's on my shopping list?") == "Your shopping list is empty."


def test_both_when_one_of_the_two_is_gone_does_nothing_and_says_so(chat: Conversation) -> None:
    chat.say("add apples to my shopping list")
    chat.say("add bread to my shopping list")
    chat.say("remove the bread")
    # It removed the apples alone and said nothing of the bread.
    assert chat.say("remove both") == (
        "Only “apples” is still there; the other one is gone already, so I haven't done anything."
        " Say its name to go on."
    )
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• apples"
    chat.say("תוסיף חלב לרשימת הקניות")
    chat.say("תוסיף ביצים לרשימת הקניות")
    chat.say("תוריד את הביצים")
    assert chat.say("תוריד את שניהם").startswith("רק „חלב” עוד נשאר; השני כבר לא קיים, אז לא עשיתי כלום.")


@pytest.mark.parametrize(
    ("setup", "delete", "yes", "again", "said", "undo", "back"),
    [
        (
            "remind me to call mom tomorrow at 5pm",
            "delete it",
            "yes",
            "cancel it",
            "That's already deleted. To bring it back, say “undo”.",
            "undo",
            "call mom",
        ),
        (
            "תזכיר לי ביום שישי ב-12 לקנות פרחים",
            "תמחק את הפרחים",
            "כן",
            "תבטל את זה",
            "זה כבר נמחק. כדי להחזיר את זה, כתבו „בטל את המחיקה”.",
            "בטל את המחיקה",
            "לקנות פרחים",
        ),
    ],
    ids=["en", "he"],
)
def test_it_right_after_a_delete_is_already_gone_and_undo_is_said(
    chat: Conversation, setup: str, delete: str, yes: str, again: str, said: str, undo: str, back: str
) -> None:
    # It answered "I couldn't find that one anymore." / "לא מצאתי את זה יותר.".
    chat.say(setup)
    chat.say(delete)
    chat.say(yes)
    assert chat.say(again) == said
    assert back in chat.say(undo)
