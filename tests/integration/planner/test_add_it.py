""" "Add it to my shopping list": never the word "it" itself, through the webhook.

Memo added a list item called “it” (and “זה”, “that”). Now "it" is the thing the person's previous
message said they need to buy, asked first; with nothing said before, what to add is asked, and the
answer is added. "I need to buy X" is itself offered as a shopping-list item (it was "not
understood" in English, while the Hebrew was already offered).
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


def test_add_it_with_nothing_before_asks_what_to_add(chat: Conversation) -> None:
    assert chat.say("add it to my shopping list") == "What should I add to your shopping list?"
    assert chat.say("milk and eggs") == "Added milk, eggs to your shopping list."
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk\n• eggs"


def test_add_that_after_saying_what_is_needed_is_that_thing(chat: Conversation) -> None:
    # Not understood at first; "add that to my todo list" names the thing of that message.
    assert chat.say("i must buy a new charger").startswith("I'm not sure I understood")
    question = chat.say("add that to my todo list")
    assert question.startswith("Just to check — you want me to add ") and "new charger" in question
    assert "“that”" not in question and " that to" not in question
    assert chat.say("yes").endswith("new charger to your todo list.")


def test_i_need_to_buy_is_offered_for_the_shopping_list(chat: Conversation) -> None:
    question = chat.say("I need to buy a gift for Noa")
    assert question.startswith("Just to check — you want me to add gift for Noa to your shopping list?")
    assert chat.say("yes") == "Added gift for Noa to your shopping list."
    # With a time it is something to do then, not a thing for the list.
    assert "reminder" in chat.say("i have to buy tickets for the show at 8")


def test_in_hebrew(chat: Conversation) -> None:
    assert chat.say("תוסיף את זה לרשימת הקניות") == "מה להוסיף לרשימת הקניות?"
    assert chat.say("חלב") == "הוספתי חלב לרשימת הקניות."
    assert chat.say("מה ברשימת הקניות?") == "רשימת הקניות:\n• חלב"


def test_the_answer_to_what_to_add_said_the_way_people_say_it(chat: Conversation) -> None:
    # "put it on the list" answered the question with the same non-answer: it was added as an item.
    assert chat.say("put that on my shopping list") == "What should I add to your shopping list?"
    assert chat.say("put it on the list").startswith("Sorry, I didn't catch that.")
    assert chat.say("add bread to it") == "Added bread to your shopping list."
    assert chat.say("תכניס את זה לרשימת הקניות") == "מה להוסיף לרשימת הקניות?"
    assert chat.say("תוסיף חלב לרשימה") == "הוספתי חלב לרשימת הקניות."
    listed = chat.say("show my shopping list").splitlines()
    assert listed[0] == "Your shopping list:" and sorted(listed[1:]) == ["• bread", "• חלב"]  # one instant


@pytest.mark.parametrize(
    ("request_", "verb", "thing", "added"),
    [
        ("add to my shopping list", "add", "milk", "Added milk to your shopping list."),
        ("put something on my shopping list", "add please", "eggs", "Added eggs to your shopping list."),
        ("תוסיף לרשימת הקניות", "תוסיף", "חלב", "הוספתי חלב לרשימת הקניות."),
        ("תוסיף לרשימת הקניות", "להוסיף", "לחם", "הוספתי לחם לרשימת הקניות."),
        ("תכניס משהו לרשימת הקניות", "תוסיף בבקשה", "ביצים", "הוספתי ביצים לרשימת הקניות."),
    ],
)
def test_the_verb_again_is_no_item(
    chat: Conversation, request_: str, verb: str, thing: str, added: str
) -> None:
    # "תוסיף" answering "מה להוסיף?" was added to the list as an item called „תוסיף”.
    question = chat.say(request_)
    again = chat.say(verb)
    assert again.endswith(question) and again != question  # not understood, asked again
    assert chat.say(thing) == added
    shown = chat.say("מה ברשימת הקניות?" if thing[0] > "z" else "what's on my shopping list?")
    assert shown.splitlines()[1:] == [f"• {thing}"]


def test_one_thing_with_an_and_in_its_name_is_one_item(chat: Conversation) -> None:
    said = chat.say("add mac and cheese, eggs and half & half to my shopping list")
    assert said == "Added mac and cheese, eggs, half & half to your shopping list."
    assert chat.say("add salt and pepper to my shopping list") == "Added salt, pepper to your shopping list."
