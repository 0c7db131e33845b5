"""A guessed list of things, answered with fewer of them; "how many ...?" answered with the number.

Through the webhook, in English and Hebrew. "Just to check — add toilet paper, dish soap to your
shopping list?" is a guess Memo asks about; the answer can only narrow it: "yes but not the dish
soap", "just the toilet paper", "remove the dish soap" add the rest and only the rest, and a limit
Memo cannot map to the things shown adds nothing. "How many reminders do I have?" and "how many
things are on my list?" were not understood; they now list them, the number first.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")  # a Monday


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


def _guessed(chat: Conversation, request: str, asked: str) -> None:
    assert chat.say(request).startswith(asked)


@pytest.mark.parametrize(
    "answer",
    [
        "yes but not the dish soap",
        "Yes, without the dish soap",
        "just the toilet paper",
        "only toilet paper",
        "remove the dish soap",
        "take out the soap",
    ],
)
def test_a_guess_answered_with_fewer_things_adds_only_those(chat: Conversation, answer: str) -> None:
    _guessed(
        chat, "add toilet paper and dish soap", "Just to check — you want me to add toilet paper, dish soap"
    )
    assert chat.say(answer) == "Added toilet paper to your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• toilet paper"


def test_a_yes_with_a_limit_that_names_nothing_shown_adds_nothing(chat: Conversation) -> None:
    _guessed(chat, "add toilet paper and dish soap", "Just to check")
    again = chat.say("yes but not the bread")
    assert again.startswith("I couldn't tell which of them you mean, so I haven't done anything.")
    assert "Just to check — you want me to add toilet paper, dish soap" in again
    # The question is still open: a plain yes now adds what was asked about.
    assert chat.say("yes") == "Added toilet paper, dish soap to your shopping list."


def test_a_yes_with_a_limit_leaving_nothing_adds_nothing(chat: Conversation) -> None:
    _guessed(chat, "add toilet paper and dish soap", "Just to check")
    assert chat.say("yes but not the toilet paper and not the dish soap") == (
        "That leaves nothing to do, so I've cancelled it. Nothing was changed."
    )
    assert chat.say("what's on my shopping list?") == "Your shopping list is empty."


def test_hebrew_guess_narrowed(chat: Conversation) -> None:
    _guessed(chat, "תוסיף נייר טואלט וסבון כלים", "רק מוודא — להוסיף נייר טואלט, סבון כלים")
    assert chat.say("כן אבל בלי הסבון") == "הוספתי נייר טואלט לרשימת הקניות."
    _guessed(chat, "תוסיף חלב ולחם", "רק מוודא")
    assert chat.say("תוריד את הלחם") == "הוספתי חלב לרשימת הקניות."
    # Both were added at the same moment of the fake clock: their order is not the point.
    shown = chat.say("מה ברשימת הקניות?").split("\n")
    assert shown[0] == "רשימת הקניות:" and sorted(shown[1:]) == ["• חלב", "• נייר טואלט"]


def test_a_plain_yes_still_adds_every_thing(chat: Conversation) -> None:
    _guessed(chat, "add toilet paper and dish soap", "Just to check")
    assert chat.say("yes") == "Added toilet paper, dish soap to your shopping list."


def test_how_many_reminders_and_things_are_counted(chat: Conversation) -> None:
    chat.say("remind me to call mom at 5pm")
    chat.say("remind me to pay rent tomorrow at 9")
    assert chat.say("how many reminders do i have?") == (
        "You have 2 reminders:\n• “call mom” — Mon 2 Mar, 17:00\n• “pay rent” — Tue 3 Mar, 09:00"
    )
    assert chat.say("how many reminders do I have tomorrow?") == (
        "You have 1 reminder on Tue 3 Mar:\n• “pay rent” — Tue 3 Mar, 09:00"
    )
    assert chat.say("how many things are on my shopping list?") == "Your shopping list is empty."
    chat.say("add milk, eggs and bread to my shopping list")
    assert (
        chat.say("how many items on my list?") == "Your shopping list has 3 items:\n• milk\n• eggs\n• bread"
    )


def test_hebrew_how_many(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר בתשע לשלם ארנונה")
    assert chat.say("כמה תזכורות יש לי?").startswith("יש לך תזכורת אחת:\n• „לשלם ארנונה”")
    chat.say("תוסיף חלב, ביצים ולחם לרשימת הקניות")
    assert chat.say("כמה דברים יש ברשימת הקניות?") == "ברשימת הקניות יש 3 פריטים:\n• חלב\n• ביצים\n• לחם"


def test_reminders_this_week_and_next_week_are_only_those(chat: Conversation) -> None:
    chat.say("remind me to call mom at 5pm")
    chat.say("remind me to renew the passport on the 12th at 10am")
    this_week = chat.say("what reminders do I have this week?")
    assert "call mom" in this_week and "passport" not in this_week
    next_week = chat.say("any reminders next week?")
    assert "passport" in next_week and "call mom" not in next_week
    hebrew = chat.say("מה התזכורות שלי השבוע?")
    assert "call mom" in hebrew and "passport" not in hebrew
    assert chat.say("how many reminders do I have this week?").startswith("You have 1 reminder from ")


def test_a_new_request_while_a_guess_is_asked_about_is_its_own(chat: Conversation) -> None:
    # It was "Sorry, I didn't catch that — please answer yes or no.", however often it was sent.
    _guessed(chat, "add eggs", "Just to check — you want me to add eggs to your shopping list?")
    assert chat.say("add 2 cartons of milk").startswith(
        "Just to check — you want me to add 2 cartons of milk to your shopping list?"
    )
    assert chat.say("yes") == "Added 2 cartons of milk to your shopping list."
    # The first guess was dropped, never run on its own.
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• 2 cartons of milk"
    _guessed(chat, "add bread", "Just to check")
    assert chat.say("we're out of milk").startswith("Just to check — you want me to add milk")


def test_hebrew_new_request_while_a_guess_is_asked_about(chat: Conversation) -> None:
    _guessed(chat, "תוסיף ביצים", "רק מוודא")
    assert chat.say("תוסיף 2 קרטוני חלב").startswith("רק מוודא — להוסיף 2 קרטוני חלב")
    assert chat.say("כן") == "הוספתי 2 קרטוני חלב לרשימת הקניות."


@pytest.mark.parametrize(
    ("request_", "thing"),
    [
        ("תוסיף שני קרטונים של חלב", "שני קרטונים של חלב"),
        ("תוסיף שלושה בקבוקים של מים", "שלושה בקבוקים של מים"),
        ("תוסיף שקית קמח", "שקית קמח"),
        ("תוסיף שום", "שום"),
    ],
)
def test_a_hebrew_thing_that_starts_with_shin_is_a_thing_to_add(
    chat: Conversation, request_: str, thing: str
) -> None:
    """ "שני" and "שום" start with ש like "שאני ..." ("that I ..."): a count, an amount or a known thing
    is still a thing to buy, asked about like any guess."""
    assert chat.say(request_).startswith(f"רק מוודא — להוסיף {thing} לרשימת הקניות?")
    assert chat.say("כן") == f"הוספתי {thing} לרשימת הקניות."
    assert chat.say("מה ברשימת הקניות?") == f"רשימת הקניות:\n• {thing}"


def test_add_that_i_need_is_not_a_thing_to_buy(chat: Conversation) -> None:
    assert chat.say("תוסיף שאני צריך לקנות מתנה לדנה").startswith("לא בטוח שהבנתי")
    assert chat.say("מה ברשימת הקניות?") == "רשימת הקניות ריקה."
