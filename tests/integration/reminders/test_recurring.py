"""Repeating reminders and the buttons of a delivered reminder, as a person uses them: signed
WhatsApp payloads through the webhook, Step Functions and the executor on moto, the local ticker
firing the ONE recurring schedule on the fake clock, replies read from the Graph API sink."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.text.dates import format_when
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

TZ = ZoneInfo("Asia/Jerusalem")
# A Monday at least a week ahead of the real clock, 10:00 in Jerusalem: EventBridge Scheduler (and
# moto) refuse a recurring schedule whose StartDate is more than 5 minutes before the real time.
_today = datetime.now(TZ).date()
MONDAY = _today + timedelta(days=7 + (7 - _today.weekday()) % 7)
START = datetime(MONDAY.year, MONDAY.month, MONDAY.day, 10, 0, tzinfo=TZ)
GROUP = "memo-reminders"


def _local(day: int, hour: int, minute: int = 0) -> datetime:
    """Wall-clock time in Jerusalem, `day` days after that Monday."""
    on = MONDAY + timedelta(days=day)
    return datetime(on.year, on.month, on.day, hour, minute, tzinfo=TZ)


def _shown(day: int, hour: int, minute: int = 0, language: str = "en") -> str:
    return format_when(_local(day, hour, minute), language, "Asia/Jerusalem")  # type: ignore[arg-type]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def stack(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def chat(stack: LocalStack) -> Conversation:
    return Conversation(stack=stack, user=WhatsAppUser())


def _schedules(stack: LocalStack) -> list[dict]:
    assert stack.ticker is not None
    scheduler = stack.ticker._scheduler  # the local stack's moto Scheduler client
    names = [s["Name"] for s in scheduler.list_schedules(GroupName=GROUP)["Schedules"]]
    return [scheduler.get_schedule(Name=n, GroupName=GROUP) for n in names]


def _tick_at(chat: Conversation, clock: FakeClock, when: datetime) -> list[str]:
    """Move the clock to `when`, let the ticker fire what is due, return what the user got."""
    assert chat.stack.ticker is not None
    clock.set(when)
    chat.stack.ticker.tick()
    return chat.replies()


def test_every_day_fires_three_times_then_once_after_this_one_is_deleted(
    chat: Conversation, clock: FakeClock
) -> None:
    reply = chat.say("remind me to take vitamins every day at 8am")
    assert reply == f"🔁 Reminder set: “take vitamins” every day at 08:00 (first: {_shown(1, 8)})."
    [schedule] = _schedules(chat.stack)
    assert schedule["ScheduleExpression"] == "cron(0 8 * * ? *)"
    assert schedule["ScheduleExpressionTimezone"] == "Asia/Jerusalem"

    assert _tick_at(chat, clock, _local(1, 7, 59)) == []  # not yet
    delivered = []
    for day in (1, 2, 3):
        delivered += _tick_at(chat, clock, _local(day, 8))
    assert len(delivered) == 3
    assert "⏰ Reminder: take vitamins" in delivered[0]  # inside the 24-hour window, with buttons
    assert all("take vitamins" in d for d in delivered)  # later ones as the template
    assert len(_schedules(chat.stack)) == 1  # still ONE recurring schedule

    clock.set(_local(3, 12))
    question = chat.say("delete the vitamins reminder")
    assert "This one" in question and "The whole series" in question
    answer = chat.tap(1)
    assert answer.startswith(f"✅ Skipped “take vitamins” on {_shown(4, 8)}; the next one is {_shown(5, 8)}")

    assert _tick_at(chat, clock, _local(4, 8)) == []  # the deleted occurrence does not come
    after = _tick_at(chat, clock, _local(5, 8))
    assert len(after) == 1 and "take vitamins" in after[0]
    assert len(_schedules(chat.stack)) == 1


def test_hebrew_every_sunday_until_a_count(chat: Conversation, clock: FakeClock) -> None:
    reply = chat.say("תזכיר לי כל יום ראשון ב-9 בבוקר להוציא את הזבל 2 פעמים")
    assert reply.startswith("🔁 קבעתי תזכורת „להוציא את הזבל” כל יום ראשון ב-09:00, 2 פעמים")
    [schedule] = _schedules(chat.stack)
    assert schedule["ScheduleExpression"] == "cron(0 9 ? * SUN *)"
    assert schedule["EndDate"] is not None  # the series ends after its second time

    assert len(_tick_at(chat, clock, _local(6, 9))) == 1
    assert len(_tick_at(chat, clock, _local(13, 9))) == 1
    assert _tick_at(chat, clock, _local(20, 9)) == []  # two times, as asked


def test_show_lists_how_a_reminder_repeats(chat: Conversation) -> None:
    chat.say("remind me to stretch every weekday at 7:30")
    listing = chat.say("show my reminders")
    assert f"“stretch” — every weekday (Sun–Thu) at 07:30 (next: {_shown(1, 7, 30)})" in listing


def test_snooze_then_done_on_a_delivered_reminder(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call mom at 11:00")
    [delivered] = _tick_at(chat, clock, _local(0, 11))
    assert delivered.startswith("⏰ Reminder: call mom")
    assert [c.title for c in chat.choices] == ["Done ✅", "Snooze 10 min", "Snooze 1 hour"]

    snoozed = chat.tap(2)
    assert snoozed == f"⏰ I'll remind you about “call mom” again at {_shown(0, 11, 10)}."
    assert _tick_at(chat, clock, _local(0, 11, 9)) == []
    [again] = _tick_at(chat, clock, _local(0, 11, 10))
    assert again.startswith("⏰ Reminder: call mom")

    chat.tap(2)  # snooze once more, then "Done" on the same message: no third delivery
    done = chat.tap(1)
    assert done == "✅ Marked “call mom” done."
    assert _tick_at(chat, clock, _local(0, 11, 30)) == []


def test_done_on_a_repeating_reminder_finishes_that_time_only(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to drink water every 2 hours")
    [first] = _tick_at(chat, clock, _local(0, 12))
    assert first.startswith("⏰ Reminder: drink water")
    done = chat.tap(1)
    assert done == f"✅ Marked “drink water” done for this time; the next one is {_shown(0, 14)}."
    [second] = _tick_at(chat, clock, _local(0, 14))
    assert second.startswith("⏰ Reminder: drink water")


@pytest.mark.parametrize(("snooze", "later"), [(2, (7, 11)), (3, (8, 1))])
def test_snooze_then_done_on_a_repeating_reminder_cancels_the_snoozed_time(
    chat: Conversation, clock: FakeClock, snooze: int, later: tuple[int, int]
) -> None:
    # "Done" after "Snooze" on a series said "Marked done for this time" and the snoozed copy still
    # went out, and was listed.
    chat.say("remind me every day at 7 to take my pill")
    [delivered] = _tick_at(chat, clock, _local(1, 7))
    assert delivered.startswith("⏰ Reminder: take my pill")
    chat.tap(snooze)
    assert chat.tap(1).startswith("✅ Marked “take my pill” done for this time")
    assert (
        "(next:" in chat.say("show my reminders") and chat.say("show my reminders").count("take my pill") == 1
    )
    assert _tick_at(chat, clock, _local(1, *later)) == []
    [tomorrow] = _tick_at(chat, clock, _local(2, 7))
    assert tomorrow.endswith("take my pill") or tomorrow.startswith("⏰ Reminder: take my pill")


def test_time_problems_are_asked_never_guessed(chat: Conversation) -> None:
    assert chat.say("remind me to call the bank at 25:00").startswith("That time doesn't exist")
    assert chat.say("tomorrow at 9am") == f"⏰ Reminder set: “call the bank” for {_shown(1, 9)}."
    assert chat.say("remind me yesterday to pay rent").startswith("That time has already passed")
    assert chat.say("מחר בשמונה בבוקר").startswith("⏰")  # answered in Hebrew words: still a time


def test_a_time_alone_keeps_the_reminders_day(chat: Conversation) -> None:
    chat.say("remind me to book flights on thursday at 9am")
    moved = chat.say("change it to 6pm")
    assert _shown(3, 18) in moved  # still Thursday
    moved_he = chat.say("תזיז את זה ל-7 בערב")
    assert _shown(3, 19, language="he") in moved_he


def _last_day_of_month(after: datetime, months_on: int = 0) -> datetime:
    """09:00 on the last day of the month `months_on` months after `after`'s."""
    first = after.date().replace(day=1)
    for _ in range(months_on + 1):
        first = (first + timedelta(days=32)).replace(day=1)
    last = first - timedelta(days=1)
    return datetime(last.year, last.month, last.day, 9, 0, tzinfo=TZ)


def test_at_the_end_of_every_month_fires_on_each_months_last_day(
    chat: Conversation, clock: FakeClock
) -> None:
    # Was a reminder titled "pay rent at the end of", repeating every month from tomorrow.
    first, second = _last_day_of_month(START), _last_day_of_month(START, 1)
    made = chat.say("remind me to pay rent at the end of every month at 9am")
    assert made == (
        "🔁 Reminder set: “pay rent” every month on the last day at 09:00 "
        f"(first: {format_when(first, 'en', 'Asia/Jerusalem')})."
    )
    assert _tick_at(chat, clock, first - timedelta(days=1)) == []
    (fired,) = _tick_at(chat, clock, first + timedelta(minutes=1))
    assert "pay rent" in fired
    assert _tick_at(chat, clock, second - timedelta(minutes=1)) == []
    (again,) = _tick_at(chat, clock, second + timedelta(minutes=1))
    assert "pay rent" in again


def test_end_of_the_month_and_next_month_ask_only_the_time(chat: Conversation) -> None:
    # Were reminders titled "end of the month to pay rent" / "next month to renew the insurance".
    last = _last_day_of_month(START)
    asked = chat.say("remind me to pay the electricity bill at the end of the month")
    assert asked.startswith(f"What time on {format_when(last.date(), 'en', 'Asia/Jerusalem')}?")
    assert chat.say("10am") == (
        f"⏰ Reminder set: “pay the electricity bill” for {format_when(last.replace(hour=10), 'en', 'Asia/Jerusalem')}."
    )
    assert chat.say("תזכיר לי בחודש הבא לחדש את הביטוח").startswith("באיזו שעה ביום")


def test_make_it_every_day_repeats_the_reminder_just_set_at_its_own_time(
    chat: Conversation, clock: FakeClock
) -> None:
    # Was "When should I remind you?", and the answer set no repetition.
    chat.say("remind me to take vitamins tomorrow at 9am")
    assert chat.say("make it every day") == (
        f"🔁 Updated the reminder “take vitamins” — now every day at 09:00 (next: {_shown(1, 9)})."
    )
    (first,) = _tick_at(chat, clock, _local(1, 9, 1))
    assert "take vitamins" in first
    (second,) = _tick_at(chat, clock, _local(2, 9, 1))
    assert "take vitamins" in second
    chat.say("תזכיר לי להשקות את העציצים ביום ראשון בשש בערב")
    assert chat.say("תעשה את זה כל שבוע").startswith(
        "🔁 עדכנתי את התזכורת „להשקות את העציצים” — עכשיו כל יום ראשון ב-18:00"
    )


def test_done_typed_in_hebrew_on_a_repeating_reminder(chat: Conversation, clock: FakeClock) -> None:
    # Was "סימנתי את „לשתות מים” כבוצע להפעם": not Hebrew.
    chat.say("תזכיר לי לשתות מים כל שעתיים")
    [first] = _tick_at(chat, clock, _local(0, 12))
    assert "לשתות מים" in first
    assert chat.say("בוצע") == (
        f"✅ סימנתי את „לשתות מים” כבוצע לפעם הזאת; הבאה ב{_shown(0, 14, language='he')}."
    )
    [second] = _tick_at(chat, clock, _local(0, 14))
    assert "לשתות מים" in second


@pytest.mark.parametrize(
    "move", ["move only this time to 9pm", "move it to 9pm just this once", "push just this once to 21:00"]
)
def test_once_words_move_that_time_only_and_undo_brings_it_back(chat: Conversation, move: str) -> None:
    chat.say("remind me to stretch every day at 8pm")
    moved = chat.say(move)
    assert moved.startswith("Updated the reminder “stretch” — now for ") and moved.endswith(", 21:00.")
    listed = chat.say("show my reminders")
    assert "every day at 20:00" in listed and ", 21:00" in listed  # the series stays, one time moves
    undone = chat.say("undo")
    assert undone.startswith("↩️ Undone:") and "is cancelled" in undone
    assert ", 21:00" not in chat.say("show my reminders")


@pytest.mark.parametrize(
    ("request_words", "move", "expected", "listing"),
    [
        (
            "remind me every monday and wednesday at 8pm to take out the trash",
            "move the trash to 9",
            "every Monday and Wednesday at 21:00",
            "show my reminders",
        ),
        (
            "remind me every monday and wednesday at 7am to take out the trash",
            "move the trash to 9",
            "every Monday and Wednesday at 09:00",
            "show my reminders",
        ),
        (
            "תזכיר לי כל יום שני ורביעי ב-20:00 להוציא את הזבל",
            "תעביר את הזבל לתשע",
            "ב-21:00",
            "מה התזכורות שלי?",
        ),
    ],
)
def test_a_whole_series_moved_to_a_bare_hour_keeps_its_half_of_the_day(
    chat: Conversation, request_words: str, move: str, expected: str, listing: str
) -> None:
    # "move the trash to 9" for the whole 20:00 series set it to 09:00 ("This one" went to 21:00).
    chat.say(request_words)
    assert chat.say(move).startswith(("Which one", "לאיזה"))
    chat.tap(2)
    assert expected in chat.say(listing)


@pytest.mark.parametrize(
    ("request_words", "said"),
    [
        ("remind me to drink water every 3 hours until 8pm", "until Mon"),
        ("תזכיר לי לשתות מים כל 3 שעות עד 8 בערב", "בשעה 20:00"),
    ],
)
def test_every_few_hours_until_a_time_stops_then(
    chat: Conversation, clock: FakeClock, request_words: str, said: str
) -> None:
    # "every 3 hours until 8pm" said "until Mon 23 Nov" and went on firing at 22:00.
    reply = chat.say(request_words)
    assert said in reply and "20:00" in reply, reply
    assert [len(_tick_at(chat, clock, _local(0, h, 1))) for h in (13, 16, 19, 22)] == [1, 1, 1, 0]
    assert _tick_at(chat, clock, _local(1, 10, 1)) == []
