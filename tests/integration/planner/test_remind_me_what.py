""" "Remind me what I have on Monday": a question asked with "remind me", through the webhook in
English and Hebrew. It was a reminder titled "what i have" (and "what time?" was asked); now it is
answered as the question, and nothing is made. With a time it is still a reminder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    "asked",
    [
        "remind me what I have on Wednesday",
        "Can you remind me what I have on wednesday?",
        "remind me of my reminders for wednesday",
        "remind me what my reminders are on Wednesday",
    ],
)
def test_what_i_have_on_a_day_is_that_day_s_reminders(chat: Conversation, asked: str) -> None:
    chat.say("remind me to call the bank on wednesday at 9am")
    chat.say("remind me to water the plants on thursday at 8am")
    everything = chat.say("show my reminders")

    answer = chat.say(asked)

    assert "call the bank" in answer and shown(2, 9).split(", ")[0] in answer, answer
    assert "water the plants" not in answer
    assert chat.say("show my reminders") == everything  # nothing was made


def test_hebrew_what_i_have_on_a_day(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לבנק ביום רביעי ב-9")
    chat.say("תזכיר לי להשקות את העציצים ביום חמישי ב-8")

    answer = chat.say("תזכיר לי מה יש לי ביום רביעי")

    assert "להתקשר לבנק" in answer and "להשקות" not in answer, answer
    assert chat.say("מה התזכורות שלי").count("•") == 2


def test_where_i_parked_and_the_wifi_password_are_found_in_the_notes(chat: Conversation) -> None:
    chat.say("I parked on level 3, spot 42")
    chat.say("note: wifi password Blue2024!")

    assert "level 3, spot 42" in chat.say("remind me where I parked")
    assert "Blue2024!" in chat.say("remind me what the wifi password is")
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_what_i_need_to_buy_is_the_shopping_list(chat: Conversation) -> None:
    chat.say("add milk and eggs to the shopping list")
    answer = chat.say("remind me what I need to buy")
    assert "milk" in answer and "eggs" in answer, answer
    assert chat.say("תזכיר לי מה אני צריך לקנות").count("•") == 2


def test_with_a_time_it_is_still_a_reminder_and_a_change_of_mind_is_heard(chat: Conversation) -> None:
    chat.say("add milk to the shopping list")
    assert chat.say("remind me at 6pm what I need to buy") == (
        f"⏰ Reminder set: “what I need to buy” for {shown(0, 18)}."
    )
    # Then a day before the question: when to be told, so Memo asks the time.
    asked = chat.say("remind me tomorrow what to bring to the meeting")
    assert "what time" in asked.lower(), asked
    assert chat.say("9am").startswith("⏰ Reminder set: “what to bring to the meeting”")
    assert chat.say("remind me what I have tomorrow").count("•") == 1
