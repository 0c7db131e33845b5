""" "When is my dentist appointment?" answered from the reminders, through the webhook on the fake
clock. It was the calendar refusal ("To use your calendar I need access …") though a reminder
matched, or "not understood"; only phrasings with the word "reminder" listed it. Someone's thing
("when is mom's birthday?") is still a question about the notes.
"""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation
from tests.support.week import shown

ASKED_EN = [
    "when is my dentist appointment?",
    "what time is my dentist appointment?",
    "when is the dentist",
    "when do I have the dentist?",
    "when's my dentist appointment",
]
ASKED_HE = [
    "מתי התור לרופא שיניים?",
    "מתי רופא השיניים?",
    "באיזו שעה התור לרופא שיניים?",
    "מתי יש לי רופא שיניים?",
]


@pytest.mark.parametrize("asked", ASKED_EN)
def test_when_is_my_thing_lists_its_reminder(chat: Conversation, asked: str) -> None:
    chat.say("remind me about my dentist appointment on thursday at 4:30pm")
    chat.say("remind me to call mom tomorrow at 5pm")
    answer = chat.say(asked)
    assert "dentist" in answer and shown(3, 16, 30) in answer
    assert "call mom" not in answer and "calendar" not in answer


@pytest.mark.parametrize("asked", ASKED_HE)
def test_hebrew_when_is_my_thing_lists_its_reminder(chat: Conversation, asked: str) -> None:
    chat.say("תזכיר לי על התור לרופא שיניים ביום חמישי בארבע וחצי")
    chat.say("תזכיר לי להתקשר לאמא מחר בחמש")
    answer = chat.say(asked)
    assert "רופא שיניים" in answer and shown(3, 16, 30, language="he") in answer
    assert "לאמא" not in answer and "יומן" not in answer


def test_when_do_i_need_to_and_a_thing_with_no_reminder(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לסבתא ביום שישי ב-10")
    assert shown(4, 10, language="he") in chat.say("מתי אני צריך להתקשר לסבתא?")
    answer = chat.say("when is my flight?")
    assert "flight" in answer and "calendar" not in answer and "understood" not in answer


def test_someones_thing_is_still_looked_up_in_the_notes(chat: Conversation) -> None:
    chat.say("note: mom's birthday is on june 3")
    assert "june 3" in chat.say("when is mom's birthday?")


@pytest.mark.parametrize(
    ("note", "asked", "answer"),
    [
        (
            "note: flight to london on friday at 7am, terminal 3",
            "when is my flight?",
            "You have no reminder about “flight”, but a note of yours says:\n"
            "• flight to london on friday at 7am, terminal 3",
        ),
        (
            "פתק: טיסה ללונדון ביום שישי ב-7",
            "מתי הטיסה?",
            "אין לך תזכורת על „הטיסה”, אבל יש פתק:\n• טיסה ללונדון ביום שישי ב-7",
        ),
    ],
)
def test_with_no_reminder_about_it_a_note_that_says_it_is_shown(
    chat: Conversation, note: str, asked: str, answer: str
) -> None:
    # "when is my flight?" with the flight only in a note answered "You have no reminder about “flight”".
    chat.say(note)
    assert chat.say(asked) == answer
    assert chat.say("when is the dentist?") == "You have no reminder about “dentist”."  # no note says it
