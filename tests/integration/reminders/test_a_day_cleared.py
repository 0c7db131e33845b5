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


# The day named, from the Monday the clock starts on, with the weekly series that comes that day.
_WEEK = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


@pytest.mark.parametrize("day", range(1, 8))
def test_every_day_of_the_week_leaves_the_series_that_come_then(
    chat: Conversation, clock: FakeClock, day: int
) -> None:
    """Each day of the coming week: the daily series comes then, whatever its next time (tomorrow);
    the weekly one only on its own day. A one-time reminder that day is the only one asked about."""
    name = _WEEK[day % 7]
    chat.say("remind me to take pills every day at 8am")
    chat.say("remind me to water the plants every wednesday at 9am")
    chat.say(f"remind me to call the bank on {name} at 11")
    asked = chat.say(f"delete all my reminders for {name}")
    left = (
        "“take pills”, “water the plants”: they repeat" if name == "wednesday" else "“take pills”: it repeats"
    )
    assert asked.startswith(f"I've left out {left}, and a delete would stop")
    assert (
        f"Before I go ahead: I'm about to delete 1 reminder:\n1. “call the bank” — {shown(day, 11)}" in asked
    )
    assert chat.say("yes") == "Deleted 1 reminder: “call the bank”."
    assert any("take pills" in sent for sent in fired(chat, clock, day, 8))
    assert not any("call the bank" in sent for sent in fired(chat, clock, day, 11))


def test_a_later_day_with_only_series_deletes_nothing_and_says_why(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to take pills every day at 8am")
    chat.say("remind me to water the plants every monday at 9am")
    # It was "I found nothing for “friday”, so I haven't done anything.": the pills come on Friday.
    assert chat.say("delete all my reminders for friday") == (
        "I've left out “take pills”: it repeats, and a delete would stop it for good."
        " To skip only friday, say e.g. “skip take pills friday”. Nothing was deleted."
    )
    assert chat.say("yes").startswith("I'm not waiting on a question")
    assert chat.say("skip take pills friday").startswith(
        f"Before I go ahead: I'm about to skip “take pills” once — {shown(4, 8)}"
    )
    # Its next time comes before the day skipped: not "the next one is" an earlier day.
    assert chat.say("yes") == (
        f"✅ Skipped “take pills” on {shown(4, 8)}; it still comes on the other days (next: {shown(1, 8)})."
    )
    assert any("take pills" in sent for sent in fired(chat, clock, 3, 8))  # Thursday's
    assert fired(chat, clock, 4, 8) == []  # not Friday's


def test_hebrew_a_later_day_with_only_a_series(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי לקחת כדורים כל יום ב-8 בבוקר")
    assert chat.say("תמחק את כל התזכורות של יום שישי") == (
        "את „לקחת כדורים” לא מחקתי: היא חוזרת, ומחיקה הייתה עוצרת אותה לגמרי."
        " כדי לדלג רק על יום שישי, כתבו למשל „תדלג על לקחת כדורים יום שישי”. לא מחקתי כלום."
    )
    chat.say("תדלג על לקחת כדורים ביום שישי")
    assert chat.say("כן") == (
        f"✅ דילגתי על „לקחת כדורים” ב{shown(4, 8, language='he')};"
        f" בשאר הימים היא עדיין מגיעה (הבאה: {shown(1, 8, language='he')})."
    )
    assert any("לקחת כדורים" in sent for sent in fired(chat, clock, 3, 8))  # Thursday's
    assert fired(chat, clock, 4, 8) == []  # not Friday's


@pytest.mark.parametrize(
    "said",
    ["delete tomorrow's reminder", "delete the reminder for tomorrow", "cancel my reminder for tomorrow"],
)
def test_the_reminder_of_a_day_shows_that_day_s_reminders(
    chat: Conversation, clock: FakeClock, said: str
) -> None:
    # It was a skip of the latest reminder's time that day: "“buy milk” is on Fri 27 Nov, not then,
    # so I haven't deleted anything." (or, in Hebrew, one of tomorrow's two, guessed).
    chat.say("remind me to call dad tomorrow at 10am")
    chat.say("remind me to call mom tomorrow at 11am")
    chat.say("remind me to buy milk on friday at 9am")
    asked = chat.say(said)
    assert asked.startswith(
        "Before I go ahead: I'm about to delete 2 reminders:\n"
        f"1. “call dad” — {shown(1, 10)}\n2. “call mom” — {shown(1, 11)}\n"
    )
    assert chat.say("only 1") == "Deleted 1 reminder: “call dad”."
    assert not any("call dad" in sent for sent in fired(chat, clock, 1, 10))
    assert any("call mom" in sent for sent in fired(chat, clock, 1, 11))


def test_hebrew_the_reminder_of_tomorrow(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר ב-9 להתקשר לאבא")
    chat.say("תזכיר לי מחר ב-12 לקנות חלב")
    asked = chat.say("תמחק את התזכורת של מחר")
    assert "להתקשר לאבא" in asked and "לקנות חלב" in asked and asked.startswith("רגע לפני")
