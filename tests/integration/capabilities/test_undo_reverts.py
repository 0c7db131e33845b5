"""The undo of an update, through the webhook with signed payloads (English and Hebrew), on the
local stack's moto with a fake clock: a note's text and a reminder's title, time or series come back
as they were (a reminder's EventBridge schedule too), once, within the undo window of deletes; an
item changed again since is left as it is, and the reply says so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from zoneinfo import ZoneInfo

import boto3
import pytest

from memo.aws.items_table import DynamoItemsRepository
from memo.capabilities.items import Reminder
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.text.dates import format_when
from tests.support.clock import FakeClock, days_ahead
from tests.support.conversation import Conversation

ZONE = "Asia/Jerusalem"
TZ = ZoneInfo(ZONE)
NOTHING = "There's nothing to undo: Undo brings back what I deleted or changed in the last 10 minutes."
NOTHING_HE = "אין מה לבטל: ביטול מחזיר את מה שמחקתי או שיניתי ב-10 הדקות האחרונות."


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(days_ahead(1, 9, 0, TZ))


@pytest.fixture
def local(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", ZONE)
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def _at(hour: int, minute: int = 0, language: str = "en") -> str:
    return format_when(days_ahead(1, hour, minute, TZ), language, ZONE)  # type: ignore[arg-type]


def _items(user: WhatsAppUser) -> list[dict[str, Any]]:
    ddb = boto3.client("dynamodb", region_name="us-east-1")
    return ddb.query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{user.wa_id}"}},
    )["Items"]


def _schedule_at(name: str) -> str:
    scheduler = boto3.client("scheduler", region_name="us-east-1")
    return str(scheduler.get_schedule(Name=name, GroupName="memo-reminders")["ScheduleExpression"])


def _reminder(user: WhatsAppUser) -> Reminder:
    (reminder,) = DynamoItemsRepository(
        boto3.client("dynamodb", region_name="us-east-1"), "memo-items"
    ).list_reminders(user.wa_id)
    return reminder


# --- notes ---------------------------------------------------------------------------------------


def test_undo_of_a_changed_note_brings_its_text_back_once(dana: Conversation) -> None:
    dana.say("save a note: gate code is 1234")
    assert dana.say("they changed the gate code to 5678") == "📝 Updated your note: “gate code is 5678”."
    assert dana.say("undo") == "↩️ Undone: the note “gate code” is back to “gate code is 1234”."
    assert dana.say("search my notes for gate code") == "Found 1 note for “gate code”:\n• gate code is 1234"
    assert not [i for i in _items(dana.user) if "undo_prev" in i]  # nothing left to undo
    # Undo twice restores nothing more.
    assert dana.say("undo that") == NOTHING
    assert "gate code is 1234" in dana.say("search my notes for gate code")


def test_undo_of_an_addition_to_a_note_in_hebrew(dana: Conversation) -> None:
    dana.say("save a note: party: balloons")
    assert "party: balloons, candles" in dana.say("add candles to my party note")
    assert dana.say("אופס תחזיר") == "↩️ ביטלתי: הפתק „party” חזר ל„party: balloons”."
    assert dana.say("תחזיר את זה") == NOTHING_HE
    assert dana.say("search my notes for party") == "Found 1 note for “party”:\n• party: balloons"


def test_undo_after_the_window_changes_nothing(dana: Conversation, clock: FakeClock) -> None:
    dana.say("save a note: wifi password is sunshine42")
    dana.say("change the wifi note to moon7")
    clock.advance(minutes=10, seconds=1)
    assert dana.say("undo") == "That can't be undone anymore: Undo works for 10 minutes after a change."
    assert "moon7" in dana.say("search my notes for wifi")


def test_a_new_request_then_undo_undoes_that_request_and_leaves_the_update(dana: Conversation) -> None:
    dana.say("save a note: gate code is 1234")
    dana.say("they changed the gate code to 5678")
    assert dana.say("add milk to my shopping list") == "Added milk to your shopping list."
    assert dana.say("undo") == "↩️ Undone: “milk” is off your shopping list again."
    assert dana.say("undo") == NOTHING  # the undo is now the latest request
    assert "gate code is 5678" in dana.say("search my notes for gate code")


def test_undo_after_the_note_was_changed_again_refuses(dana: Conversation, clock: FakeClock) -> None:
    dana.say("save a note: gate code is 1234")
    dana.say("they changed the gate code to 5678")
    # Changed again by another writer (not a request of this conversation) before the undo.
    repo = DynamoItemsRepository(boto3.client("dynamodb", region_name="us-east-1"), "memo-items")
    (note,) = repo.list_notes(dana.user.wa_id)
    clock.advance(seconds=30)
    repo.update_note(
        dana.user.wa_id, note.note_id, text="gate code is 9999", expected=note.text, changed_at=clock()
    )
    assert dana.say("undo") == (
        "I didn't undo that: “gate code” was changed again since, so I left it as it is."
    )
    assert "gate code is 9999" in dana.say("search my notes for gate code")


# --- reminders -----------------------------------------------------------------------------------


def test_undo_of_a_moved_reminder_moves_it_and_its_schedule_back(dana: Conversation) -> None:
    dana.say("remind me to call mom today at 5pm")
    name = _reminder(dana.user).schedule_name
    assert name is not None
    before = _schedule_at(name)
    assert "19:00" in dana.say("move call mom to 7pm")
    assert _schedule_at(name) != before
    assert dana.say("undo that") == f"↩️ Undone: “call mom” is back at {_at(17)}."
    assert _schedule_at(name) == before  # the same schedule, at the time it had
    assert dana.say("show my reminders") == f"Your reminders:\n• “call mom” — {_at(17)}"
    assert dana.say("undo") == NOTHING


def test_undo_of_a_snooze_in_hebrew(dana: Conversation) -> None:
    dana.say("remind me to call mom today at 5pm")
    assert "17:10" in dana.say("snooze that for 10 min")
    assert dana.say("אופס תחזיר") == f"↩️ ביטלתי: „call mom” חזרה ל{_at(17, language='he')}."
    assert _reminder(dana.user).due_at == days_ahead(1, 17, 0, TZ)
    assert dana.say("אופס תחזיר") == NOTHING_HE


def test_undo_of_a_renamed_reminder(dana: Conversation) -> None:
    dana.say("remind me to call mom today at 5pm")
    dana.say("rename call mom to call dad")
    assert _reminder(dana.user).title == "call dad"
    assert dana.say("undo") == f"↩️ Undone: “call mom” is back at {_at(17)}."
    assert _reminder(dana.user).title == "call mom"


def test_undo_of_a_changed_series_brings_the_series_back(dana: Conversation) -> None:
    dana.say("remind me to stretch every day at 8pm")
    series = _reminder(dana.user).recurrence
    assert series is not None
    dana.say("move stretch to 9pm")  # asked: the whole series, or only its next time?
    (whole,) = [n for n, c in enumerate(dana.choices, 1) if c.title.startswith("The whole series")]
    assert "21:00" in dana.tap(whole)
    assert _reminder(dana.user).recurrence != series
    said = dana.say("undo")
    assert said.startswith("↩️ Undone: “stretch” is back at ") and "20:00" in said
    assert _reminder(dana.user).recurrence == series


def test_undo_of_the_travel_move(dana: Conversation) -> None:
    assert "18:15" in dana.say("remind me to call bob at 6:15pm tomorrow")
    moment = _reminder(dana.user).due_at
    assert "Move it to 18:15 New York time?" in dana.say("im in new york this week")
    dana.say("yes")
    assert _reminder(dana.user).due_at != moment
    assert dana.say("undo").startswith("↩️ Undone: “call bob” is back at ")
    assert _reminder(dana.user).due_at == moment


def test_undo_after_the_reminder_was_changed_again_refuses(dana: Conversation, clock: FakeClock) -> None:
    dana.say("remind me to call mom today at 5pm")
    dana.say("move call mom to 7pm")
    repo = DynamoItemsRepository(boto3.client("dynamodb", region_name="us-east-1"), "memo-items")
    clock.advance(seconds=30)
    repo.update_reminder(
        dana.user.wa_id, _reminder(dana.user).reminder_id, title="call mum", changed_at=clock()
    )
    assert dana.say("בטל את המחיקה") == "לא ביטלתי: „call mum” השתנה שוב מאז, אז השארתי את זה כמו שזה."
    assert _reminder(dana.user).title == "call mum"
    assert _reminder(dana.user).due_at == days_ahead(1, 19, 0, TZ)


# --- a snooze tapped on a delivered reminder ------------------------------------------------------


def _fire(dana: Conversation, local: LocalStack, clock: FakeClock, hour: int, minute: int) -> str:
    clock.set(days_ahead(1, hour, minute, TZ))
    assert local.ticker is not None
    local.ticker.tick()
    (fired,) = dana.replies()
    return fired


def _schedules() -> list[str]:
    scheduler = boto3.client("scheduler", region_name="us-east-1")
    return [s["Name"] for s in scheduler.list_schedules(GroupName="memo-reminders")["Schedules"]]


def test_undo_of_a_snooze_tapped_on_a_delivered_reminder(
    dana: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    """The snooze button moved the delivered reminder 10 minutes on; "undo" makes it the delivered
    reminder it was again, and its snooze schedule is gone, so it does not fire again."""
    dana.say("remind me to call mom today at 9:05am")
    assert "call mom" in _fire(dana, local, clock, 9, 6)
    assert [c.title for c in dana.choices] == ["Done ✅", "Snooze 10 min", "Snooze 1 hour"]
    assert "call mom" in dana.tap(2)
    assert _reminder(dana.user).status == "scheduled" and _schedules()
    undone = dana.say("undo")
    assert "Undone" in undone and "call mom" in undone
    reminder = _reminder(dana.user)
    assert reminder.status == "sent" and reminder.due_at == days_ahead(1, 9, 5, TZ)
    assert _schedules() == []
    clock.set(days_ahead(1, 9, 20, TZ))
    assert local.ticker is not None
    local.ticker.tick()
    assert dana.replies() == []  # the snoozed time never fires
    assert dana.say("undo") == NOTHING


def test_undo_of_a_snoozed_series_occurrence_cancels_the_snooze(
    dana: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    """Snoozing a delivered occurrence of a series made a one-time reminder 10 minutes on; "undo"
    cancels it (its schedule too) and the series goes on as it was."""
    dana.say("remind me to drink water every day at 9:05am")
    assert "drink water" in _fire(dana, local, clock, 9, 6)
    assert "drink water" in dana.tap(2)
    assert len(_schedules()) == 2  # the series, and the snooze
    undone = dana.say("undo")
    assert "“drink water” at " in undone and "is cancelled" in undone
    assert len(_schedules()) == 1
    assert dana.say("show my reminders").count("drink water") == 1
    clock.set(days_ahead(1, 9, 20, TZ))
    assert local.ticker is not None
    local.ticker.tick()
    assert dana.replies() == []  # the snooze never fires


def test_undo_of_a_moved_occurrence_gives_the_series_its_time_back(dana: Conversation) -> None:
    """ "move stretch to 9pm only this time": the series skipped tonight and a one-time reminder took
    21:00; "undo" cancels it and the series is at 20:00 tonight again (was: nothing left to undo)."""
    dana.say("remind me to stretch every day at 8pm")
    dana.say("move stretch to 9pm only this time")
    assert len(_schedules()) == 2
    undone = dana.say("undo")
    assert undone == (
        f"↩️ Undone: “stretch” is back at {_at(20)} (every day at 20:00); “stretch” at {_at(21)} is cancelled."
    )
    assert dana.say("show my reminders") == (
        f"Your reminders:\n• “stretch” — every day at 20:00 (next: {_at(20)})"
    )
    assert len(_schedules()) == 1
    assert dana.say("undo") == NOTHING


def test_hebrew_undo_of_a_moved_occurrence(dana: Conversation) -> None:
    dana.say("remind me to stretch every day at 8pm")
    dana.say("move stretch to 9pm only this time")
    undone = dana.say("תחזיר את זה")
    assert undone.startswith("↩️ ביטלתי: „stretch” חזרה ל") and "בוטלה" in undone
    assert len(_schedules()) == 1
