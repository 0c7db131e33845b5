"""Answering a delivered reminder by typing instead of tapping: "snooze 15 min", "done", "remind me
again in an hour", "בוצע", "תזכיר לי שוב בעוד חצי שעה". Signed payloads through the webhook, the
ticker on moto, the fake clock: the reminder comes back when the words said, and not before."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START, at, shown


def _quoting(chat: Conversation, message_id: str, text: str) -> str:
    """Reply to one of Memo's messages (long-press -> Reply), as WhatsApp sends it."""
    message = chat.user.text(text)
    message["context"] = {"from": "15550000000", "id": message_id}
    (answer,) = chat.deliver(message)
    return answer


def _delivered_id(chat: Conversation, title: str) -> str:
    """The WhatsApp id of the delivery of the reminder `title`."""
    sent = chat.stack.sink.messages(to=chat.user.wa_id)
    return next(
        r.message_id for r in reversed(sent) if f"Reminder: {title}" in json.dumps(r.body, ensure_ascii=False)
    )


def _after(chat: Conversation, clock: FakeClock, minutes: int) -> list[str]:
    """What the person got when `minutes` passed."""
    assert chat.stack.ticker is not None
    clock.advance(minutes=minutes)
    chat.stack.ticker.tick()
    return chat.replies()


def test_snooze_15_min_typed_brings_it_back_in_15_minutes(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to drink water in 10 minutes")
    (delivered,) = _after(chat, clock, 11)
    assert delivered.startswith("⏰ Reminder: drink water")
    assert chat.say("snooze 15 min") == "⏰ I'll remind you about “drink water” again at " + (
        f"{(START + timedelta(minutes=26)):%a %-d %b, %H:%M}."
    )
    assert _after(chat, clock, 10) == []  # not at the buttons' 10 minutes
    (again,) = _after(chat, clock, 6)
    assert again.startswith("⏰ Reminder: drink water")
    assert chat.say("done") == "✅ Marked “drink water” done."
    assert _after(chat, clock, 120) == []


def test_remind_me_again_in_an_hour_and_later_asks_how_much(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to stretch in 5 minutes")
    _after(chat, clock, 6)
    assert chat.say("later") == "How much later? For example “snooze 30 min” or “remind me again in an hour”."
    assert chat.say("remind me again in an hour").startswith("⏰ I'll remind you about “stretch” again at ")
    assert _after(chat, clock, 59) == []
    (again,) = _after(chat, clock, 2)
    assert again.startswith("⏰ Reminder: stretch")


def test_hebrew_typed_snooze_and_done(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי בעוד 5 דקות לשתות מים")
    (delivered,) = _after(chat, clock, 6)
    assert "לשתות מים" in delivered
    assert chat.say("תזכיר לי שוב בעוד חצי שעה").startswith("⏰")
    assert _after(chat, clock, 29) == []
    assert len(_after(chat, clock, 2)) == 1
    assert chat.say("בוצע") == "✅ סימנתי את „לשתות מים” כבוצע."


def test_done_long_after_the_reminder_is_not_taken_as_its_button(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to water the plants in 5 minutes")
    _after(chat, clock, 6)
    clock.advance(hours=3)
    # Hours later "done" is no answer to that reminder: nothing is marked, it is read as any message.
    assert not chat.say("done").startswith("✅")


def test_a_reply_quoting_an_older_reminder_snoozes_that_one(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call mom in 5 minutes")
    chat.say("remind me to take my pills in 10 minutes")
    _after(chat, clock, 6)
    _after(chat, clock, 5)  # both went out; "take my pills" is the latest
    mom = _delivered_id(chat, "call mom")
    assert _quoting(chat, mom, "snooze 10 min").startswith("⏰ I'll remind you about “call mom” again at ")
    (again,) = _after(chat, clock, 11)
    assert again.startswith("⏰ Reminder: call mom")  # and not the pills
    # "later" quoting the pills: how much later is asked, and the amount alone answers it, for them.
    pills = _delivered_id(chat, "take my pills")
    assert _quoting(chat, pills, "later").startswith("How much later?")
    assert chat.say("in an hour").startswith("⏰ I'll remind you about “take my pills” again at ")
    (back,) = _after(chat, clock, 61)
    assert back.startswith("⏰ Reminder: take my pills")


def test_hebrew_reply_quoting_a_reminder_hours_later(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי בעוד 5 דקות לשתות מים")
    _after(chat, clock, 6)
    clock.advance(hours=3)
    water = chat.stack.sink.messages(to=chat.user.wa_id)[-1].message_id
    # Quoted, it is about that reminder however long ago it went out.
    assert _quoting(chat, water, "בוצע") == "✅ סימנתי את „לשתות מים” כבוצע."


def test_quoting_another_message_is_not_the_latest_reminders_answer(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to stretch in 5 minutes")
    confirmation = chat.stack.sink.messages(to=chat.user.wa_id)[-1].message_id
    _after(chat, clock, 6)
    # "done" in a reply to the "Reminder set" confirmation is not the delivered reminder's button.
    assert not _quoting(chat, confirmation, "done").startswith("✅")


def test_remind_me_again_with_no_reminder_asks_what(chat: Conversation) -> None:
    assert chat.say("remind me again in 20 minutes") == "What should I remind you about?"
    assert chat.say("remind me to call the bank").startswith("⏰ Reminder set: “call the bank” for ")
    # Right after that reminder, "again" would be it once more: with a list item added since,
    # "again" names nothing.
    chat.say("תוסיף חלב לרשימת הקניות")
    assert chat.say("תזכיר לי שוב בעוד שעה") == "על מה להזכיר לך?"
    assert chat.say("שוב").endswith("על מה להזכיר לך?")  # still nothing named: asked again
    assert chat.say("להתקשר לרופא").startswith("⏰ קבעתי תזכורת „להתקשר לרופא”")


def test_snooze_this_quoting_a_reminder_snoozes_it(chat: Conversation, clock: FakeClock) -> None:
    # "snooze this for an hour" was not understood ("snooze 1 hour" was).
    chat.say("remind me to call mom in 5 minutes")
    chat.say("remind me to take my pills in 10 minutes")
    _after(chat, clock, 6)
    _after(chat, clock, 5)
    mom = _delivered_id(chat, "call mom")
    assert _quoting(chat, mom, "snooze this for an hour").startswith(
        "⏰ I'll remind you about “call mom” again at "
    )
    assert chat.say("remind me about it again in 20 minutes").startswith(
        "⏰ I'll remind you about “take my pills” again at "
    )
    (pills,) = _after(chat, clock, 21)
    assert pills.startswith("⏰ Reminder: take my pills")
    assert chat.say("תזכיר לי על זה שוב בעוד חצי שעה").startswith("⏰")


@pytest.mark.parametrize(
    ("said", "minutes"),
    [
        ("remind me again in 10", 10),
        ("remind me in 20 minutes", 20),
        ("in 15 min", 15),
        ("10 more minutes", 10),
        ("in 5", 5),
        ("עוד 10 דקות", 10),
        ("בעוד רבע שעה", 15),
        ("תזכיר לי בעוד 20 דקות", 20),
    ],
)
def test_an_amount_typed_next_after_the_reminder_snoozes_it(
    chat: Conversation, clock: FakeClock, said: str, minutes: int
) -> None:
    # "remind me in 20 minutes" right after "⏰ Reminder: check the oven" asked "What should I remind
    # you about?", and "in 15 min" / "עוד 10 דקות" were not understood.
    chat.say("remind me to check the oven in 5 minutes")
    (delivered,) = _after(chat, clock, 6)
    assert delivered.startswith("⏰ Reminder: check the oven")
    assert chat.say(said).startswith(
        ("⏰ I'll remind you about “check the oven” again at ", "⏰ אזכיר שוב על")
    )
    assert _after(chat, clock, minutes - 1) == []
    (again,) = _after(chat, clock, 2)
    assert again.startswith("⏰") and "check the oven" in again  # in the language of the snooze


def test_an_amount_alone_after_another_message_is_not_a_snooze(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to check the oven in 5 minutes")
    _after(chat, clock, 6)
    clock.advance(minutes=1)
    assert chat.say("what's on my shopping list?")
    # No longer the next message after the reminder: the amount alone says nothing to snooze.
    assert not chat.say("in 15 min").startswith("⏰")
    assert chat.say("what are my reminders?") == "You have no upcoming reminders."


def test_remind_me_in_an_amount_with_no_title_is_about_the_reminder(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to check the oven in 5 minutes")
    _after(chat, clock, 6)
    clock.advance(minutes=1)
    assert chat.say("what's on my shopping list?")
    # "remind me in 20 minutes" with no title says it is about the reminder: a snooze.
    assert chat.say("remind me in 20 minutes").startswith(
        "⏰ I'll remind you about “check the oven” again at "
    )
    # With a title of its own, it is a new reminder.
    assert chat.say("remind me in 10 to call dad").startswith("⏰ Reminder set: “call dad”")


@pytest.mark.parametrize(
    ("said", "answer"),
    [("done", "✅ Marked “drink water” done."), ("סיימתי", "✅ סימנתי את „drink water” כבוצע.")],
)
def test_done_right_after_a_reminder_is_its_button_while_a_question_is_open(
    chat: Conversation, clock: FakeClock, said: str, answer: str
) -> None:
    # With a question open ("Move it to London time?"), "done" right after the reminder went out
    # was "I'm not sure I understood" and the question was lost.
    chat.say("remind me to drink water in 10 minutes")
    asked = chat.say("i'm in london now")
    assert asked.endswith("London time?") or "?" in asked, asked
    (delivered,) = _after(chat, clock, 11)
    assert delivered.startswith("⏰ Reminder: drink water")
    assert chat.say(said) == answer
    # The question was kept: a "no" now answers it.
    assert "Sorry" not in chat.say("no")


def test_done_with_a_question_open_and_a_message_since_the_reminder_is_not_its_button(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to drink water in 10 minutes")
    _after(chat, clock, 11)
    chat.say("remind me to call mom")  # asks when: a question of its own, after the reminder
    assert chat.say("done") != "✅ Marked “drink water” done."


@pytest.mark.parametrize(
    ("request_words", "put_off", "minutes", "again"),
    [
        ("תזכיר לי בעוד 5 דקות להתקשר לרופא", "תדחה את זה בעשר דקות", 10, "אזכיר שוב"),
        ("תזכיר לי בעוד 5 דקות להתקשר לרופא", "תעשה נודניק לרבע שעה", 15, "אזכיר שוב"),
        ("remind me in 5 minutes to call the doctor", "push it back 20 minutes", 20, "I'll remind you"),
        ("remind me in 5 minutes to call the doctor", "delay it by an hour", 60, "I'll remind you"),
    ],
)
def test_a_reminder_that_went_out_put_off_by_an_amount_goes_out_again_then(
    chat: Conversation, clock: FakeClock, request_words: str, put_off: str, minutes: int, again: str
) -> None:
    # "תדחה את זה בעשר דקות" right after it went out answered "לא מצאתי את זה יותר".
    chat.say(request_words)
    assert len(_after(chat, clock, 6)) == 1
    assert chat.say(put_off).startswith(f"⏰ {again}")
    assert _after(chat, clock, minutes - 1) == []
    (sent,) = _after(chat, clock, 2)
    assert "לרופא" in sent or "doctor" in sent


@pytest.mark.parametrize(
    ("said", "day", "hour", "minute", "answer"),
    [
        ("snooze it until 5pm", 0, 17, 0, "⏰ I'll remind you about “call mom” again at {when}."),
        ("remind me again tomorrow", 1, 10, 31, "⏰ I'll remind you about “call mom” again at {when}."),
        (
            "remind me about it again on friday at 9",
            4,
            9,
            0,
            "⏰ I'll remind you about “call mom” again at {when}.",
        ),
        ("push it to thursday at 8pm", 3, 20, 0, "⏰ I'll remind you about “call mom” again at {when}."),
        ("תזכיר לי שוב מחר ב-8 בערב", 1, 20, 0, "⏰ אזכיר שוב על „call mom” ב{when}."),
        ("תדחה את זה למחר", 1, 10, 31, "⏰ אזכיר שוב על „call mom” ב{when}."),
    ],
)
def test_a_time_typed_after_a_reminder_went_out_brings_it_back_then(
    chat: Conversation, clock: FakeClock, said: str, day: int, hour: int, minute: int, answer: str
) -> None:
    # "snooze it until 5pm" answered "I couldn't find that one anymore"; "remind me again tomorrow"
    # asked "What should I remind you about, and when?". A day alone keeps the time it went out.
    chat.say("remind me to call mom at 10:30")
    (delivered,) = _after(chat, clock, 31)
    assert delivered.startswith("⏰ Reminder: call mom")
    lang = "he" if said[0] > "z" else "en"
    assert chat.say(said) == answer.format(when=shown(day, hour, minute, lang))
    due = at(day, hour, minute)
    assert _after(chat, clock, int((due - clock.now).total_seconds() // 60) - 1) == []  # not before
    (again,) = _after(chat, clock, 2)
    assert "call mom" in again


def test_a_time_past_or_no_time_typed_after_a_reminder_is_read_as_words(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to call mom at 10:30")
    _after(chat, clock, 31)
    assert not chat.say("snooze it until yesterday").startswith("⏰ I'll remind you")
    assert not chat.say("remind me again every day").startswith("⏰ I'll remind you about “call mom” again")


@pytest.mark.parametrize(
    ("title", "set_it", "said", "answer"),
    [
        (
            "call mom",
            "remind me to call mom at 10:30",
            "snooze call mom until 5pm",
            "⏰ I'll remind you about “call mom” again at {when}.",
        ),
        (
            "call mom",
            "remind me to call mom at 10:30",
            "push the call mom reminder to 5pm",
            "⏰ I'll remind you about “call mom” again at {when}.",
        ),
        (
            "להתקשר לאמא",
            "תזכיר לי להתקשר לאמא ב-10:30",
            "תדחה את להתקשר לאמא ל-5 אחה״צ",
            "⏰ אזכיר שוב על „להתקשר לאמא” ב{when}.",
        ),
    ],
)
def test_the_reminder_that_went_out_snoozed_by_its_name_even_after_another_request(
    chat: Conversation, clock: FakeClock, title: str, set_it: str, said: str, answer: str
) -> None:
    # "snooze call mom until 5pm" after it went out answered "You don't have any upcoming reminders."
    chat.say(set_it)
    (delivered,) = _after(chat, clock, 31)
    assert title in delivered
    chat.say(
        "add milk to my shopping list" if said[0] < "z" else "תוסיף חלב לרשימת הקניות"
    )  # another request between
    lang = "he" if said[0] > "z" else "en"
    assert chat.say(said) == answer.format(when=shown(0, 17, 0, lang))
    assert _after(chat, clock, int((at(0, 17) - clock.now).total_seconds() // 60) - 1) == []  # not before
    (again,) = _after(chat, clock, 2)
    assert title in again


def test_another_reminders_name_is_not_the_one_that_went_out(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call mom at 10:30")
    _after(chat, clock, 31)
    assert not chat.say("snooze call dad until 5pm").startswith("⏰ I'll remind you about “call mom”")


@pytest.mark.parametrize(
    ("set_", "title", "said", "marked"),
    [
        ("remind me to stretch in 15 min", "stretch", "thanks, done", "✅ Marked “stretch” done."),
        ("remind me to stretch in 15 min", "stretch", "done, thank you!", "✅ Marked “stretch” done."),
        ("תזכיר לי בעוד 15 דקות להתמתח", "להתמתח", "תודה, סיימתי", "✅ סימנתי את „להתמתח” כבוצע."),
    ],
)
def test_done_said_with_thanks_marks_it_done(
    chat: Conversation, clock: FakeClock, set_: str, title: str, said: str, marked: str
) -> None:
    # "thanks, done" was "You're welcome!" and the reminder stayed open.
    chat.say(set_)
    (delivered,) = _after(chat, clock, 16)
    assert title in delivered
    assert chat.say(said) == marked


@pytest.mark.parametrize(("lang", "set_", "snooze"), [("en", "remind me to stretch in 5 minutes", "snooze 10"),
                                                      ("he", "תזכיר לי בעוד 5 דקות להתמתח", "נודניק 10")])  # fmt: skip
def test_snooze_10_typed_as_the_button_says_it(
    chat: Conversation, clock: FakeClock, lang: str, set_: str, snooze: str
) -> None:
    # "snooze 10" was "I'm not sure I understood": the number needed its "min".
    chat.say(set_)
    _after(chat, clock, 6)
    assert chat.say(snooze).startswith("⏰")
    assert _after(chat, clock, 9) == []
    assert len(_after(chat, clock, 2)) == 1


def test_done_after_a_message_memo_did_not_understand_is_still_the_reminder_s(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to stretch in 5 minutes")
    _after(chat, clock, 6)
    # "What would you like me to do?" asks about nothing: "done" next is still the reminder's (it was
    # read as the answer to that question, and not understood again).
    assert "not sure I understood" in chat.say("what's the weather")
    assert chat.say("done") == "✅ Marked “stretch” done."
