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


def test_a_misspelt_request_is_never_a_time_for_the_open_question(talk: Conversation) -> None:
    # „לשלם ארנונה” (asked for Thu 3.12) was set for today 12:03: "תזקיר" was not read as "תזכיר",
    # and the request's "in two hours" was taken as the answer, its other words dropped.
    talk.say("תזכיר לי לשלם ארנונה")
    assert talk.say("ב-3 לחודש").startswith("באיזו שעה ביום")
    assert talk.say("תזקיר לי בעוד שעתיים לצלצל לסבתא").startswith("⏰ קבעתי תזכורת „לצלצל לסבתא”")
    assert _bullets(talk.say("מה התזכורות שלי")) == ["„לצלצל לסבתא”"]


@pytest.mark.parametrize(
    "answer",
    [
        "at 5 and also remind me to water plants",
        "5pm buy the new charger for dad",
        "tomorrow at 9 call the plumber",
    ],
)
def test_a_time_with_a_request_beside_it_is_asked_again(talk: Conversation, answer: str) -> None:
    # “buy milk and also remind me to water plants” was set for 17:00.
    talk.say("remind me to buy milk")
    assert talk.say(answer).endswith("When should I remind you? (e.g. “tomorrow at 17:00”)")
    assert talk.say("show my reminders") == "You have no upcoming reminders."


@pytest.mark.parametrize(
    "answer", ["tomorrow at 5pm is fine", "ok lets say friday at 9 please", "at 5 then", "אז מחר ב-9 בבקשה"]
)
def test_a_time_with_an_answer_s_words_still_answers(talk: Conversation, answer: str) -> None:
    talk.say("remind me to buy milk")
    reply = talk.say(answer)
    assert reply.startswith("⏰") and "buy milk" in reply  # in the answer's language
