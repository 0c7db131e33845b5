"""Undo after the item was re-created: the replay that doubled "milk" and "call mom".

Through the webhook with signed payloads, on the local stack: something is deleted, the same thing
is added again, then the delete's "Undo" is tapped. Undo brings back only what is still missing: an
equivalent item that exists again (the same text on the same list, a reminder of the same title at
the same time) is not restored a second time, and the reply says it is already there; what is
still missing comes back as before.
"""

from __future__ import annotations

from typing import Any

import boto3

from memo.local.stack import LocalStack
from tests.support.conversation import Conversation

APPROVE = 1
SCHEDULE_GROUP = "memo-reminders"


def _undo_tap(chat: Conversation) -> dict[str, Any]:
    """The "Undo" button of the confirmation just received, as WhatsApp sends its tap."""
    (choice,) = chat.choices
    assert choice.title in ("Undo", "ביטול המחיקה")
    return chat.user.button_reply(choice.id, choice.title)


def _schedules(stack: LocalStack) -> list[str]:
    scheduler = boto3.client("scheduler", region_name="us-east-1")
    return [s["Name"] for s in scheduler.list_schedules(GroupName=SCHEDULE_GROUP)["Schedules"]]


def test_undo_after_milk_was_added_again_keeps_one_milk(chat: Conversation) -> None:
    chat.say("add milk and eggs to my shopping list")
    assert chat.say("take milk off the list") == "Removed milk from your shopping list."
    undo = _undo_tap(chat)
    assert chat.say("add milk to my shopping list") == "Added milk to your shopping list."

    (answer,) = chat.deliver(undo)

    assert answer == ("↩️ Nothing to bring back. “milk” is already there again, so I didn't add a second one.")
    shown = chat.say("what's on my shopping list?")
    assert shown.count("milk") == 1 and "eggs" in shown


def test_undo_after_a_reminder_was_set_again_schedules_it_once(chat: Conversation, stack: LocalStack) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete the call mom reminder")
    assert chat.tap(APPROVE) == "Deleted the reminder “call mom”."
    undo = _undo_tap(chat)
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")

    (answer,) = chat.deliver(undo)

    assert "“call mom” is already there again, so I didn't add a second one." in answer
    assert chat.say("show my reminders").count("call mom") == 1
    assert len(_schedules(stack)) == 1  # one reminder fires, not two


def test_undo_restores_what_is_still_missing_and_leaves_what_is_back_in_hebrew(chat: Conversation) -> None:
    chat.say("תוסיף חלב, ביצים ולחם לרשימת הקניות")
    chat.say("נקה את רשימת הקניות")
    assert chat.tap(APPROVE) == "הורדתי חלב, ביצים, לחם מרשימת הקניות."
    undo = _undo_tap(chat)
    chat.say("תוסיף חלב לרשימת הקניות")

    (answer,) = chat.deliver(undo)

    assert answer.startswith("↩️ ביטלתי את המחיקה ושחזרתי את ")
    assert "„ביצים”" in answer and "„לחם”" in answer
    assert answer.endswith("„חלב” כבר קיים שוב, אז לא הוספתי עוד אחד.")
    shown = chat.say("תראה לי את רשימת הקניות")
    assert shown.count("חלב") == 1 and shown.count("•") == 3


def test_a_reminder_set_again_at_another_time_is_not_the_same_and_comes_back(
    chat: Conversation, stack: LocalStack
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete the call mom reminder")
    chat.tap(APPROVE)
    undo = _undo_tap(chat)
    chat.say("remind me to call mom tomorrow at 6pm")

    (answer,) = chat.deliver(undo)

    assert answer == "↩️ Undone: “call mom” is back."
    assert chat.say("show my reminders").count("call mom") == 2
    assert len(_schedules(stack)) == 2
