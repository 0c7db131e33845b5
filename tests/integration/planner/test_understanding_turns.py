"""What people actually type, through the webhook (signed payloads, the fake clock, the executor state machine on moto):
what people actually type is understood, English and Hebrew, and the next message works too.

The user's number is Israeli (972...) and the deployment's default timezone is UTC: Memo uses
Israel's time from the number until the user names another timezone."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

# Sunday 22 Nov 2026, 07:00 UTC = 09:00 in Jerusalem = 07:00 in London.
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def local(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.delenv("MEMO_DEFAULT_TIMEZONE", raising=False)  # UTC: the number decides
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def chat(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def fires_at(local: LocalStack, clock: FakeClock, at: datetime) -> bool:
    """Whether a reminder fires at `at` (UTC) and not a minute before."""
    assert local.ticker is not None
    clock.set(at - timedelta(minutes=1))
    early = local.ticker.tick()
    clock.set(at + timedelta(seconds=30))
    due = local.ticker.tick()
    return early == [] and len(due) == 1 and due[0].error is None


def test_an_israeli_number_gets_israel_time_without_any_setting(
    chat: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    assert (
        chat.say("remind me to call mom today at 5pm") == "⏰ Reminder set: “call mom” for Sun 22 Nov, 17:00."
    )
    assert fires_at(local, clock, datetime(2026, 11, 22, 15, 0, tzinfo=UTC))  # 17:00 in Jerusalem
    (delivered,) = chat.replies()
    assert "call mom" in delivered


def test_my_timezone_is_london_moves_what_comes_next(
    chat: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    assert chat.say("my timezone is London") == (
        "Done 👍 From now on times are in Europe/London. It's 07:00 there now.\n"
        "Reminders you already set still go off at the moment they were set for, shown in Europe/London time."
    )
    assert (
        chat.say("remind me to call mom today at 5pm") == "⏰ Reminder set: “call mom” for Sun 22 Nov, 17:00."
    )
    assert fires_at(local, clock, datetime(2026, 11, 22, 17, 0, tzinfo=UTC))  # 17:00 in London
    (delivered,) = chat.replies()
    assert "call mom" in delivered
    # The user's own choice stays: the next message does not give the number's timezone back.
    assert (
        chat.say("remind me to stretch today at 6pm") == "⏰ Reminder set: “stretch” for Sun 22 Nov, 18:00."
    )
    assert fires_at(local, clock, datetime(2026, 11, 22, 18, 0, tzinfo=UTC))


def test_hebrew_i_am_in_new_york(chat: Conversation) -> None:
    reply = chat.say("אני בניו יורק")
    assert (
        reply.splitlines()[0] == "עודכן 👍 מעכשיו הזמנים לפי אזור הזמן America/New_York. השעה שם עכשיו 02:00."
    )
    assert (
        chat.say("תזכיר לי להתקשר לאמא היום ב-17:00")
        == "⏰ קבעתי תזכורת „להתקשר לאמא” ליום א׳ 22.11 בשעה 17:00."
    )


def test_i_am_in_a_meeting_is_not_a_timezone(chat: Conversation) -> None:
    assert "timezone" not in chat.say("I'm in a meeting").lower()


def test_typos_chat_spelling_and_thanks(chat: Conversation) -> None:
    assert (
        chat.say("remnd me to cal mom tomorow at 6") == "⏰ Reminder set: “call mom” for Mon 23 Nov, 18:00."
    )
    reply = chat.say("... remind me to call grandma at 7 tonight thx")
    assert reply == "⏰ Reminder set: “call grandma” for Sun 22 Nov, 19:00."
    assert chat.say("REMIND ME TO TAKE MY PILLS AT 9PM PLEASE") == (
        "⏰ Reminder set: “take my pills” for Sun 22 Nov, 21:00."
    )


def test_a_meeting_mentioned_in_passing_does_not_get_the_calendar_refusal(chat: Conversation) -> None:
    reply = chat.say(
        "I have a meeting with the contractor tomorrow so please remind me to call the plumber tomorrow at 8am"
    )
    assert reply == "⏰ Reminder set: “call the plumber” for Mon 23 Nov, 08:00."


def test_two_requests_in_one_message(chat: Conversation) -> None:
    reply = chat.say("remind me to pick up the kids at 4pm and add flour to my shopping list")
    assert (
        "“pick up the kids” for Sun 22 Nov, 16:00" in reply and "Added flour to your shopping list." in reply
    )
    reply = chat.say("remind me to buy milk at 4pm and to call the school at 10am")
    assert "“buy milk” for Sun 22 Nov, 16:00" in reply and "“call the school” for Sun 22 Nov, 10:00" in reply
    hebrew = chat.say("תוסיף ביצים לרשימת הקניות ותזכיר לי ללכת לסופר ב-18:00")
    assert "ביצים" in hebrew and "„ללכת לסופר”" in hebrew
    assert "flour" in chat.say("what's on my grocery list") and "ביצים" in chat.say("מה ברשימת הקניות")


def test_delete_the_wifi_note_goes_to_notes(chat: Conversation) -> None:
    chat.say("note: the wifi password is 1234")
    question = chat.say("delete the wifi note")
    assert "1 note" in question and "the wifi password is 1234" in question
    assert chat.tap(1) == "Deleted the note “the wifi password is 1234”."


def test_daily_questions(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert (
        chat.say("what do I have tomorrow?")
        == "Your reminders on Mon 23 Nov:\n• “call mom” — Mon 23 Nov, 17:00"
    )
    assert chat.say("תזכורות").startswith("התזכורות שלך:")
    assert chat.say("set an alarm for 6am") == "⏰ Reminder set: “alarm” for Mon 23 Nov, 06:00."
    chat.say("note that I parked on level 2, row C")
    assert chat.say("where did I park?") == "Found 1 note for “park”:\n• I parked on level 2, row C"
    chat.say("תרשום שהחניתי בקומה מינוס 2")
    assert chat.say("איפה החניתי?") == "מצאתי פתק אחד עבור „חנייה”:\n• החניתי בקומה מינוס 2"


def test_one_shopping_list_in_both_languages_in_the_users_words(chat: Conversation, clock: FakeClock) -> None:
    assert chat.say("add חומוס and פיתות to my shopping list") == "Added חומוס, פיתות to your shopping list."
    clock.advance(minutes=1)
    assert chat.say("תוסיף חלב לסופר") == "הוספתי חלב לרשימת הסופר."
    clock.advance(minutes=1)
    shown = chat.say("show me the groceries list")
    assert shown.startswith("Your groceries list:")
    assert all(item in shown for item in ("חומוס", "פיתות", "חלב"))
    chat.say("add call the plumber to my todo list")
    assert chat.say("what lists do I have?") == "Your lists:\n• סופר (3 items)\n• todo (1 item)"
    assert chat.say("אילו רשימות יש לי?") == "הרשימות שלך:\n• סופר (3 פריטים)\n• todo (פריט אחד)"


def test_a_thumbs_up_after_english_gets_english(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    reply = chat.say("👍")
    assert not any("\u05d0" <= ch <= "\u05ea" for ch in reply)


def test_an_answer_that_fills_one_missing_part_keeps_the_first_half(chat: Conversation) -> None:
    assert "What should I remind you about" in chat.say("remind me tomorrow")
    assert "What time on " in chat.say("to buy stamps")  # only the time of that day is still missing
    reply = chat.say("at 10am")
    assert "buy stamps" in reply and "10:00" in reply, reply


def test_the_same_in_hebrew(local: LocalStack) -> None:
    chat = Conversation(stack=local, user=WhatsAppUser(wa_id="972500000077"))
    chat.say("תזכיר לי מחר")
    assert "באיזו שעה ב" in chat.say("לקנות בולים")  # the day is known: only its time
    reply = chat.say("ב-10 בבוקר")
    assert "לקנות בולים" in reply and "10:00" in reply, reply


def test_an_answer_that_is_a_request_of_its_own_is_not_glued_to_the_question(chat: Conversation) -> None:
    chat.say("remind me tomorrow")
    reply = chat.say("add milk to my shopping list")
    assert "milk" in reply and "shopping" in reply, reply


def test_a_second_reminder_said_short_is_confirmed_whole_and_on_the_same_day(chat: Conversation) -> None:
    # "... and dad at 7" is read as "call dad at 7", on the first reminder's day. It is a guess, so
    # it is confirmed first, and the question names both reminders that "yes" will set.
    question = chat.say("remind me to call mom tomorrow at 6 and dad at 7")
    assert question.startswith(
        "Just to check — you want me to set a reminder “call mom” for Mon 23 Nov, 18:00, "
        "then set a reminder “call dad” for Mon 23 Nov, 19:00?"
    )
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("what's on tomorrow?") == "You have no reminders on Mon 23 Nov."
    # Said in full, the second one is on the first one's day too, with no question.
    assert chat.deliver(chat.user.text("remind me to call mom tomorrow at 6 and to call dad at 7")) == [
        "✅ ⏰ Reminder set: “call mom” for Mon 23 Nov, 18:00.\n✅ ⏰ Reminder set: “call dad” for Mon 23 Nov, 19:00."
    ]


def test_hebrew_second_reminder_said_short(chat: Conversation) -> None:
    question = chat.say("תזכיר לי לקנות חלב מחר ב6 וביצים ב7")
    assert "„לקנות חלב”" in question and "„לקנות ביצים”" in question
    answer = chat.deliver(chat.user.text("כן"))
    assert answer == [
        "✅ ⏰ קבעתי תזכורת „לקנות חלב” ליום ב׳ 23.11 בשעה 18:00.\n"
        "✅ ⏰ קבעתי תזכורת „לקנות ביצים” ליום ב׳ 23.11 בשעה 19:00."
    ]
    # "the one for dad" / "זו של אבא" name the reminder by its words.
    chat.say("תזכיר לי להתקשר לאבא מחר ב8")
    assert "„להתקשר לאבא”" in chat.say("תבטל את זו של אבא")


def test_cancel_the_one_for_dad(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 6")
    chat.say("remind me to call dad tomorrow at 7")
    question = chat.say("cancel the one for dad")
    assert "“call dad”" in question and "call mom" not in question
    assert chat.say("yes") == "Deleted the reminder “call dad”."
