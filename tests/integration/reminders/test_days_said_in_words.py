"""Days said in several words, through the webhook on the fake clock (a Monday at 10:00, Jerusalem):
"the first of next month", "a week from friday", "in a fortnight", "2031-…" written year first, and a
day no calendar of Memo's places ("on christmas", "on her birthday", "בחנוכה"), which is asked and
never guessed (each was set for the next time of the hour said, with the day's words in the title)."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

from tests.support.conversation import Conversation
from tests.support.week import MONDAY, at
from tests.support.week import shown as _shown


def _days_after_monday(day: date) -> int:
    return (day - MONDAY).days


def _next_month(day: int) -> date:
    year, month = (MONDAY.year + 1, 1) if MONDAY.month == 12 else (MONDAY.year, MONDAY.month + 1)
    return date(year, month, day)


def test_the_first_of_next_month(chat: Conversation) -> None:
    first = _days_after_monday(_next_month(1))
    assert chat.say("remind me on the first of next month at 8am to pay rent") == (
        f"⏰ Reminder set: “pay rent” for {_shown(first, 8)}."
    )
    reply = chat.say("תזכיר לי ב-1 לחודש הבא ב-9 בבוקר לשלם ארנונה")
    assert reply.startswith("⏰ קבעתי תזכורת „לשלם ארנונה”") and _shown(first, 9, language="he") in reply


def test_the_last_day_of_the_month(chat: Conversation) -> None:
    last = date(MONDAY.year, MONDAY.month, calendar.monthrange(MONDAY.year, MONDAY.month)[1])
    assert chat.say("remind me on the last day of the month at 6pm to send the invoice") == (
        f"⏰ Reminder set: “send the invoice” for {_shown(_days_after_monday(last), 18)}."
    )


def test_a_week_from_friday_and_a_fortnight(chat: Conversation) -> None:
    assert chat.say("remind me a week from friday at 9am to renew the insurance") == (
        f"⏰ Reminder set: “renew the insurance” for {_shown(11, 9)}."
    )
    assert chat.say("remind me in a fortnight at 9am to water the cactus") == (
        f"⏰ Reminder set: “water the cactus” for {_shown(14, 9)}."
    )
    assert chat.say("remind me on monday week at 9am to call the bank") == (
        f"⏰ Reminder set: “call the bank” for {_shown(7, 9)}."
    )


def test_a_date_written_year_first(chat: Conversation) -> None:
    day = at(40, 9).date()
    assert chat.say(f"remind me on {day.isoformat()} at 9am to renew the passport") == (
        f"⏰ Reminder set: “renew the passport” for {_shown(40, 9)}."
    )
    passed = (at(-40, 9)).date()
    assert chat.say(f"remind me on {passed.isoformat()} at 9am to renew it").startswith(
        "That time has already passed"
    )


def test_a_day_no_calendar_places_is_asked_and_the_answer_sets_it(chat: Conversation) -> None:
    assert chat.say("remind me on christmas at 9am to call grandma") == (
        "Which day is that? (e.g. “on Dec 25 at 9:00”)"
    )
    assert chat.say("what reminders do i have").startswith("You have no")  # nothing was set
    assert (
        chat.say("remind me on her birthday to call noa") == "Which day is that? (e.g. “on Dec 25 at 9:00”)"
    )
    day = at(9, 10)
    answer = f"{day:%B} {day.day}"
    assert chat.say(answer).startswith("What time on")
    assert chat.say("at 10") == f"⏰ Reminder set: “call noa” for {_shown(9, 10)}."


def test_hebrew_a_holiday_is_asked(chat: Conversation) -> None:
    assert chat.say("תזכיר לי בחנוכה להדליק נרות") == "איזה יום זה? (למשל „ב-25.12 בשעה 9:00”)"
    day = at(5, 17)
    reply = chat.say(f"{day.day}.{day.month} ב-17:00")
    assert reply.startswith("⏰ קבעתי תזכורת „להדליק נרות”") and "17:00" in reply


def test_words_of_a_day_beside_a_day_named_stay_in_the_title(chat: Conversation) -> None:
    assert chat.say("remind me tomorrow at 9am to buy a gift before mom's birthday") == (
        f"⏰ Reminder set: “buy a gift before mom's birthday” for {_shown(1, 9)}."
    )
    week_later = MONDAY + timedelta(days=4)
    assert chat.say("remind me on friday at 9am to plan for christmas") == (
        f"⏰ Reminder set: “plan for christmas” for {_shown(_days_after_monday(week_later), 9)}."
    )


def test_the_hour_said_with_a_day_no_calendar_places_is_kept_for_the_answer(chat: Conversation) -> None:
    assert chat.say("remind me on christmas at 9am to call grandma") == (
        "Which day is that? (e.g. “on Dec 25 at 9:00”)"
    )
    day = at(12, 9)
    assert chat.say(f"{day:%B} {day.day}") == f"⏰ Reminder set: “call grandma” for {_shown(12, 9)}."
    reply = chat.say("תזכיר לי בחנוכה ב-18:00 להדליק נרות")
    assert reply == "איזה יום זה? (למשל „ב-25.12 בשעה 9:00”)"
    evening = at(5, 18)
    assert _shown(5, 18, language="he") in chat.say(f"ב-{evening.day}.{evening.month}")
