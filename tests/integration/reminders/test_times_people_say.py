"""Times said the way people say them: a lead before an event ("15 minutes before my 3pm meeting"),
an hour with a colon after it ("tomorrow at 9: call the bank"), a Hebrew wake-up hour ("תעיר אותי
בשבע"), and two reminders in one message where the second names only its day. Signed payloads
through the webhook, the ticker on moto, the fake clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import at, shown
from tests.support.week import fired as _fired


def test_a_lead_before_a_meeting_fires_before_it(chat: Conversation, clock: FakeClock) -> None:
    # Set for 14:45, and the reminder says what is at 15:00 (it was set for 15:00, titled
    # "15 minutes before my meeting").
    reply = chat.say("remind me 15 minutes before my 3pm meeting")
    assert reply == f"⏰ Reminder set: “my meeting at 15:00” for {shown(0, 14, 45)}."
    assert _fired(chat, clock, 0, 14, 44) == []
    (fired,) = _fired(chat, clock, 0, 14, 46)
    assert "my meeting at 15:00" in fired
    # The next one in Hebrew, with the hour in words and a day named.
    reply = chat.say("תזכיר לי חצי שעה לפני האימון מחר בשש בערב")
    assert "„האימון ב-18:00”" in reply and "17:30" in reply


def test_hebrew_quarter_of_an_hour_before(chat: Conversation) -> None:
    reply = chat.say("תזכיר לי רבע שעה לפני הפגישה בשלוש")
    assert reply.startswith("⏰ קבעתי תזכורת „הפגישה ב-15:00”") and reply.endswith("בשעה 14:45.")


def test_a_lead_that_has_already_passed_is_asked(chat: Conversation) -> None:
    # 10:10 less 15 minutes is 09:55, before now: asked, never set for a time that has gone.
    assert chat.say("remind me 15 minutes before my 10:10 call").startswith("That time has already passed")
    assert chat.say("at 10:05") == f"⏰ Reminder set: “my call at 10:10” for {shown(0, 10, 5)}."


def test_a_colon_after_the_hour_before_the_task(chat: Conversation) -> None:
    # Was: "What time on Tue ...?" (the hour was not read with a colon after it).
    assert chat.say("remind me tomorrow at 9: call the bank") == (
        f"⏰ Reminder set: “call the bank” for {shown(1, 9)}."
    )
    assert chat.say("remind me to call mom at 8.") == f"⏰ Reminder set: “call mom” for {shown(0, 20)}."


def test_a_hebrew_wake_up_hour_is_in_the_morning(chat: Conversation) -> None:
    # Was 19:00 today: "בשבע" said to wake up is 7 in the morning, the next one.
    reply = chat.say("תעיר אותי בשבע")
    assert reply == f"⏰ קבעתי תזכורת „השכמה” ל{shown(1, 7, language='he')}."
    # The evening when it is said.
    assert chat.say("תעיר אותי בשבע בערב").endswith("בשעה 19:00.")


def test_a_second_reminder_with_only_a_day_takes_the_first_ones_time(chat: Conversation) -> None:
    # Was one reminder on Friday titled "call grandma and on sunday to call mom". The time is a
    # guess, so both are confirmed first, and the question names each.
    question = chat.say("remind me on friday at 5 to call grandma and on sunday to call mom")
    assert question.startswith(
        f"Just to check — you want me to set a reminder “call grandma” for {shown(4, 17)}, "
        f"then set a reminder “call mom” for {shown(6, 17)}?"
    )
    assert chat.say("yes") == (
        f"✅ ⏰ Reminder set: “call grandma” for {shown(4, 17)}.\n"
        f"✅ ⏰ Reminder set: “call mom” for {shown(6, 17)}."
    )
    assert f"“call mom” — {shown(6, 17)}" in chat.say("what do I have on sunday?")


def test_hebrew_first_reminder_with_only_a_day_is_confirmed_and_can_be_refused(chat: Conversation) -> None:
    question = chat.say("תזכיר לי מחר להתקשר לאמא וביום שישי בשש להתקשר לאבא")
    assert "„להתקשר לאמא”" in question and "„להתקשר לאבא”" in question and "18:00" in question
    assert chat.say("לא") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert chat.say("מה יש לי מחר?").startswith("אין לך תזכורות")


def test_a_second_hour_said_bare_is_on_the_first_ones_day_and_half(chat: Conversation) -> None:
    # "at 10" after "tomorrow at 9" is 10 tomorrow (today's 10:00 has passed; alone it would be
    # 22:00), and after "tomorrow at 9pm" it is 22:00.
    assert chat.say("remind me tomorrow at 9 to call the bank and at 10 to email dan") == (
        f"✅ ⏰ Reminder set: “call the bank” for {shown(1, 9)}.\n"
        f"✅ ⏰ Reminder set: “email dan” for {shown(1, 10)}."
    )
    assert chat.say("remind me tomorrow at 9pm to lock up and at 10 to take the pills") == (
        f"✅ ⏰ Reminder set: “lock up” for {shown(1, 21)}.\n"
        f"✅ ⏰ Reminder set: “take the pills” for {shown(1, 22)}."
    )


def test_a_correction_right_after_moves_the_reminder_just_set(chat: Conversation) -> None:
    # Each was "I'm not sure I understood".
    chat.say("remind me to call mom at 5")
    assert chat.say("oops i meant tomorrow") == (f"Updated the reminder “call mom” — now for {shown(1, 17)}.")
    assert chat.say("sorry, 6pm") == f"Updated the reminder “call mom” — now for {shown(1, 18)}."
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(1, 18)}"
    chat.say("תזכיר לי להתקשר לסבתא בחמש")
    assert chat.say("התכוונתי למחר").startswith("עדכנתי את התזכורת „להתקשר לסבתא” — עכשיו ל")


def test_change_it_to_words_renames_and_a_time_word_is_never_a_title(chat: Conversation) -> None:
    chat.say("remind me to call mom at 5")
    assert chat.say("change it to call dad") == f"Updated the reminder “call dad” — now for {shown(0, 17)}."
    # "the evening" is a time the words did not pin down: asked, not a reminder titled "the evening".
    assert "“the evening”" not in chat.say("change it to the evening")
    # No time, and no word that says it replaces the title: nothing changes on a guess.
    assert "Updated" not in chat.say("no, call grandma")
    assert chat.say("show my reminders") == f"Your reminders:\n• “call dad” — {shown(0, 17)}"


def test_a_lead_whose_time_is_asked_counts_back_from_the_answer(chat: Conversation) -> None:
    # Was: set for 15:00, titled "15 minutes before my meeting".
    assert chat.say("remind me 15 minutes before my meeting").startswith("When should I remind you?")
    assert chat.say("3pm") == f"⏰ Reminder set: “my meeting at 15:00” for {shown(0, 14, 45)}."
    assert chat.say("תזכיר לי רבע שעה לפני הפגישה").startswith("מתי")
    assert chat.say("מחר בשלוש").endswith("בשעה 14:45.")


def test_a_vague_time_is_asked_and_an_amount_answers_it(chat: Conversation) -> None:
    # Was titled "in a bit to check the pasta", and "10 min" to "When?" was not understood.
    assert chat.say("remind me in a bit to check the pasta").startswith("When should I remind you?")
    assert chat.say("10 min") == f"⏰ Reminder set: “check the pasta” for {shown(0, 10, 10)}."
    chat.say("remind me to call mom later")
    assert chat.say("2 hours") == f"⏰ Reminder set: “call mom” for {shown(0, 12)}."
    chat.say("תזכיר לי אחר כך להתקשר לאבא")
    assert chat.say("חצי שעה") == f"⏰ קבעתי תזכורת „להתקשר לאבא” ל{shown(0, 10, 30, language='he')}."
    # "later" inside a title stays.
    assert chat.say("remind me to read the book about later life at 5") == (
        f"⏰ Reminder set: “read the book about later life” for {shown(0, 17)}."
    )


def test_chat_spelling_of_to_at_and_buy(chat: Conversation) -> None:
    # Were titled "2 call mom", "by milk", and "@ 9 to call the bank" with the time asked.
    assert chat.say("remnid me tmrw 2 call mom at 5") == f"⏰ Reminder set: “call mom” for {shown(1, 17)}."
    assert chat.say("remid me to by milk at 6") == f"⏰ Reminder set: “buy milk” for {shown(0, 18)}."
    assert chat.say("pls remind me 2moro @ 9 to call the bank") == (
        f"⏰ Reminder set: “call the bank” for {shown(1, 9)}."
    )
    # A count stays a count.
    assert chat.say("remind me to buy 2 eggs at 7") == f"⏰ Reminder set: “buy 2 eggs” for {shown(0, 19)}."


@pytest.mark.parametrize(
    "request_",
    [
        "remind me on april 31st at 5pm to call the bank",
        "remind me on feb 30 to do taxes",
        "תזכיר לי ב-31 באפריל ב-17:00 לשלם",
    ],
)
def test_a_day_the_month_does_not_have_is_asked_and_nothing_is_set(chat: Conversation, request_: str) -> None:
    answer = chat.say(request_)
    assert "doesn't exist" in answer or "לא קיימת" in answer or "לא קיים" in answer, answer
    assert "Reminder set" not in answer and "קבעתי" not in answer
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_a_clock_time_without_a_colon_is_that_time(chat: Conversation, clock: FakeClock) -> None:
    # Was: "When should I remind you?", with "at 0730 to run" kept as the title.
    assert chat.say("remind me at 0730 to run") == f"⏰ Reminder set: “run” for {shown(1, 7, 30)}."
    assert (
        chat.say("remind me at 1930hrs to call dad") == f"⏰ Reminder set: “call dad” for {shown(0, 19, 30)}."
    )
    assert chat.say("remind me tomorrow at 730pm to stretch") == (
        f"⏰ Reminder set: “stretch” for {shown(1, 19, 30)}."
    )
    reply = chat.say("תזכיר לי ב-2215 לכבות את הדוד")
    assert reply.startswith("⏰ קבעתי תזכורת „לכבות את הדוד”") and reply.endswith("בשעה 22:15.")
    # By 07:31 tomorrow the three before it have fired (19:30, 22:15, 07:30), and 19:30 tomorrow not.
    fired = _fired(chat, clock, 1, 7, 31)
    assert len(fired) == 3 and any("run" in message for message in fired)


def test_four_digits_no_clock_shows_are_asked_and_set_nothing(chat: Conversation) -> None:
    assert chat.say("remind me at 2400 to run").startswith("That time doesn't exist")
    assert chat.say("at 0800 tomorrow") == f"⏰ Reminder set: “run” for {shown(1, 8)}."
    assert chat.say("ב-0775 תזכיר לי לשתות מים").startswith("השעה הזאת לא קיימת")
    assert chat.say("what reminders do i have") == f"Your reminders:\n• “run” — {shown(1, 8)}"


def test_minutes_around_noon_fire_then(chat: Conversation, clock: FakeClock) -> None:
    # It was "at half past to call mom" at 12:00.
    assert chat.say("remind me at half past noon tomorrow to call mom") == (
        f"⏰ Reminder set: “call mom” for {shown(1, 12, 30)}."
    )
    assert chat.say("remind me at a quarter to noon tomorrow to book the table") == (
        f"⏰ Reminder set: “book the table” for {shown(1, 11, 45)}."
    )
    assert [m for m in _fired(chat, clock, 1, 11, 46) if "book the table" in m]
    assert [m for m in _fired(chat, clock, 1, 12, 31) if "call mom" in m]


def test_marks_nobody_sees_stay_out_of_the_title(chat: Conversation) -> None:
    # A zero-width space and a direction mark pasted with the words were kept inside the title.
    assert chat.say("remind me to \u200bcall mom\u200f tomorrow at 5pm") == (
        f"⏰ Reminder set: “call mom” for {shown(1, 17)}."
    )
    hebrew = chat.say("תזכיר לי מחר ב-\u200f17:30 \u202bלהתקשר לאבא\u202c")
    assert hebrew == f"⏰ קבעתי תזכורת „להתקשר לאבא” ל{shown(1, 17, 30, 'he')}."
    listed = chat.say("show my reminders")
    assert "“call mom”" in listed and "“להתקשר לאבא”" in listed and "\u200b" not in listed


def test_several_weekdays_are_a_reminder_on_each(chat: Conversation, clock: FakeClock) -> None:
    reply = chat.say("remind me on tuesday, thursday and fri at 6pm to go to the gym")
    assert reply.splitlines() == [
        f"✅ ⏰ Reminder set: “go to the gym” for {shown(day, 18)}." for day in (1, 3, 4)
    ]
    assert "go to the gym" in _fired(chat, clock, 1, 18)[0]
    assert _fired(chat, clock, 2, 18) == []  # not on Wednesday: no repetition was said
    assert "go to the gym" in _fired(chat, clock, 3, 18)[0]
    # The next request, in Hebrew: two days.
    reply = chat.say("תזכיר לי ביום שישי ושבת ב-8 בערב לקנות פרחים")
    assert reply.splitlines() == [
        f"✅ ⏰ קבעתי תזכורת „לקנות פרחים” ל{shown(day, 20, language='he')}." for day in (4, 5)
    ]


def test_things_to_do_before_one_time_are_one_reminder_on_the_day_said(chat: Conversation) -> None:
    # It was two reminders: "buy milk" on Wednesday and "buy eggs" today, both at 22:00.
    assert chat.say("remind me wednesday to buy milk and eggs at 10") == (
        f"⏰ Reminder set: “buy milk and eggs” for {shown(2, 10)}."
    )


@pytest.mark.parametrize(
    ("said", "hour", "minute"),
    [
        ("in 1h30 to check the oven", 11, 30),
        ("in 2 hours and 15 minutes to check the oven", 12, 15),
        ("in a few hours to check the oven", 13, 0),
        ("at 9am sharp tomorrow to check the oven", 9, 0),
        ("on weds at 9 to check the oven", 9, 0),
        ("tomorrow at 5p to check the oven", 17, 0),
        ("tomorrow at 7:30a to check the oven", 7, 30),
    ],
)
def test_amounts_and_words_people_add_go_with_the_time(
    chat: Conversation, said: str, hour: int, minute: int
) -> None:
    reply = chat.say(f"remind me {said}")
    assert reply.startswith("⏰ Reminder set: “check the oven” for ") and reply.endswith(
        f", {hour:02d}:{minute:02d}."
    )


def test_in_10_is_ten_minutes_and_later_today_asks_the_time(chat: Conversation, clock: FakeClock) -> None:
    # "in 10" was the title ("in 10 to call mom"); "later today" left "later" in it.
    assert chat.say("remind me in 10 to call mom") == f"⏰ Reminder set: “call mom” for {shown(0, 10, 10)}."
    assert "call mom" in _fired(chat, clock, 0, 10, 11)[0]
    assert chat.say("remind me to call the bank later today").startswith("What time on ")
    assert chat.say("at 4pm") == f"⏰ Reminder set: “call the bank” for {shown(0, 16)}."


@pytest.mark.parametrize(
    "said",
    [
        "remind me at 8 and 20 to take pills",
        "remind me at 8:00 and 20:00 to take pills",
        "תזכיר לי ב-8 וב-20 לקחת כדורים",
    ],
)
def test_two_times_one_on_the_24_hour_clock_fire_morning_and_evening(
    chat: Conversation, clock: FakeClock, said: str
) -> None:
    # At 10:00 "8" alone is 20:00: both reminders were set for 20:00, and the morning one was lost.
    chat.say(said)
    listed = chat.say("show my reminders")
    assert shown(0, 20) in listed and shown(1, 8) in listed
    assert len(_fired(chat, clock, 0, 20)) == 1
    assert len(_fired(chat, clock, 1, 8)) == 1


def test_the_day_before_a_date_and_at_lunch(chat: Conversation) -> None:
    # "the day before dec 12" was set on Dec 12 itself, titled "the day before to pack"; "at lunch"
    # asked the time and kept "at lunch" in the title.
    day = at(14, 9)
    reply = chat.say(f"remind me the day before {day:%b} {day.day} at 8pm to pack")
    assert reply == f"⏰ Reminder set: “pack” for {shown(13, 20)}."
    assert chat.say("remind me at lunch tomorrow to eat") == f"⏰ Reminder set: “eat” for {shown(1, 12)}."


def test_an_hour_and_its_minutes_with_a_space(chat: Conversation) -> None:
    # "at 3 15" was 15:00, titled "15 to call the school".
    assert (
        chat.say("remind me at 3 15 to call the school")
        == f"⏰ Reminder set: “call the school” for {shown(0, 15, 15)}."
    )
    assert (
        chat.say("remind me at 11 45pm to lock up") == f"⏰ Reminder set: “lock up” for {shown(0, 23, 45)}."
    )


@pytest.mark.parametrize(
    ("said", "title", "day", "hour", "minute"),
    [
        ("remind me to prepare for the 5pm meeting at 3pm", "prepare for the 5pm meeting", 0, 15, 0),
        ("remind me to leave for the 8:15 train at 7:50pm", "leave for the 8:15 train", 0, 19, 50),
        (
            "remind me to buy tickets for the 7pm show tomorrow at noon",
            "buy tickets for the 7pm show",
            1,
            12,
            0,
        ),
        (
            "remind me to confirm the monday appointment on friday at 10am",
            "confirm the monday appointment",
            4,
            10,
            0,
        ),
    ],
)
def test_a_time_that_names_a_thing_stays_in_the_title(
    chat: Conversation, clock: FakeClock, said: str, title: str, day: int, hour: int, minute: int
) -> None:
    # It was set for the thing's time ("the 5pm meeting": 17:00), titled with the reminder's own
    # time ("prepare for the meeting at 3pm"), and nothing asked.
    assert chat.say(said) == f"⏰ Reminder set: “{title}” for {shown(day, hour, minute)}."
    (fired,) = _fired(chat, clock, day, hour, minute + 1)
    assert title in fired


@pytest.mark.parametrize(
    ("said", "day", "hour", "minute"),
    [
        ("תזכיר לי לכבות את הדוד היום ב-19.05", 0, 19, 5),
        ("תזכיר לי לצאת לריצה מחר ב-7.30", 1, 7, 30),
        ("תזכיר לי להתקשר לדנה ב-21.15", 0, 21, 15),
        ("תזכיר לי להתקשר לדנה ביום רביעי ב-8.10", 2, 8, 10),
    ],
)
def test_a_hebrew_time_written_with_a_dot(
    chat: Conversation, said: str, day: int, hour: int, minute: int
) -> None:
    # "היום ב-19.05" asked "באיזו שעה ביום ד׳ 19.5?" (19 May, "today" dropped); "מחר ב-7.30" asked the
    # time, and "ב-21.15" when.
    reply = chat.say(said)
    assert reply.startswith("⏰ קבעתי תזכורת") and reply.endswith(f"{shown(day, hour, minute, 'he')}."), reply


def test_a_dotted_time_answering_what_time(chat: Conversation) -> None:
    # The answer "ב-7.30" to "what time?" became part of the title.
    assert "?" in chat.say("תזכיר לי לצאת לריצה מחר")
    reply = chat.say("ב-7.30")
    assert reply == f"⏰ קבעתי תזכורת „לצאת לריצה” ל{shown(1, 7, 30, 'he')}."


def _nth(day: int) -> str:
    n = at(day, 9).day
    return f"{n}{'th' if 10 <= n <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def test_a_weekday_and_a_date_that_disagree_are_asked(chat: Conversation) -> None:
    # "on tuesday the 25th" (the 25th a Wednesday) set Wed 25 Nov, titled "send the report on tuesday".
    asked = chat.say(f"remind me to send the report on tuesday the {_nth(2)} at 9")
    assert asked.startswith("That time doesn't exist")
    assert (
        chat.say(f"wednesday the {_nth(2)} at 9") == f"⏰ Reminder set: “send the report” for {shown(2, 9)}."
    )
    agreed = chat.say(f"remind me to call the bank on tuesday the {_nth(1)} at 10")
    assert agreed == f"⏰ Reminder set: “call the bank” for {shown(1, 10)}."


def test_hebrew_a_weekday_and_a_day_of_the_month(chat: Conversation) -> None:
    # "ביום שלישי ה-25" set Tue 24.11 with "ה-25" in the title.
    assert chat.say(f"תזכיר לי לשלוח דוח ביום שלישי ה-{at(2, 9).day} בתשע").startswith("השעה הזאת לא קיימת")
    chat.say("ביטול")
    agreed = chat.say(f"תזכיר לי לשלוח דוח ביום שלישי ה-{at(1, 9).day} בתשע")
    assert agreed == f"⏰ קבעתי תזכורת „לשלוח דוח” ל{shown(1, 9, language='he')}."


@pytest.mark.parametrize(
    ("first", "ahead", "hour", "minute", "language"),
    [
        ("remind me about the dentist on wednesday at 4pm", "remind me an hour before", 15, 0, "en"),
        ("remind me about the dentist on wednesday at 4pm", "and 15 minutes before too", 15, 45, "en"),
        ("תזכיר לי על רופא השיניים ביום רביעי ב-16:00", "תזכיר לי גם חצי שעה לפני", 15, 30, "he"),
    ],
)
def test_a_reminder_ahead_of_the_one_just_set(
    chat: Conversation, clock: FakeClock, first: str, ahead: str, hour: int, minute: int, language: str
) -> None:
    # "remind me an hour before" asked "When should I remind you?".
    chat.say(first)
    reply = chat.say(ahead)
    assert reply.endswith(f"{shown(2, hour, minute, language)}."), reply
    assert len(_fired(chat, clock, 2, hour, minute)) == 1
    assert len(_fired(chat, clock, 2, 16)) == 1


@pytest.mark.parametrize(
    ("request_words", "answer", "hour", "language"),
    [
        ("remind me in 2 days to check the mail", "morning", 9, "en"),
        ("remind me in 2 days to check the mail", "evening", 19, "en"),
        ("תזכיר לי בעוד יומיים לבדוק את הדואר", "ערב", 19, "he"),
    ],
)
def test_a_part_of_the_day_alone_answers_what_time(
    chat: Conversation, request_words: str, answer: str, hour: int, language: str
) -> None:
    # "morning" to "What time on Wed 25 Nov?" answered "Sorry, I didn't catch that."
    assert "?" in chat.say(request_words)
    assert chat.say(answer).endswith(f"{shown(2, hour, language=language)}.")


def test_hebrew_a_lead_in_words_is_set_before_the_time_said(chat: Conversation) -> None:
    # "עשר דקות לפני הפגישה בארבע" was a reminder at 16:00 titled "עשר דקות לפני הפגישה".
    reply = chat.say("תזכיר לי מחר עשר דקות לפני הפגישה בארבע")
    assert "„הפגישה ב-16:00”" in reply and shown(1, 15, 50, language="he") in reply, reply
