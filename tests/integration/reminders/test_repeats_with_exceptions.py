"""Repeats said with an exception or with two times a day: "every day except saturday", "כל יום חוץ
משבת", "every morning except weekends", "every day at 8am and 8pm". The exception was dropped (the
reminder fired on the very day the person excluded) and the second time became part of the title
(one reminder a day instead of two). Signed payloads through the webhook, the ticker on moto, the
fake clock (a Monday at 10:00, Jerusalem), each reminder then fired at its times."""

from __future__ import annotations

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired as _fired
from tests.support.week import shown


def test_every_day_except_saturday_skips_saturday(chat: Conversation, clock: FakeClock) -> None:
    reply = chat.say("remind me every day except saturday at 7pm to walk the dog")
    assert reply.startswith("🔁 Reminder set: “walk the dog” every ")
    assert "except" not in reply and "Saturday" not in reply.split(" (first")[0]
    fired = {day: _fired(chat, clock, day, 19) for day in range(7)}  # Monday .. Sunday
    assert [day for day, sent in fired.items() if sent] == [0, 1, 2, 3, 4, 6]  # not Saturday (5)


def test_hebrew_every_day_except_shabbat(chat: Conversation, clock: FakeClock) -> None:
    reply = chat.say("תזכיר לי כל יום חוץ משבת בשבע בערב להוציא את הכלב")
    assert reply.startswith("🔁 קבעתי תזכורת „להוציא את הכלב”") and "חוץ" not in reply
    fired = {day: _fired(chat, clock, day, 19) for day in range(7)}
    assert [day for day, sent in fired.items() if sent] == [0, 1, 2, 3, 4, 6]


def test_every_morning_except_weekends(chat: Conversation, clock: FakeClock) -> None:
    # In Jerusalem the weekend is Friday and Saturday.
    chat.say("remind me every morning except weekends to run")
    sent = {day: _fired(chat, clock, day, 9) for day in range(1, 8)}
    assert [day for day, s in sent.items() if s] == [1, 2, 3, 6, 7]


def test_twice_a_day_is_two_reminders(chat: Conversation, clock: FakeClock) -> None:
    reply = chat.say("remind me every day at 8am and 8pm to take my pills")
    assert reply.count("“take my pills”") == 2 and "8pm to" not in reply
    assert len(_fired(chat, clock, 0, 20)) == 1
    assert len(_fired(chat, clock, 1, 8)) == 1
    assert len(_fired(chat, clock, 1, 20)) == 1
    listed = chat.say("show my reminders")
    assert listed.count("take my pills") == 2
    reply = chat.say("תזכיר לי כל יום ב-9 וב-21 לשתות מים")
    assert reply.count("„לשתות מים”") == 2


def test_one_off_at_two_times(chat: Conversation) -> None:
    assert chat.say("remind me tomorrow at 9 and 5 to call the bank") == (
        f"✅ ⏰ Reminder set: “call the bank” for {shown(1, 9)}.\n"
        f"✅ ⏰ Reminder set: “call the bank” for {shown(1, 17)}."
    )


def test_twice_a_day_with_no_times_is_offered_at_9_and_21(chat: Conversation, clock: FakeClock) -> None:
    # Was one reminder titled "twice a day to drink water", its time asked.
    question = chat.say("remind me twice a day to drink water")
    assert question.startswith(
        "Just to check — you want me to set a reminder “drink water” every day at 09:00, "
        "then set a reminder “drink water” every day at 21:00?"
    )
    assert chat.say("yes").count("🔁 Reminder set: “drink water” every day at") == 2
    assert len(_fired(chat, clock, 0, 21)) == 1
    assert len(_fired(chat, clock, 1, 9)) == 1
    # With the times said, nothing to confirm; the words are no part of the title.
    reply = chat.say("remind me twice a day at 8am and 8pm to stretch")
    assert reply.count("“stretch” every day at") == 2


def test_hebrew_twice_a_day(chat: Conversation) -> None:
    question = chat.say("תזכיר לי פעמיים ביום לשתות מים")
    assert question.startswith("רק מוודא — לקבוע תזכורת „לשתות מים” כל יום ב-09:00")
