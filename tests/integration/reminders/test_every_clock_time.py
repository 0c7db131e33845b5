"""A sample of the clock-time grid (tests/support/clock_phrases.py) said as people ask for a reminder,
"remind me to call bob at 6:15pm tomorrow", "תזכיר לי ברבע לשבע ביום שני להתקשר לבוב": signed
WhatsApp payloads through the webhook, the confirmation read from the Graph API sink, and the
reminder's one-time schedule read from EventBridge Scheduler (moto), each at the local time the words
mean, worked out from their parts. In Jerusalem and New York (the user's zone from their number), at
`TEST_NOW` and on the Saturday morning after it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.text.dates import format_when
from tests.support.clock import FakeClock
from tests.support.clock_phrases import (
    Case,
    dst_changes,
    minute_grid,
    named_date_grid,
    nows,
    offset_grid,
    word_grid,
)
from tests.support.conversation import Conversation, chat_at

GROUP = "memo-reminders"
#: A person's number in each zone.
NUMBERS = {"Asia/Jerusalem": "972501234567", "America/New_York": "12125550123"}
#: One case in so many of each part of the grid.
EVERY = {minute_grid: 72, word_grid: 30, named_date_grid: 8, offset_grid: 20}


def _sample(zone: str, now: datetime) -> list[Case]:
    """Every so many cases of the grid said at `now`, with a time to set (not a problem to ask)."""
    picked: list[Case] = []
    for grid, every in EVERY.items():
        cases = [case for case in grid(zone) if case.now == now and isinstance(case.expected, datetime)]
        picked += cases[::every]
    return picked


def _message(case: Case, n: int) -> str:
    """The request, with the time after the title or before it."""
    if case.language == "he":
        return f"תזכיר לי {case.title} {case.words}" if n % 2 else f"תזכיר לי {case.words} {case.title}"
    return f"remind me to {case.title} {case.words}" if n % 2 else f"remind me {case.words} to {case.title}"


def _confirmation(case: Case) -> str:
    assert isinstance(case.expected, datetime)
    if case.language == "he":
        return f"⏰ קבעתי תזכורת „{case.title}” ל{format_when(case.expected, 'he', case.zone)}."
    return f"⏰ Reminder set: “{case.title}” for {format_when(case.expected, 'en', case.zone)}."


def _schedules(stack: LocalStack) -> dict[str, dict[str, Any]]:
    assert stack.ticker is not None
    scheduler = stack.ticker._scheduler  # the local stack's moto Scheduler client
    names = [s["Name"] for s in scheduler.list_schedules(GroupName=GROUP, MaxResults=100)["Schedules"]]
    return {name: scheduler.get_schedule(Name=name, GroupName=GROUP) for name in names}


def _wrong(chat: Conversation, case: Case, message: str) -> str | None:
    """What went wrong setting `message`'s reminder, or None; the schedule is deleted once read."""
    assert isinstance(case.expected, datetime)
    reply = chat.say(message)
    schedules = _schedules(chat.stack)
    expression = [s["ScheduleExpression"] for s in schedules.values()]
    zones = {s["ScheduleExpressionTimezone"] for s in schedules.values()}
    assert chat.stack.ticker is not None
    for name in schedules:  # one at a time: the next message's schedule is the only one
        chat.stack.ticker._scheduler.delete_schedule(Name=name, GroupName=GROUP)
    meant = f"at({case.expected.replace(tzinfo=None).isoformat()})"
    if reply == _confirmation(case) and expression == [meant] and zones == {case.zone}:
        return None
    return f"{message!r}: {meant} {_confirmation(case)!r}, got {expression} {zones} {reply!r}"


@pytest.mark.parametrize("zone", sorted(NUMBERS))
@pytest.mark.parametrize("said_on", ["TEST_NOW", "saturday morning"])
def test_a_sample_of_clock_times_sets_each_reminder_at_its_time(
    monkeypatch: pytest.MonkeyPatch, zone: str, said_on: str
) -> None:
    now = nows(zone)[said_on != "TEST_NOW"]
    sample = _sample(zone, now)
    assert len(sample) >= 55
    with chat_at(monkeypatch, FakeClock(now.astimezone(UTC)), timezone=zone) as chat:
        chat.user = WhatsAppUser(wa_id=NUMBERS[zone])
        found = (_wrong(chat, case, _message(case, n)) for n, case in enumerate(sample))
        wrong = [problem for problem in found if problem is not None]
    assert not wrong, f"{len(wrong)} of {len(sample)} wrong:\n" + "\n".join(wrong[:30])


@pytest.mark.parametrize(
    ("zone", "message", "asked"),
    [
        ("Asia/Jerusalem", "remind me to call bob today at 12:30am", "That time has already passed"),
        ("Asia/Jerusalem", "תזכיר לי להתקשר לבוב היום ב-00:30", "הזמן הזה כבר עבר"),
        ("America/New_York", "remind me to call bob today at 00:15", "That time has already passed"),
    ],
)
def test_a_time_that_has_passed_is_asked_not_set(
    monkeypatch: pytest.MonkeyPatch, zone: str, message: str, asked: str
) -> None:
    with chat_at(monkeypatch, FakeClock(nows(zone)[0].astimezone(UTC)), timezone=zone) as chat:
        chat.user = WhatsAppUser(wa_id=NUMBERS[zone])
        assert chat.say(message).startswith(asked)
        assert _schedules(chat.stack) == {}


@pytest.mark.parametrize("zone", sorted(NUMBERS))
def test_the_hour_the_clocks_skip_is_asked_and_the_repeated_one_is_its_first_time(
    monkeypatch: pytest.MonkeyPatch, zone: str
) -> None:
    forward, back = (change.astimezone(ZoneInfo(zone)) for change in dst_changes(zone))
    skipped = forward.replace(tzinfo=None) - timedelta(minutes=30)  # half an hour into the gap
    repeated = back - timedelta(minutes=30)  # the first time of the repeated half hour
    with chat_at(monkeypatch, FakeClock(nows(zone)[0].astimezone(UTC)), timezone=zone) as chat:
        chat.user = WhatsAppUser(wa_id=NUMBERS[zone])
        asked = chat.say(f"remind me to call bob on {_date(skipped, zone)} at {skipped:%H:%M}")
        assert asked.startswith("That time doesn't exist")
        assert _schedules(chat.stack) == {}
        assert chat.say("never mind").startswith("OK")
        said = chat.say(f"תזכיר לי להתקשר לבוב ב-{_date(repeated, zone)} ב-{repeated:%H:%M}")
        assert said == f"⏰ קבעתי תזכורת „להתקשר לבוב” ל{format_when(repeated, 'he', zone)}."
        [schedule] = _schedules(chat.stack).values()
        assert schedule["ScheduleExpression"] == f"at({repeated.replace(tzinfo=None).isoformat()})"


def _date(when: datetime, zone: str) -> str:
    """The date as the user writes it: month first in the Americas."""
    return f"{when.month}/{when.day}" if zone.startswith("America/") else f"{when.day}/{when.month}"
