"""Repetitions the way people say them: "every other monday", "every 2 weeks on friday", "on the
first of every month", "פעם בשבועיים בשישי". Signed payloads through the webhook, the ticker on moto,
the fake clock (a Monday at 10:00, Jerusalem): each fires on the days said, starting at the first
of them."""

from __future__ import annotations

import calendar

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import at, shown
from tests.support.week import fired as _fired


def test_every_2_weeks_on_friday_starts_this_friday(chat: Conversation, clock: FakeClock) -> None:
    reply = chat.say("remind me every 2 weeks on friday at 10am to pay the cleaner")
    assert reply.startswith("🔁 Reminder set: “pay the cleaner” every other Friday at 10:00")
    assert f"(first: {shown(4, 10)})" in reply
    (fired,) = _fired(chat, clock, 4, 10)
    assert "pay the cleaner" in fired
    assert _fired(chat, clock, 11, 10) == []  # the Friday after: not this week
    assert len(_fired(chat, clock, 18, 10)) == 1


def test_every_other_monday_said_on_a_monday_after_its_time(chat: Conversation) -> None:
    # 8:00 has passed today: the first is next Monday, then every two weeks from it.
    reply = chat.say("remind me every other monday at 8 to clean the fridge")
    assert f"(first: {shown(7, 8)})" in reply


def test_hebrew_once_in_two_weeks_on_friday(chat: Conversation) -> None:
    reply = chat.say("תזכיר לי פעם בשבועיים בשישי ב10 לשלם למנקה")
    assert reply.startswith("🔁 קבעתי תזכורת „לשלם למנקה”") and "שישי" in reply


def test_on_the_first_of_every_month(chat: Conversation) -> None:
    reply = chat.say("remind me on the first of every month at 9am to pay rent")
    assert reply.startswith("🔁 Reminder set: “pay rent” every month on the 1st at 09:00")


def test_a_week_before_a_date_and_this_weekend(chat: Conversation) -> None:
    target = at(12, 9)
    asked = chat.say(f"remind me to buy a gift a week before {target:%B %-d}")
    # The day is the date less a week, and its time is asked.
    assert asked == f"What time on {shown(5, 9).rsplit(',', 1)[0]}? (e.g. “at 17:00”)"
    assert chat.say("10am") == f"⏰ Reminder set: “buy a gift” for {shown(5, 10)}."
    # "this weekend" is its Saturday, shown in the question so it can be said otherwise.
    assert chat.say("remind me to call grandma this weekend").startswith(
        f"What time on {shown(5, 9).rsplit(',', 1)[0]}?"
    )
    assert chat.say("תזכיר לי בסוף השבוע להתקשר לסבתא").startswith("באיזו שעה ב")


def test_until_the_end_of_the_month_ends_it_then(chat: Conversation, clock: FakeClock) -> None:
    # "until the end of the month" stayed in the title, and the reminder never ended.
    month_end = at(0, 22).replace(day=calendar.monthrange(at(0, 22).year, at(0, 22).month)[1])
    last = (month_end.date() - at(0, 22).date()).days
    reply = chat.say("remind me every day at 10pm until the end of the month to take pills")
    assert reply.startswith("🔁 Reminder set: “take pills” every day at 22:00, until "), reply
    assert any("take pills" in m for m in _fired(chat, clock, last, 22))
    assert not any("take pills" in m for m in _fired(chat, clock, last + 1, 22))
    hebrew = chat.say("תזכיר לי כל יום בעשר בלילה עד סוף החודש לקחת כדור")
    assert hebrew.startswith("🔁 קבעתי תזכורת „לקחת כדור” כל יום ב-22:00, עד "), hebrew


def test_every_weekend_fires_on_friday_and_saturday_in_israel(chat: Conversation, clock: FakeClock) -> None:
    # Was a one-time reminder titled "every to clean".
    assert chat.say("remind me every weekend at 10 to clean the house").startswith(
        "🔁 Reminder set: “clean the house” every Friday and Saturday at 10:00"
    )
    assert "clean the house" in _fired(chat, clock, 4, 10)[0]  # Friday
    assert "clean the house" in _fired(chat, clock, 5, 10)[0]  # Saturday
    assert _fired(chat, clock, 6, 10) == []  # Sunday is a workday in Israel


def test_every_year_on_a_date_asks_its_time_and_keeps_the_date(chat: Conversation) -> None:
    # The date was lost once the time was asked; "every march 5" was a one-time reminder titled "every".
    asked = chat.say("remind me every year on march 5 to call dad")
    assert asked.startswith("What time on ") and " 5 Mar?" in asked
    assert "every year on 5 Mar at 09:00" in chat.say("at 9")
    assert "every year on 5 Mar at 10:00" in chat.say("remind me every march 5 at 10 to call grandma")


def test_two_days_of_every_month_are_two_monthly_reminders(chat: Conversation) -> None:
    reply = chat.say("remind me on the 1st and 15th of every month at 9 to pay the bills")
    assert [line.split(" every ")[1].split(" (")[0] for line in reply.splitlines()] == [
        "month on the 1st at 09:00",
        "month on the 15th at 09:00",
    ]


def test_every_weekday_listed_without_commas_repeats_on_each(chat: Conversation, clock: FakeClock) -> None:
    # "every monday wednesday and friday at 7" was every Monday, titled "friday to go to the gym".
    reply = chat.say("remind me every monday wednesday and friday at 7 to go to the gym")
    assert reply.startswith("🔁 Reminder set: “go to the gym” every ")
    assert _fired(chat, clock, 2, 7)  # Wednesday
    assert not _fired(chat, clock, 3, 7)  # not Thursday
    assert _fired(chat, clock, 4, 7)  # Friday
    hebrew = chat.say("תזכיר לי כל יום ראשון שלישי וחמישי ב-8 לרוץ")
    assert hebrew.startswith("🔁") and "„לרוץ”" in hebrew


def test_hebrew_every_eight_hours_in_words(chat: Conversation) -> None:
    # "כל שמונה שעות" stayed in the title and the time was asked.
    reply = chat.say("תזכיר לי כל שמונה שעות לקחת תרופה")
    assert reply.startswith("🔁 קבעתי תזכורת „לקחת תרופה”") and "8 שעות" in reply
