"""A time corrected in a conversation, through the webhook on the fake clock (a Monday at 10:00 in
Jerusalem), in English and Hebrew: an hour said alone to a "Just to check" keeps its half of the day
("no, at 8", "yes but at 8", "כן אבל בשמונה" for 19:45 are 20:00), and a day said instead of another
("oops, thursday not wednesday") moves the reminder just set."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown


def _reminders(chat: Conversation, language: str) -> list[str]:
    shown_list = chat.say("show my reminders" if language == "en" else "תראה לי את התזכורות")
    return [line for line in shown_list.splitlines() if line.strip().startswith("•")]


@pytest.mark.parametrize(
    ("request_words", "correction", "hour", "language"),
    [
        ("remind me about the team meeting next tuesday at 7:45pm", "no, at 8", 20, "en"),
        ("remind me about the team meeting next tuesday at 7:45pm", "no, 8:30", 20, "en"),
        ("remind me about the team meeting next tuesday at 7:45pm", "no, at 8am", 8, "en"),
        ("remind me about the team meeting next tuesday at 7:45pm", "no, at 21:00", 21, "en"),
        ("remind me to go for a run next tuesday at 7:15am", "no, at 8", 8, "en"),
        ("תזכיר לי ישיבת צוות ביום שלישי הבא ב-19:45", "לא, בשמונה", 20, "he"),
        ("תזכיר לי ישיבת צוות ביום שלישי הבא ב-19:45", "בעצם ב-9", 21, "he"),
        ("תזכיר לי לרוץ ביום שלישי הבא ב-7:15", "לא, בשמונה", 8, "he"),
        # "yes but …": the guess is right but for its time ("Sorry, I didn't catch that" before)
        ("remind me about the team meeting next tuesday at 7:45pm", "yes but at 8", 20, "en"),
        ("remind me about the team meeting next tuesday at 7:45pm", "ok, but 9", 21, "en"),
        ("תזכיר לי ישיבת צוות ביום שלישי הבא ב-19:45", "כן אבל בשמונה", 20, "he"),
    ],
)
def test_a_bare_hour_correcting_a_time_asked_about_keeps_its_half_of_the_day(
    monkeypatch: pytest.MonkeyPatch, request_words: str, correction: str, hour: int, language: str
) -> None:
    # "no, at 8" to "Just to check — … Tue, 19:45?" set the reminder for 08:00.
    with chat_at(monkeypatch, FakeClock(START)) as chat:
        asked = chat.say(request_words)
        assert asked.startswith("Just to check" if language == "en" else "רק מוודא"), asked
        minute = 30 if "8:30" in correction else 0
        assert shown(1, hour, minute, language=language) in chat.say(correction)


@pytest.mark.parametrize(
    ("request_words", "correction", "day", "language"),
    [
        ("remind me to call mom on wednesday at 5pm", "oops, thursday not wednesday", 3, "en"),
        ("remind me to call mom on wednesday at 5pm", "not wednesday, friday", 4, "en"),
        ("תזכיר לי להתקשר לאמא ביום רביעי ב-17:00", "אופס, חמישי ולא רביעי", 3, "he"),
    ],
)
def test_a_day_said_instead_of_another_moves_the_reminder_just_set(
    monkeypatch: pytest.MonkeyPatch, request_words: str, correction: str, day: int, language: str
) -> None:
    # "oops, tuesday not monday" was not understood.
    with chat_at(monkeypatch, FakeClock(START)) as chat:
        chat.say(request_words)
        assert shown(day, 17, language=language) in chat.say(correction)
        assert len(_reminders(chat, language)) == 1
