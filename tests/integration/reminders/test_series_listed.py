"""A repeating reminder in a listing of days ("what do I have on wednesday?", "what's on next
week?", "מה יש לי ביום חמישי?"): listed on every day it comes, with its times there, not only on its
next time. Signed payloads through the webhook, the fake clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

import calendar
from datetime import timedelta

from memo.text.dates import format_when
from tests.support.conversation import Conversation
from tests.support.week import at, shown


def test_a_day_asked_lists_each_series_that_comes_that_day(chat: Conversation) -> None:
    # Was "You have no reminders on Wed ...": a series was listed on its next time only.
    chat.say("remind me every day at 8am to take pills")
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    wednesday = shown(2, 8).split(",")[0]
    assert chat.say("what do I have on wednesday?") == (
        f"Your reminders on {wednesday}:\n• “take pills” — every day at 08:00 ({shown(2, 8)})"
    )
    # An Israeli week: Sunday to Saturday.
    assert chat.say("what's on next week?") == (
        f"Your reminders from {shown(6, 8).split(',')[0]} to {shown(12, 8).split(',')[0]}:\n"
        f"• “take pills” — every day at 08:00 (7 times, {shown(6, 8)} to {shown(12, 8)})\n"
        f"• “go to the gym” — every Tuesday and Thursday at 19:00 ({shown(8, 19)} and {shown(10, 19)})"
    )
    thursday = shown(3, 8, language="he").split(" בשעה")[0]
    assert chat.say("מה יש לי ביום חמישי?") == (
        f"התזכורות שלך ב{thursday}:\n"
        f"• „take pills” — כל יום ב-08:00 ({shown(3, 8, language='he')})\n"
        f"• „go to the gym” — כל יום שלישי וחמישי ב-19:00 ({shown(3, 19, language='he')})"
    )


def test_a_skipped_time_is_not_listed_and_the_series_is_on_its_other_days(chat: Conversation) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    assert "skip “go to the gym” once" in chat.say("skip the next gym")
    chat.say("yes")
    assert chat.say("what do I have tomorrow?") == f"You have no reminders on {shown(1, 19).split(',')[0]}."
    assert "gym" in chat.say("what do I have on thursday?")
    far = at(30, 9)  # a month on: a day said by its date
    said = f"{calendar.month_name[far.month].lower()} {far.day}"
    listed = chat.say(f"what do I have on {said}?")
    assert ("go to the gym" in listed) == (far.weekday() in (1, 3)), listed


def test_a_month_counts_a_series_times_in_it(chat: Conversation) -> None:
    chat.say("remind me every day at 8am to take pills")
    nxt = at(0, 8).replace(day=1) + timedelta(days=32)
    days = calendar.monthrange(nxt.year, nxt.month)[1]
    month = calendar.month_name[nxt.month]
    first = at(0, 8).replace(year=nxt.year, month=nxt.month, day=1)
    last = first.replace(day=days)
    assert chat.say("how many reminders do I have next month?") == (
        f"You have 1 reminder in {month}:\n"
        f"• “take pills” — every day at 08:00 ({days} times, "
        f"{format_when(first, 'en', 'Asia/Jerusalem')} to {format_when(last, 'en', 'Asia/Jerusalem')})"
    )
