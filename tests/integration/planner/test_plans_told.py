"""Plans told with their time, through the webhook, in English and Hebrew.

"I need to call the bank tomorrow at 10" was "I'm not sure I understood", and "I have a dentist
appointment on thursday at 4" was "To use your calendar I need access to your account". People tell
a reminders assistant such things to be reminded: Memo now offers the reminder at that time and
asks first ("Just to check — ...?"); a no sets nothing. Asking about the calendar, or asking it to
book something, is still answered as the calendar it cannot reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")  # a Monday
CALENDAR = "To use your calendar I need access to your account"


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    ("told", "title", "when"),
    [
        ("I need to call the bank tomorrow at 10", "call the bank", "Tue 3 Mar, 10:00"),
        ("i have a dentist appointment on thursday at 4", "dentist appointment", "Thu 5 Mar, 16:00"),
        ("meeting with dan tomorrow at 3", "meeting with dan", "Tue 3 Mar, 15:00"),
        ("I've got to pick up the kids at 4", "pick up the kids", "Mon 2 Mar, 16:00"),
        # The time first, and a plan told as "my X is ...".
        ("tomorrow at 3 I have a meeting with dan", "meeting with dan", "Tue 3 Mar, 15:00"),
        ("my flight is tomorrow at 6am", "flight", "Tue 3 Mar, 06:00"),
    ],
)
def test_a_plan_told_with_its_time_is_offered_as_a_reminder(
    chat: Conversation, told: str, title: str, when: str
) -> None:
    assert chat.say(told).startswith(f"Just to check — you want me to set a reminder “{title}” for {when}?")
    assert chat.say("yes") == f"⏰ Reminder set: “{title}” for {when}."


def test_a_no_sets_nothing(chat: Conversation) -> None:
    assert chat.say("I have a dentist appointment on thursday at 4").startswith("Just to check")
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("what reminders do I have?") == "You have no upcoming reminders."


def test_in_hebrew(chat: Conversation) -> None:
    asked = chat.say("יש לי תור לרופא ביום חמישי בארבע")
    assert asked.startswith("רק מוודא — לקבוע תזכורת „תור לרופא” ליום ה׳ 5.3 בשעה 16:00?")
    assert chat.say("כן") == "⏰ קבעתי תזכורת „תור לרופא” ליום ה׳ 5.3 בשעה 16:00."
    assert chat.say("צריך להתקשר לבנק מחר בעשר").startswith("רק מוודא — לקבוע תזכורת „להתקשר לבנק”")
    chat.say("לא")
    assert chat.say("מחר בשמונה יש לי פגישה עם דני").startswith("רק מוודא — לקבוע תזכורת „פגישה עם דני”")


def test_the_calendar_asked_about_is_still_the_calendar(chat: Conversation) -> None:
    assert chat.say("what meetings do I have tomorrow?").startswith(CALENDAR)
    assert chat.say("schedule a meeting with Dan tomorrow at 3").startswith(CALENDAR)
    # Without a time of day nothing is offered.
    assert chat.say("I need to call the bank").startswith("I'm not sure I understood")


def test_a_plan_told_beside_a_request_leaves_the_request_alone(chat: Conversation) -> None:
    said = chat.say(
        "I have a meeting with the contractor tomorrow at 10 so remind me to call the plumber at 8am"
    )
    assert said == "⏰ Reminder set: “call the plumber” for Tue 3 Mar, 08:00."


def test_a_meal_says_which_half_of_the_day(chat: Conversation) -> None:
    # "dinner ... at 8" was offered for 08:00.
    offered = chat.say("we have dinner with the cohens on friday at 8")
    assert offered.startswith(
        "Just to check — you want me to set a reminder “dinner with the cohens” for Fri 6 Mar, 20:00?"
    )
    assert chat.say("remind me about lunch with dana tomorrow at 1") == (
        "⏰ Reminder set: “lunch with dana” for Tue 3 Mar, 13:00."
    )


@pytest.mark.parametrize(
    "said", ["see you at 6", "I'll be there at 5", "I'm going to be there at 5", "נתראה בשמונה"]
)
def test_words_said_to_someone_are_no_plan(chat: Conversation, said: str) -> None:
    answer = chat.say(said)
    assert not answer.startswith(("Just to check", "רק מוודא")), answer
    assert chat.say("what reminders do I have?") == "You have no upcoming reminders."
