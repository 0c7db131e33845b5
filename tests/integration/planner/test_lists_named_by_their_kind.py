"""A list asked about by what it holds ("what's in my groceries?", "show me my shopping"), and a list
someone wants renamed, through the webhook. The question was not understood; the rename was taken
for a reminder's and answered "You don't have any upcoming reminders." Now the list is shown, and a
rename is answered honestly (lists keep their names), in English and Hebrew, changing nothing."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation


@pytest.mark.parametrize(
    ("ask", "head"),
    [
        ("what's in my groceries?", "Your groceries list:"),
        ("show me my shopping", "Your shopping list:"),
        ("whats on our groceries", "Your groceries list:"),
    ],
)
def test_a_list_everybody_keeps_is_shown_without_the_word_list(
    chat: Conversation, ask: str, head: str
) -> None:
    chat.say("add bananas and oat milk to my groceries")
    assert chat.say(ask) == f"{head}\n• bananas\n• oat milk"


@pytest.mark.parametrize(
    ("ask", "start"),
    [
        ("rename the groceries list to food", "I can't rename a list"),
        ("Rename my groceries list as weekly shop", "I can't rename a list"),
        ("change the name of the groceries list to food", "I can't rename a list"),
        ("תשנה את השם של רשימת הקניות לאוכל", "אין לי אפשרות לשנות שם של רשימה"),
    ],
)
def test_a_list_rename_is_answered_and_changes_nothing(chat: Conversation, ask: str, start: str) -> None:
    chat.say("add bananas to my groceries")
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say(ask).startswith(start)
    assert chat.say("what's on my groceries list?") == "Your groceries list:\n• bananas"
    assert "“call mom”" in chat.say("show my reminders")


def test_a_reminder_is_still_renamed(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("rename call mom to call dad").startswith("Updated the reminder “call dad”")


@pytest.mark.parametrize(
    "asked",
    [
        "tell me what's on my shopping list please",
        "can you tell me what's on my shopping list?",
        "could you please tell me what is on the shopping list",
    ],
)
def test_tell_me_what_is_on_a_list_shows_it(chat: Conversation, asked: str) -> None:
    # "tell me what's on my shopping list please" was not understood.
    chat.say("add milk and eggs to my shopping list")
    assert chat.say(asked) == "Your shopping list:\n• milk\n• eggs"
