"""A repetition said where Memo asked for a time, or to change a reminder: the reminder repeats, and
fires again and again, instead of once at its first time. Signed WhatsApp payloads through the
webhook, the executor and the ticker on moto, on the fake clock; English and Hebrew."""

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
# A Monday at least a week ahead of the real clock, 10:00 in Jerusalem: moto refuses a recurring
# schedule whose start is more than 5 minutes before the real time.
_today = datetime.now(TZ).date()
MONDAY = _today + timedelta(days=7 + (7 - _today.weekday()) % 7)
START = datetime(MONDAY.year, MONDAY.month, MONDAY.day, 10, 0, tzinfo=TZ)
GROUP = "memo-reminders"


def _local(day: int, hour: int) -> datetime:
    on = MONDAY + timedelta(days=day)
    return datetime(on.year, on.month, on.day, hour, 0, tzinfo=TZ)


def _shown(day: int, hour: int, language: str = "en") -> str:
    return format_when(_local(day, hour), language, "Asia/Jerusalem")  # type: ignore[arg-type]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def chat(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def _fired(chat: Conversation, clock: FakeClock, *days: int, hour: int) -> list[str]:
    """What the person got when the clock passed `hour` on each of `days` (after that Monday)."""
    assert chat.stack.ticker is not None
    got: list[str] = []
    for day in days:
        clock.set(_local(day, hour))
        chat.stack.ticker.tick()
        got += chat.replies()
    return got


def _schedules(chat: Conversation) -> list[dict]:
    assert chat.stack.ticker is not None
    scheduler = chat.stack.ticker._scheduler
    names = [s["Name"] for s in scheduler.list_schedules(GroupName=GROUP)["Schedules"]]
    return [scheduler.get_schedule(Name=n, GroupName=GROUP) for n in names]


def test_when_asked_for_a_time_every_day_at_8_repeats(chat: Conversation, clock: FakeClock) -> None:
    assert chat.say("remind me to take my pills").startswith("When should I remind you?")
    made = chat.say("every day at 8")
    assert made == f"🔁 Reminder set: “take my pills” every day at 08:00 (first: {_shown(1, 8)})."
    assert [s["ScheduleExpression"] for s in _schedules(chat)] == ["cron(0 8 * * ? *)"]
    fired = _fired(chat, clock, 1, 2, 3, hour=8)
    assert len(fired) == 3 and all("take my pills" in f for f in fired)


def test_hebrew_when_asked_for_a_time_every_sunday_repeats(chat: Conversation, clock: FakeClock) -> None:
    assert chat.say("תזכיר לי להשקות את הגינה").startswith("מתי להזכיר לך?")
    made = chat.say("כל יום ראשון ב-8")
    assert made.startswith("🔁 קבעתי תזכורת „להשקות את הגינה” כל יום ראשון ב-08:00")
    assert "כל יום ראשון ב-08:00" in chat.say("מה התזכורות שלי?")
    fired = _fired(chat, clock, 6, 13, hour=8)  # two Sundays
    assert len(fired) == 2 and all("להשקות את הגינה" in f for f in fired)


def test_move_it_to_every_sunday_makes_a_one_time_reminder_repeat(
    chat: Conversation, clock: FakeClock
) -> None:
    assert chat.say("remind me to call grandma tomorrow at 9").startswith("⏰ Reminder set: “call grandma”")
    moved = chat.say("move it to every sunday at 10")
    assert (
        moved
        == f"🔁 Updated the reminder “call grandma” — now every Sunday at 10:00 (next: {_shown(6, 10)})."
    )
    assert _fired(chat, clock, 1, hour=9) == []  # the one-time 09:00 is gone
    fired = _fired(chat, clock, 6, 13, hour=10)
    assert len(fired) == 2 and all("call grandma" in f for f in fired)
    assert len(_schedules(chat)) == 1


def test_hebrew_move_it_to_every_sunday(chat: Conversation) -> None:
    assert chat.say("תזכיר לי להתקשר לסבתא מחר ב-9").startswith("⏰")
    moved = chat.say("תזיז את זה לכל יום ראשון ב-10")
    assert moved.startswith("🔁 עדכנתי את התזכורת „להתקשר לסבתא” — עכשיו כל יום ראשון ב-10:00")
    assert "כל יום ראשון ב-10:00" in chat.say("מה התזכורות שלי?")


def test_a_new_repetition_for_a_series_is_not_asked_this_one_or_all(chat: Conversation) -> None:
    assert chat.say("remind me to water the plants every monday at 9").startswith("🔁")
    moved = chat.say("move the water the plants reminder to every day at 7am")
    assert moved.startswith("🔁 Updated the reminder “water the plants” — now every day at 07:00")
    assert "every day at 07:00" in chat.say("show my reminders")


def test_every_sunday_without_a_time_keeps_the_repetition_and_asks_the_time(chat: Conversation) -> None:
    assert chat.say("remind me to stretch").startswith("When should I remind you?")
    assert (
        chat.say("every sunday") == "At what time, each time? (e.g. “at 9:00”)"
    )  # the time is still missing
    made = chat.say("8 in the morning")
    assert made == f"🔁 Reminder set: “stretch” every Sunday at 08:00 (first: {_shown(6, 8)})."


def test_hebrew_every_tuesday_then_8_in_the_morning(chat: Conversation) -> None:
    assert chat.say("תזכיר לי להשקות את העציצים").startswith("מתי להזכיר לך?")
    assert chat.say("כל יום שלישי") == "באיזו שעה, בכל פעם? (למשל „ב-9:00”)"
    made = chat.say("ב-8 בבוקר")
    assert made.startswith("🔁 קבעתי תזכורת „להשקות את העציצים” כל יום שלישי ב-08:00")


def test_a_monthly_reminder_without_a_time_asks_only_the_time(chat: Conversation) -> None:
    # The question showed "tomorrow at 17:00" as its example: a day, which is no answer here.
    assert (
        chat.say("remind me on the 1st of every month to pay rent")
        == "At what time, each time? (e.g. “at 9:00”)"
    )
    assert chat.say("9am").startswith("🔁 Reminder set: “pay rent” every month on the 1st at 09:00")
