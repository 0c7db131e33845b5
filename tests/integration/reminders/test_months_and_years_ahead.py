"""Days months and years ahead, and a month's weeks, through the webhook on the fake clock (a Monday
at 10:00, Jerusalem). Each of these was set for tomorrow at the hour said ("in 3 months at 9am"
became "in 3 months to service the car", tomorrow 09:00); "tonight at 12" was "already passed"."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from tests.support.conversation import Conversation
from tests.support.week import MONDAY, START
from tests.support.week import shown as _shown


def _months_on(months: int) -> date:
    """Counted by months' lengths: the same day, or the month's last when it is shorter."""
    first = MONDAY.replace(day=1)
    for _ in range(months):
        first += timedelta(days=calendar.monthrange(first.year, first.month)[1])
    return first.replace(day=min(MONDAY.day, calendar.monthrange(first.year, first.month)[1]))


def _days(day: date) -> int:
    return (day - MONDAY).days


def _first_weekday_of_next_month(weekday: int) -> date:
    first = _months_on(1).replace(day=1)
    return first + timedelta(days=(weekday - first.weekday()) % 7)


def test_months_ahead_then_changed_to_a_year(chat: Conversation) -> None:
    three = _months_on(3)
    assert chat.say("remind me in 3 months at 9am to service the car") == (
        f"⏰ Reminder set: “service the car” for {_shown(_days(three), 9)}."
    )
    # A change of mind: the same reminder, six months ahead. (A year ahead is 366 days across a
    # February 29, past the default MEMO_RULE_MAX_DAYS_AHEAD of 365: asked, as any such reminder.)
    half = _months_on(6)
    reply = chat.say("actually make it in 6 months")
    assert "service the car" in reply and _shown(_days(half), 9) in reply


def test_hebrew_months_ahead(chat: Conversation) -> None:
    two = _months_on(2)
    reply = chat.say("תזכיר לי בעוד חודשיים ב-9 בבוקר לבדוק את האוטו")
    assert (
        reply.startswith("⏰ קבעתי תזכורת „לבדוק את האוטו”") and _shown(_days(two), 9, language="he") in reply
    )


def test_the_first_monday_of_next_month_and_the_last_friday(chat: Conversation) -> None:
    monday = _first_weekday_of_next_month(0)
    assert chat.say("remind me on the first monday of next month at 9am to plan the sprint") == (
        f"⏰ Reminder set: “plan the sprint” for {_shown(_days(monday), 9)}."
    )
    first = _months_on(1).replace(day=1)
    last = first + timedelta(days=calendar.monthrange(first.year, first.month)[1] - 1)
    friday = last - timedelta(days=(last.weekday() - 4) % 7)
    reply = chat.say("תזכיר לי ביום שישי האחרון של החודש הבא ב-10 בבוקר להגיש דוח")
    assert "להגיש דוח" in reply and _shown(_days(friday), 10, language="he") in reply


def test_the_end_of_the_year(chat: Conversation) -> None:
    end = date(MONDAY.year, 12, 31)
    assert chat.say("remind me at the end of the year at 6pm to review my goals") == (
        f"⏰ Reminder set: “review my goals” for {_shown(_days(end), 18)}."
    )


def test_tonight_at_twelve_is_midnight(chat: Conversation) -> None:
    assert START.hour == 10
    assert chat.say("remind me tonight at 12 to take the pill") == (
        f"⏰ Reminder set: “take the pill” for {_shown(1, 0)}."
    )


def test_years_ahead_with_no_time_are_refused_before_the_time_is_asked(chat: Conversation) -> None:
    # "in 3 years" asked "What time on <that day>?", then refused whatever the answer.
    assert chat.say("remind me in 3 years to renew the passport") == (
        "I can set reminders up to 365 days ahead, so I haven't set this one."
    )
    assert (
        chat.say("תזכיר לי בעוד שנתיים לחדש את הדרכון")
        == "אפשר לקבוע תזכורת עד 365 ימים קדימה, אז לא קבעתי אותה."
    )
    # Nothing is waiting for an answer: the next message is a request of its own.
    assert chat.say("at 9am").startswith("I'm not sure I understood")
    # Within reach, the time is asked as before.
    assert chat.say("remind me in 3 months to service the car").startswith("What time on ")
