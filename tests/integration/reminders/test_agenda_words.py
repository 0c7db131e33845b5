"""Asking what is coming the way people ask it: "what do I have this week?", "what's coming up?",
"מה יש לי השבוע", through the webhook on the fake clock. A day or a week is said in the answer, and
an empty day says which day is empty rather than "no upcoming reminders"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")  # a Monday


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def test_this_week_lists_the_days_left_of_it_and_next_week_the_rest(chat: Conversation) -> None:
    # This week (a Monday in Israel) ends on Saturday: Sunday's reminder was in this week's listing
    # and in next week's too.
    assert chat.say("what do I have this week?") == "You have no reminders from Mon 2 Mar to Sat 7 Mar."
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to pay the bills on sunday at 9am")
    chat.say("remind me to renew the passport on march 20 at 9am")
    assert (
        chat.say("anything this week?")
        == "Your reminders from Mon 2 Mar to Sat 7 Mar:\n• “call mom” — Tue 3 Mar, 17:00"
    )
    assert chat.say("what do I have next week?") == (
        "Your reminders from Sun 8 Mar to Sat 14 Mar:\n• “pay the bills” — Sun 8 Mar, 09:00"
    )
    assert chat.say("what do I have in the next 7 days?") == (
        "Your reminders from Mon 2 Mar to Sun 8 Mar:\n"
        "• “call mom” — Tue 3 Mar, 17:00\n"
        "• “pay the bills” — Sun 8 Mar, 09:00"
    )
    everything = chat.say("what's coming up?")
    assert "renew the passport" in everything and "call mom" in everything


def test_hebrew_this_week_and_a_named_day(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר ב-5 אחה״צ להתקשר לאמא")
    week = chat.say("מה יש לי השבוע?")
    assert week.startswith("התזכורות שלך מיום ב׳ 2.3 עד שבת 7.3:") and "להתקשר לאמא" in week
    assert chat.say("מה יש לי היום?") == "אין לך תזכורות ביום ב׳ 2.3."
    assert chat.say("what do I have tomorrow?").startswith("Your reminders on Tue 3 Mar:\n• “להתקשר לאמא”")


def test_my_list_for_a_day_is_that_days_reminders_not_a_list_named_after_it(chat: Conversation) -> None:
    # It was "Your monday list is empty.": the day was taken for a list's name.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("add milk to my shopping list")
    assert (
        chat.say("what's on my list for tomorrow?")
        == "Your reminders on Tue 3 Mar:\n• “call mom” — Tue 3 Mar, 17:00"
    )
    assert chat.say("what's on my list for friday?") == "You have no reminders on Fri 6 Mar."
    assert chat.say("what's on the list for the party?") == "Your party list is empty."


def test_in_hebrew_my_list_for_tomorrow(chat: Conversation) -> None:
    # It was not understood at all.
    chat.say("תזכיר לי מחר ב-5 אחה״צ להתקשר לאמא")
    reply = chat.say("מה יש לי ברשימה למחר?")
    assert reply.startswith("התזכורות שלך ב") and "להתקשר לאמא" in reply


def test_what_do_i_have_without_a_day_lists_everything_to_come(chat: Conversation) -> None:
    # Was "I'm not sure I understood"; "what's up?" stays a greeting.
    chat.say("remind me tomorrow at 5pm to call mom")
    chat.say("remind me on friday at 9 to pay rent")
    listed = chat.say("what do I have?")
    assert listed.startswith("Your reminders:") and "call mom" in listed and "pay rent" in listed
    assert "call mom" in chat.say("מה יש לי?")
    assert "call mom" not in chat.say("what's up?")


@pytest.mark.parametrize(
    "question", ["what do I have this weekend?", "what's planned for the weekend", "מה יש לי בסוף השבוע?"]
)
def test_the_weekend_is_friday_and_saturday_in_israel(chat: Conversation, question: str) -> None:
    chat.say("remind me to buy flowers on friday at 11am")
    chat.say("remind me to go hiking on saturday at 7am")
    chat.say("remind me to pay the bills on sunday at 9am")
    weekend = chat.say(question)
    assert "buy flowers" in weekend and "go hiking" in weekend and "pay the bills" not in weekend, weekend


def test_what_did_i_ask_you_to_remind_me_about_on_a_day_lists_that_day(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to buy flowers on friday at 11am")
    friday = chat.say("what did I ask you to remind me about on friday?")
    assert friday == "Your reminders on Fri 6 Mar:\n• “buy flowers” — Fri 6 Mar, 11:00"
    assert chat.say("what reminders did I set for tomorrow?").startswith(
        "Your reminders on Tue 3 Mar:\n• “call mom”"
    )
    assert chat.say("what am I doing tomorrow?").startswith("Your reminders on Tue 3 Mar:\n• “call mom”")


def test_the_next_reminder_is_the_one_coming_first(chat: Conversation) -> None:
    assert chat.say("what's my next reminder?") == "You have no upcoming reminders."
    chat.say("remind me to pay the bills on sunday at 9am")
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("what's my next reminder?") == "Your next reminder: “call mom” — Tue 3 Mar, 17:00"
    assert chat.say("מה התזכורת הבאה?").startswith("התזכורת הבאה שלך: „call mom”")
    both = chat.say("my next 2 reminders")
    assert (
        both == "Your next reminders:\n• “call mom” — Tue 3 Mar, 17:00\n• “pay the bills” — Sun 8 Mar, 09:00"
    )
