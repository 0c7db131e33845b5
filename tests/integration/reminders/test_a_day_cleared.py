"""'Delete all my reminders for tomorrow' with a repeating reminder among them: the series is left
out and said so (a delete stops it for good, far past the day said), the one-time reminders of the
day are asked about and deleted, and the series still comes. English and Hebrew, signed payloads
through the webhook, the ticker on moto, the fake clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown


@pytest.mark.parametrize(
    "said",
    [
        "delete all my reminders for tomorrow",
        "delete everything tomorrow",
        "cancel all of tomorrow's reminders",
    ],
)
def test_a_day_cleared_leaves_its_series_and_says_so(chat: Conversation, clock: FakeClock, said: str) -> None:
    chat.say("remind me to take pills every day at 8am")
    chat.say("remind me to call the bank tomorrow at 11")
    asked = chat.say(said)
    # It was "I'm about to delete 2 reminders: 1. “take pills” — every day at 08:00 ..., 2. ...".
    assert asked.startswith(
        "I've left out “take pills”: it repeats, and a delete would stop it for good."
        " To skip only tomorrow, say e.g. “skip take pills tomorrow”.\n"
        "Before I go ahead: I'm about to delete 1 reminder:\n"
        f"1. “call the bank” — {shown(1, 11)}"
    )
    assert chat.say("yes") == "Deleted 1 reminder: “call the bank”."
    assert any("take pills" in sent for sent in fired(chat, clock, 1, 8))
    assert fired(chat, clock, 1, 11) == []


def test_a_day_of_series_only_deletes_nothing(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to take pills every day at 8am")
    chat.say("remind me to stretch every day at 9am")
    assert chat.say("delete all my reminders for tomorrow") == (
        "I've left out “take pills”, “stretch”: they repeat, and a delete would stop them for good."
        " To skip only tomorrow, say e.g. “skip take pills tomorrow”. Nothing was deleted."
    )
    assert chat.say("yes").startswith("I'm not waiting on a question")
    assert any("take pills" in sent for sent in fired(chat, clock, 1, 8))
    assert any("stretch" in sent for sent in fired(chat, clock, 1, 9))


def test_hebrew_a_day_cleared_leaves_its_series(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי לקחת כדורים כל יום ב-8 בבוקר")
    chat.say("תזכיר לי להתקשר לבנק מחר ב-11")
    asked = chat.say("תמחק את כל התזכורות של מחר")
    assert asked.startswith(
        "את „לקחת כדורים” לא מחקתי: היא חוזרת, ומחיקה הייתה עוצרת אותה לגמרי."
        " כדי לדלג רק על מחר, כתבו למשל „תדלג על לקחת כדורים מחר”.\n"
        "רגע לפני: אני עומד למחוק תזכורת אחת:\n"
    )
    assert "כל יום" not in asked
    chat.say("כן")
    assert any("לקחת כדורים" in sent for sent in fired(chat, clock, 1, 8))


def test_a_delete_all_with_other_limits_still_lists_the_series(chat: Conversation) -> None:
    chat.say("remind me to take pills every day at 8am")
    chat.say("remind me to call the bank tomorrow at 11")
    asked = chat.say("delete all my reminders except the bank")
    assert "I've left out" not in asked and "1. “take pills” — every day at 08:00" in asked
