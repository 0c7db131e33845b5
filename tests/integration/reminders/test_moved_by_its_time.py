"""A reminder named by the time it is at, moved to another: "move the 3pm reminder to 6pm", "move
the 3pm water to 3:30", "move the dentist from 3 to 4", "תזיז את התזכורת של 15:00 ל-16:00". Signed
payloads through the webhook on the fake clock (a Monday at 10:00, Jerusalem). It moved a reminder
named "4pm" to 15:00, read "from 3 to 4" as 15:57, and found no reminder "3pm water"."""

from __future__ import annotations

from tests.support.conversation import Conversation
from tests.support.week import shown


def _set_two_at_three(chat: Conversation) -> None:
    chat.say("remind me to water the plants tomorrow at 3pm")
    chat.say("remind me to call mom tomorrow at 3pm")


def test_the_3pm_water_moves_the_water_and_nothing_else(chat: Conversation) -> None:
    _set_two_at_three(chat)
    assert chat.say("move the 3pm water to 3:30") == (
        f"Updated the reminder “water the plants” — now for {shown(1, 15, 30)}."
    )
    listed = chat.say("show my reminders")
    assert f"“water the plants” — {shown(1, 15, 30)}" in listed and f"“call mom” — {shown(1, 15)}" in listed


def test_a_time_two_reminders_share_asks_which_and_the_answer_moves_that_one(chat: Conversation) -> None:
    _set_two_at_three(chat)
    asked = chat.say("move the 3pm reminder to 6pm")
    assert asked.startswith("Which") and "water the plants" in asked and "call mom" in asked, asked
    assert chat.say("the water one") == f"Updated the reminder “water the plants” — now for {shown(1, 18)}."
    assert f"“call mom” — {shown(1, 15)}" in chat.say("show my reminders")


def test_from_an_hour_to_an_hour_is_that_hour_not_minutes_to_it(chat: Conversation) -> None:
    chat.say("remind me to see the dentist on wednesday at 3pm")
    assert chat.say("move the dentist from 3 to 4") == (
        f"Updated the reminder “see the dentist” — now for {shown(2, 16)}."
    )


def test_a_time_no_reminder_is_at_changes_nothing(chat: Conversation) -> None:
    _set_two_at_three(chat)
    assert chat.say("move the 4pm reminder to 6pm") == "I couldn't find a reminder matching “4pm”."
    listed = chat.say("show my reminders")
    assert f"“water the plants” — {shown(1, 15)}" in listed and f"“call mom” — {shown(1, 15)}" in listed


def test_hebrew_the_reminder_of_three_moved_to_four(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר ב-15:00 להשקות את העציצים")
    moved = chat.say("תזיז את התזכורת של 15:00 ל-16:00")
    assert "להשקות את העציצים" in moved and shown(1, 16, language="he") in moved, moved
