"""A weekday of every month's weeks ("every first Monday", "the last Friday of every month"), every
N months, and what one schedule cannot keep, through the webhook on the fake clock (a Monday at
10:00, Jerusalem), delivered by the ticker. Each was a weekly series or a one-time reminder with
the words in its title; "every 5 months" was "can't confirm"."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import MONDAY, fired
from tests.support.week import shown as _shown


def _days(day: date) -> int:
    return (day - MONDAY).days


def _last_friday(year: int, month: int) -> date:
    last = date(year, month, calendar.monthrange(year, month)[1])
    return last - timedelta(days=(last.weekday() - 4) % 7)


def _next_month(day: date) -> date:
    return (day.replace(day=1) + timedelta(days=32)).replace(day=1)


def test_the_last_friday_of_every_month_fires_on_it_and_not_on_other_fridays(
    chat: Conversation, clock: FakeClock
) -> None:
    first = _last_friday(MONDAY.year, MONDAY.month)
    if first < MONDAY:
        following = _next_month(MONDAY)
        first = _last_friday(following.year, following.month)
    reply = chat.say("remind me on the last friday of every month at 4pm to submit the timesheet")
    assert reply == (
        "🔁 Reminder set: “submit the timesheet” every last Friday of the month at 16:00 "
        f"(first: {_shown(_days(first), 16)})."
    )
    other_friday = first - timedelta(days=7)
    if other_friday > MONDAY:
        assert fired(chat, clock, _days(other_friday), 16) == []
    assert any("submit the timesheet" in text for text in fired(chat, clock, _days(first), 16))
    following = _next_month(first)
    second = _last_friday(following.year, following.month)
    assert fired(chat, clock, _days(second) - 7, 16) == []  # the Friday before it: nothing
    assert any("submit the timesheet" in text for text in fired(chat, clock, _days(second), 16))


def test_hebrew_the_first_monday_of_every_month(chat: Conversation) -> None:
    following = _next_month(MONDAY)
    first = MONDAY if MONDAY.day <= 7 else following + timedelta(days=(0 - following.weekday()) % 7)
    reply = chat.say("תזכיר לי כל יום שני הראשון בחודש ב-9 בבוקר לתכנן את החודש")
    assert "כל יום שני הראשון בחודש ב-09:00" in reply
    if first != MONDAY:  # (on a first Monday before 09:00 the first is today)
        assert _shown(_days(first), 9, language="he") in reply


def test_every_five_months_is_asked_and_the_answer_keeps_the_hour(chat: Conversation) -> None:
    assert chat.say("remind me every 5 months at 9am to rotate the tires").startswith(
        "I can repeat a reminder every 1, 2, 3, 4, 6 or 12 months"
    )
    reply = chat.say("every 6 months then")
    assert (
        reply.startswith("🔁 Reminder set: “rotate the tires” every 6 months on the") and "at 09:00" in reply
    )
    listed = chat.say("what reminders do i have")
    assert listed.count("rotate the tires") == 1 and "every 5" not in listed  # only the answer was set
