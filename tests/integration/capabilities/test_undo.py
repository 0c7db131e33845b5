"""The "Undo" of a delete or clear done by Memo, through the webhook with signed
payloads (English and Hebrew), on the local stack's moto with a fake clock.

A delete tombstones the items for 10 minutes (the items table's TTL purges them after), the
confirmation carries an "Undo" button, the tap restores them once (a second tap and a duplicate
webhook do nothing twice), a restored reminder fires at its time again, and after 10 minutes "Undo"
is answered with a clear "too late"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents

APPROVE = 1
# Sunday 22 Nov 2026, 09:00 in Jerusalem.
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def local(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def _items(user: WhatsAppUser) -> list[dict[str, Any]]:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    return ddb.query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{user.wa_id}"}},
    )["Items"]


def _undo(chat: Conversation) -> dict[str, Any]:
    """The "Undo" tap of the last confirmation, as WhatsApp sends it."""
    (choice,) = chat.choices
    assert choice.title in ("Undo", "ביטול המחיקה")
    return chat.user.button_reply(choice.id, choice.title)


def test_undo_a_deleted_reminder_brings_it_back_with_its_schedule(
    dana: Conversation, local: LocalStack, clock: FakeClock, log_events: LogEvents
) -> None:
    dana.say("remind me to call mom today at 5pm")
    dana.say("remind me to call dad today at 6pm")
    assert "“call mom”" in dana.say("delete the call mom reminder")  # the approval names it
    assert dana.tap(APPROVE) == "Deleted the reminder “call mom”."
    assert [c.title for c in dana.choices] == ["Undo"]
    # Gone for the user, kept for Undo: hidden, its schedule removed, purged by the TTL after 10 minutes.
    assert dana.say("show my reminders") == "Your reminders:\n• “call dad” — Sun 22 Nov, 18:00"
    (buried,) = [i for i in _items(dana.user) if "undo_key" in i]
    assert int(buried["ttl"]["N"]) == int(START.timestamp()) + 600
    assert buried["status"]["S"] == "cancelled"

    clock.advance(minutes=9)
    tap = _undo(dana)
    assert dana.deliver(tap) == ["↩️ Undone: “call mom” is back."]
    assert dana.say("show my reminders") == (
        "Your reminders:\n• “call mom” — Sun 22 Nov, 17:00\n• “call dad” — Sun 22 Nov, 18:00"
    )
    assert not [i for i in _items(dana.user) if "undo_key" in i or "ttl" in i]
    plans_before = len(log_events.named("EXECUTION_STARTED"))

    # Exactly once: the same webhook again is a duplicate (no turn); a second tap restores nothing.
    assert dana.deliver(tap) == []
    again = dana.user.button_reply(tap["interactive"]["button_reply"]["id"], "Undo")
    assert dana.deliver(again) == [
        "There's nothing left to undo: it was already undone, or the 10 minutes passed."
    ]
    # The duplicate is turned again up to its write, which finds the tap answered: nothing started.
    assert len(log_events.named("DUPLICATE_SKIPPED")) == 1
    assert len(log_events.named("EXECUTION_STARTED")) - plans_before == 1  # the second tap's alone
    # The duplicate issues the first tap's start again (in case its run died before it): a no-op.
    assert len(log_events.named("EXECUTION_ALREADY_STARTED")) == 1

    # The restored reminder fires at its time, once.
    assert local.ticker is not None
    clock.set(datetime(2026, 11, 22, 15, 0, 30, tzinfo=UTC))
    fired = local.ticker.tick()
    assert len(fired) == 1 and fired[0].error is None
    (delivered,) = dana.replies()
    assert "call mom" in delivered


def test_undo_after_ten_minutes_is_too_late_in_hebrew(dana: Conversation, clock: FakeClock) -> None:
    dana.say("שמור פתק: הקוד של השער 1234")
    assert "הקוד של השער 1234" in dana.say("מחק את הפתק על השער")
    deleted = dana.tap(APPROVE)
    assert "הקוד של השער 1234" in deleted
    assert [c.title for c in dana.choices] == ["ביטול המחיקה"]
    clock.advance(minutes=10, seconds=1)
    assert dana.deliver(_undo(dana)) == ["כבר אי אפשר לבטל את זה: ביטול אפשרי רק 10 דקות אחרי מחיקה."]
    # Nothing came back; the tombstone waits for the TTL (its window is over).
    assert dana.say("חפש בפתקים שער") == "לא מצאתי פתקים שמתאימים ל„שער”."


def test_undo_a_cleared_list_in_hebrew_restores_every_item(dana: Conversation) -> None:
    dana.say("תוסיף חלב, ביצים ולחם לרשימת הקניות")
    assert "רשימת הקניות" in dana.say("נקה את רשימת הקניות")  # the approval names the list
    assert dana.tap(APPROVE) == "הורדתי חלב, ביצים, לחם מרשימת הקניות."
    assert [c.title for c in dana.choices] == ["ביטול המחיקה"]
    assert dana.say("תראה לי את רשימת הקניות") == "רשימת הקניות ריקה."
    cleared_items = [i for i in _items(dana.user) if "undo_key" in i]
    assert len(cleared_items) == 3
    (restored,) = dana.deliver(_undo(dana))
    assert restored.startswith("↩️ ביטלתי את המחיקה ושחזרתי את ")
    assert all(f"„{word}”" in restored for word in ("חלב", "ביצים", "לחם"))
    shown = dana.say("תראה לי את רשימת הקניות")
    assert all(word in shown for word in ("חלב", "ביצים", "לחם"))


def test_a_failed_delete_offers_no_undo(dana: Conversation) -> None:
    dana.say("remind me to call mom today at 5pm")
    dana.say("delete all my reminders")
    assert dana.tap(APPROVE) == "Deleted 1 reminder: “call mom”."
    assert [c.title for c in dana.choices] == ["Undo"]
    dana.choices = []
    assert dana.say("add milk to my shopping list") == "Added milk to your shopping list."
    assert dana.choices == []  # no Undo on what deleted nothing


# --- "undo" typed, as people do rather than tapping ---------------------------------------------------


def test_undo_typed_after_a_delete_brings_it_back_once(dana: Conversation) -> None:
    dana.say("remind me to call mom at 5pm")
    dana.say("delete it")
    assert dana.say("yes") == "Deleted the reminder “call mom”."
    assert dana.say("oops, undo that") == "↩️ Undone: “call mom” is back."
    assert "call mom" in dana.say("what are my reminders?")
    assert dana.say("undo").startswith("There's nothing to undo")


def test_hebrew_typed_undo_of_a_cleared_list(dana: Conversation) -> None:
    dana.say("תוסיף חלב וביצים לרשימת הקניות")
    dana.say("תנקה את רשימת הקניות")
    dana.say("כן")
    back = dana.say("בטל את המחיקה")  # both were added at the same moment of the fake clock: any order
    assert back.startswith("↩️ ביטלתי את המחיקה ושחזרתי את ") and "„חלב”" in back and "„ביצים”" in back
    assert dana.say("מה ברשימת הקניות?").count("•") == 2


def test_undo_typed_after_a_reminder_set_cancels_it_and_bring_it_back_does_not(
    dana: Conversation, clock: FakeClock
) -> None:
    dana.say("remind me to call mom at 5pm")
    nothing = "There's nothing to undo: Undo brings back what I deleted or changed in the last 10 minutes."
    assert dana.say("bring it back") == nothing
    assert dana.say("undo the delete") == nothing
    # "בטל את המחיקה" was once read as deleting a reminder named "the deletion".
    assert dana.say("בטל את המחיקה") == "אין מה לבטל: ביטול מחזיר את מה שמחקתי או שיניתי ב-10 הדקות האחרונות."
    assert "call mom" in dana.say("what are my reminders?")
    undone = dana.say("undo")
    assert undone.startswith("↩️ Undone: “call mom” at ") and undone.endswith(", 17:00 is cancelled.")
    assert dana.say("what are my reminders?") == "You have no upcoming reminders."
    clock.advance(hours=8, minutes=1)  # past 5pm: it does not fire
    assert dana.stack.ticker is not None
    dana.stack.ticker.tick()
    assert dana.replies() == []


def test_undo_typed_too_late(dana: Conversation, clock: FakeClock) -> None:
    dana.say("remind me to call mom at 5pm")
    dana.say("delete it")
    dana.say("yes")
    clock.advance(minutes=11)
    assert (
        dana.say("bring it back") == "That can't be undone anymore: Undo works for 10 minutes after a delete."
    )
    assert "call mom" not in dana.say("what are my reminders?")


def test_undo_asked_politely_or_after_an_unclear_message(dana: Conversation) -> None:
    dana.say("remind me to call mom at 5pm")
    dana.say("delete it")
    dana.say("yes")
    # "I'm not sure I understood — what would you like me to do?" waits for a request: undo is one.
    assert "not sure I understood" in dana.say("hmm")
    assert dana.say("can you undo that?") == "↩️ Undone: “call mom” is back."
    assert (
        dana.say("אפשר לבטל את המחיקה")
        == "אין מה לבטל: ביטול מחזיר את מה שמחקתי או שיניתי ב-10 הדקות האחרונות."
    )
