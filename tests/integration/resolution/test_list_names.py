"""A clear names the list it clears, or says there is none: "clear the whole grocery list" is the
grocery list, and a clear of a list that holds nothing never answers "Cleared … (0 items)". Signed
payloads through the webhook, in English and Hebrew; the list read back after."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation

GROCERIES = {
    "en": ("add milk, eggs, bread and apples to the grocery list", "what's on my grocery list"),
    "he": ("תוסיף חלב, ביצים, לחם ותפוחים לרשימת הקניות", "מה יש ברשימת הקניות"),
}


@pytest.mark.parametrize(
    ("language", "clear"),
    [
        ("en", "clear the whole grocery list"),
        ("en", "empty my entire grocery list"),
        ("en", "clear the full groceries list"),
        ("he", "תנקה את כל רשימת הקניות"),
    ],
)
def test_how_much_of_a_list_is_not_its_name(chat: Conversation, language: str, clear: str) -> None:
    add, show = GROCERIES[language]
    chat.say(add)
    asked = chat.say(clear)
    assert "4" in asked and ("milk" in asked or "חלב" in asked), asked  # the real list, its real items
    chat.tap(1)  # Approve
    after = chat.say(show)
    assert "milk" not in after and "חלב" not in after, after


@pytest.mark.parametrize(
    ("language", "clear", "told"),
    [
        (
            "en",
            "clear the party list",
            "You have no “party” list. Your lists: grocery. Which one should I clear?",
        ),
        ("he", "תנקה את רשימת המסיבה", "אין לך רשימת „מסיבה”. הרשימות שלך: קניות. איזו לנקות?"),
    ],
)
def test_a_clear_of_a_list_that_does_not_exist_says_so_and_clears_nothing(
    chat: Conversation, language: str, clear: str, told: str
) -> None:
    add, show = GROCERIES[language]
    chat.say(add)
    assert chat.say(clear) == told
    after = chat.say(show)
    assert "milk" in after or "חלב" in after  # nothing was cleared
    assert not chat.choices or "Approve" not in [c.title for c in chat.choices]


def test_a_clear_with_no_list_at_all_is_never_a_success(chat: Conversation) -> None:
    assert (
        chat.say("clear my grocery list")
        == "There's nothing on a “grocery” list, so there's nothing to clear."
    )
