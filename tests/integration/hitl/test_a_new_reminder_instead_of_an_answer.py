"""Asked when to remind about one thing, the person asks for a reminder about another: that is a
reminder of its own, never more words of the one asked about. It was “email the boss to book a
haircut”, set for Friday. English and Hebrew, signed payloads through the webhook."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation


def _bullets(shown: str) -> list[str]:
    return [line.strip(" •").split(" — ")[0] for line in shown.splitlines() if line.strip().startswith("•")]


@pytest.mark.parametrize(
    ("first", "second", "answer", "title"),
    [
        ("remind me to email the boss", "remind me to book a haircut on friday", "at 11", "book a haircut"),
        ("remind me to email the boss", "remind me to water the plants tomorrow", "9pm", "water the plants"),
        ("remind me to email the boss tomorrow", "remind me to pay rent on friday", "at 10", "pay rent"),
    ],
)
def test_a_second_reminder_is_its_own(
    talk: Conversation, first: str, second: str, answer: str, title: str
) -> None:
    talk.say(first)
    assert talk.say(second).startswith("What time on")
    assert talk.say(answer).startswith(f"⏰ Reminder set: “{title}” for")
    assert _bullets(talk.say("show my reminders")) == [f"“{title}”"]


def test_hebrew_a_second_reminder_is_its_own(talk: Conversation) -> None:
    talk.say("תזכיר לי לשלוח מייל לבוס")
    talk.say("תזכיר לי לקבוע תספורת ביום שישי")
    assert talk.say("ב-11").startswith("⏰ קבעתי תזכורת „לקבוע תספורת” ליום ו׳")
    assert _bullets(talk.say("מה התזכורות שלי")) == ["„לקבוע תספורת”"]


def test_remind_me_with_only_the_missing_part_still_completes_it(talk: Conversation) -> None:
    talk.say("remind me to call dad")
    assert talk.say("remind me on friday at 10").startswith("⏰ Reminder set: “call dad” for")
