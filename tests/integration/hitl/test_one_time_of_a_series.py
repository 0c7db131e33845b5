"""One time of a repeating reminder said to the delete of its whole series, through the webhook on
the local stack (a Monday at 10:00, Jerusalem): "only tomorrow" to "delete “take vitamins” every day
— the whole series" deleted the series. A day names one of its times, never the series: nothing is
deleted and the question is asked again, saying how to skip that time; "skip tomorrow" then is that
skip, asked as any skip, and the series goes on."""

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


ONE_TIME = {
    "en": "That's one time of a repeating reminder, and this deletes the whole series, so I haven't done "
    'anything. To skip just that time, say e.g. "skip tomorrow".',
    "he": "זו פעם אחת של תזכורת חוזרת, והמחיקה הזאת מוחקת את כל הסדרה, אז לא עשיתי כלום. "
    "כדי לדלג רק על הפעם ההיא, אפשר לכתוב למשל „תדלג על מחר”.",
}


@pytest.mark.parametrize(
    ("lang", "delete", "only", "skip", "yes"),
    [
        ("en", "stop the vitamins reminder", "only tomorrow", "skip tomorrow", "yes"),
        ("en", "delete all my reminders", "just tomorrow's", "skip it tomorrow", "approve"),
        ("he", "תמחק את כל התזכורות", "רק מחר", "תדלג על מחר", "כן"),
    ],
)
def test_a_day_to_a_series_delete_deletes_nothing_and_a_skip_then_skips_that_time(
    chat: Conversation, lang: str, delete: str, only: str, skip: str, yes: str
) -> None:
    set_ = (
        "תזכיר לי כל יום ב-8 בבוקר לקחת ויטמינים"
        if lang == "he"
        else "remind me every day at 8am to take vitamins"
    )
    assert chat.say(set_).startswith("🔁")
    asked = chat.say(delete)
    assert "every day" in asked or "כל יום" in asked, asked
    again = chat.say(only)
    assert again.startswith(ONE_TIME[lang]) and asked.split("\n")[0] in again  # asked again
    skipping = chat.say(skip)
    assert skipping.startswith(("Before I go ahead: I'm about to skip", "רגע לפני")), skipping
    assert shown(1, 8, 0, lang) in skipping
    done = chat.say(yes)
    assert done.startswith("✅") and shown(2, 8, 0, lang) in done, done  # the next one: Wednesday
    listed = chat.say("מה התזכורות שלי?" if lang == "he" else "what are my reminders?")
    assert ("ויטמינים" in listed or "take vitamins" in listed) and shown(2, 8, 0, lang) in listed, listed


def test_a_day_keeps_a_series_and_names_the_one_time_reminders_of_that_day(chat: Conversation) -> None:
    chat.say("remind me every day at 8am to take vitamins")
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to pay the bank on wednesday at 9am")
    chat.say("delete all my reminders")
    # "only tomorrow's": the one-time reminder of that day, never the series (one of its times is).
    assert chat.say("only tomorrow's") == "Deleted 1 reminder: “call mom”."
    chat.say("delete all my reminders")
    # What to keep: the series has a time tomorrow, so "except tomorrow's" keeps it too.
    assert chat.say("all except tomorrow's") == "Deleted 1 reminder: “pay the bank”."
    listed = chat.say("what are my reminders?")
    assert "take vitamins" in listed and "call mom" not in listed and "pay the bank" not in listed


@pytest.mark.parametrize(
    ("lang", "set_", "delete", "only"),
    [
        ("en", "remind me every day at 9am to stretch", "delete the stretch reminder", "only tomorrow"),
        ("he", "תזכיר לי כל יום ב-8 לקחת ויטמינים", "תמחק את התזכורת של הויטמינים", "רק מחר"),
    ],
)
def test_this_one_or_the_whole_series_answered_by_its_day(
    chat: Conversation, lang: str, set_: str, delete: str, only: str
) -> None:
    # "רק מחר" to "this one or the whole series?" was "please reply with a number".
    chat.say(set_)
    assert chat.say(delete).startswith(("Which one do you mean?", "לאיזה מהם התכוונת?"))
    assert chat.say(only).startswith("✅")
    listed = chat.say("what are my reminders?")
    assert "every day" in listed and shown(2, 9 if lang == "en" else 8, 0, "en") in listed, listed
