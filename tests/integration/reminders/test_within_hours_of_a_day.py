"""A reminder every hour (or every few hours or minutes) within the hours of a day: "remind me to
drink water every hour between 9am and 5pm", "every 2 hours from 10 to 6 on weekdays", "כל שעה בין
9 ל-5". It was every hour of the day and night, titled "drink water between and 5pm". Signed
payloads through the webhook, the ticker on moto, the fake clock (a Monday at 10:00, Jerusalem): it
fires at each of its hours and never outside them, and moves and changes as a whole."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown


def _hours_fired(chat: Conversation, clock: FakeClock, day: int) -> list[int]:
    """The hours of `day` at which the reminder went out, the ticker run a minute past each hour
    (what came before that day is sent first, and left out)."""
    fired(chat, clock, day - 1, 23, 59)
    return [hour for hour in range(24) if fired(chat, clock, day, hour)]


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        (
            "remind me to drink water every hour between 9am and 5pm",
            "🔁 Reminder set: “drink water” every hour from 09:00 to 17:00 (first: {first}).",
        ),
        (
            "remind me every hour from 9 to 5 to drink water",
            "🔁 Reminder set: “drink water” every hour from 09:00 to 17:00 (first: {first}).",
        ),
        (
            "תזכיר לי לשתות מים כל שעה בין 9 ל-5",
            "🔁 קבעתי תזכורת „לשתות מים” כל שעה בין 09:00 ל-17:00 (הראשונה: {first}).",
        ),
    ],
)
def test_every_hour_within_working_hours_fires_only_then(
    chat: Conversation, clock: FakeClock, said: str, reply: str
) -> None:
    lang = "he" if said[0] > "z" else "en"
    assert chat.say(said) == reply.format(first=shown(0, 11, 0, lang))
    assert _hours_fired(chat, clock, 1) == list(range(9, 18))  # none at night
    assert _hours_fired(chat, clock, 2) == list(range(9, 18))


def test_on_the_days_said_and_every_few_hours(chat: Conversation, clock: FakeClock) -> None:
    # Israel's work week is Sunday to Thursday: Friday (day 4) and Saturday (5) are quiet.
    answer = chat.say("remind me to stretch every 2 hours from 10 to 6 on weekdays")
    assert answer.startswith("🔁 Reminder set: “stretch” every 2 hours from 10:00 to 18:00, every weekday")
    assert _hours_fired(chat, clock, 3) == [10, 12, 14, 16, 18]
    assert _hours_fired(chat, clock, 4) == []
    assert _hours_fired(chat, clock, 5) == []
    assert _hours_fired(chat, clock, 6) == [10, 12, 14, 16, 18]


def test_moved_or_made_more_often_it_keeps_its_hours_as_a_whole(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to drink water every hour between 9am and 5pm")
    assert "The whole series" in chat.say("move the water reminder to 10am")
    assert chat.tap(2).startswith(
        "🔁 Updated the reminder “drink water” — now every hour from 10:00 to 18:00"
    )
    assert "every 2 hours from 10:00 to 18:00" in chat.say("change the water reminder to every 2 hours")
    assert "every hour from 11:00 to 19:00" not in chat.say("show my reminders")
    assert _hours_fired(chat, clock, 1) == [10, 12, 14, 16, 18]


def test_made_every_two_hours_it_goes_on_from_its_next_time(chat: Conversation, clock: FakeClock) -> None:
    # It was "next: 13:00": two hours from now, the 11:00 skipped.
    chat.say("remind me to drink water every hour between 9am and 5pm")
    changed = chat.say("change it to every 2 hours")
    assert changed.endswith(f"every 2 hours from 09:00 to 17:00 (next: {shown(0, 11)}).")
    assert _hours_fired(chat, clock, 1) == [9, 11, 13, 15, 17]


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        (
            "remind me to check the baby every hour from 10pm to 2am",
            "🔁 Reminder set: “check the baby” every hour from 22:00 to 02:00 (first: {first}).",
        ),
        (
            "תזכיר לי לבדוק את התינוק כל שעה מ-22 עד 2",
            "🔁 קבעתי תזכורת „לבדוק את התינוק” כל שעה בין 22:00 ל-02:00 (הראשונה: {first}).",
        ),
    ],
)
def test_hours_over_midnight_fire_through_the_night_only(
    chat: Conversation, clock: FakeClock, said: str, reply: str
) -> None:
    # It was every hour of the day, titled "check the baby from to 2am" (in Hebrew, "עד 2" was
    # read as February the 2nd).
    lang = "he" if said[0] > "z" else "en"
    assert chat.say(said) == reply.format(first=shown(0, 22, 0, lang))
    # The ticker run a minute past each hour from now on, as EventBridge fires each time.
    hours = [(day, hour) for day in (0, 1) for hour in range(24) if (day, hour) > (0, 10)]
    came = [(day, hour) for day, hour in hours if fired(chat, clock, day, hour)]
    assert came == [(0, 22), (0, 23), (1, 0), (1, 1), (1, 2), (1, 22), (1, 23)]


@pytest.mark.parametrize("minute", [58, 59])
@pytest.mark.parametrize("hour", [14, 15])
def test_hours_fired_late_together_send_once_and_the_next_hour_keeps_its_own_time(
    chat: Conversation, clock: FakeClock, hour: int, minute: int
) -> None:
    # The ticker wakes a minute or two before the next hour, with the firings since noon waiting:
    # one message for them. The next hour was sent with them (within the two minutes a firing may
    # come early), and then its own firing found it sent.
    chat.say("remind me to drink water every hour between 9am and 5pm")

    def sent(hour: int, minute: int = 1) -> list[str]:
        return [text.split("\n")[0] for text in fired(chat, clock, 0, hour, minute)]

    assert sent(12) == ["⏰ Reminder: drink water"]
    assert sent(hour, minute) == ["⏰ Reminder: drink water"]
    assert sent(hour + 1) == ["⏰ Reminder: drink water"]
    assert sent(hour + 2) == ["⏰ Reminder: drink water"]


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        (
            "remind me to stretch every day between 10am and 6pm every 2 hours",
            "🔁 Reminder set: “stretch” every 2 hours from 10:00 to 18:00 (first: {first}).",
        ),
        (
            "remind me daily to stretch every 2 hours from 10 to 6",
            "🔁 Reminder set: “stretch” every 2 hours from 10:00 to 18:00 (first: {first}).",
        ),
        (
            "remind me to stretch every 2 hours between 10am and 6pm every day",
            "🔁 Reminder set: “stretch” every 2 hours from 10:00 to 18:00 (first: {first}).",
        ),
        (
            "תזכיר לי כל יום להתמתח כל שעתיים בין 10 ל-18",
            "🔁 קבעתי תזכורת „להתמתח” כל שעתיים בין 10:00 ל-18:00 (הראשונה: {first}).",
        ),
        (
            "תזכיר לי להתמתח כל שעתיים מ-10 עד 18 כל יום",
            "🔁 קבעתי תזכורת „להתמתח” כל שעתיים בין 10:00 ל-18:00 (הראשונה: {first}).",
        ),
    ],
)
def test_every_day_said_beside_the_hours_is_no_part_of_the_title(
    chat: Conversation, clock: FakeClock, said: str, reply: str
) -> None:
    # It was "stretch every day", and "כל יום ... עד 18" read "עד 18" as "until the 18th".
    hebrew = said.startswith("תזכיר")
    first = shown(0, 12, language="he" if hebrew else "en")
    assert chat.say(said) == reply.format(first=first)
    assert _hours_fired(chat, clock, 1) == [10, 12, 14, 16, 18]
    assert _hours_fired(chat, clock, 30) == [10, 12, 14, 16, 18]


@pytest.mark.parametrize(
    "said", ["make it every hour between 10am and 6pm", "change it to every hour between 10 and 6"]
)
def test_new_hours_said_with_between_are_one_change(chat: Conversation, clock: FakeClock, said: str) -> None:
    # "make it every hour between 10am and 6pm" was two changes ("from 10am" and "to 6pm"), asked
    # about as such, and an answer to that question ran both.
    chat.say("remind me to drink water every hour between 9am and 5pm")
    assert chat.say(said) == (
        f"🔁 Updated the reminder “drink water” — now every hour from 10:00 to 18:00 (next: {shown(0, 11)})."
    )
    assert _hours_fired(chat, clock, 1) == list(range(10, 19))


@pytest.mark.parametrize(
    ("said", "answer", "lang"),
    [
        ("remind me to check the baby every hour from 10pm to 2am on weekdays", "every day", "en"),
        ("remind me to check the baby every hour between 11pm and 1am on weekends", "daily", "en"),
        ("תזכיר לי לבדוק את התינוק כל שעה בין 22 ל-2 בימי חול", "כל יום", "he"),
    ],
)
def test_hours_past_midnight_on_some_days_are_asked_and_every_day_sets_them(
    chat: Conversation, clock: FakeClock, said: str, answer: str, lang: str
) -> None:
    # "from 10pm to 2am on weekdays" fired on Sunday's small hours (after Saturday night) and
    # never on Friday's: the days of one schedule are the days of each of its times.
    asked = chat.say(said)
    assert asked.startswith("Hours past midnight on some days only" if lang == "en" else "שעות אחרי חצות")
    assert chat.say("show my reminders" if lang == "en" else "תראה לי את התזכורות") in (
        "You have no upcoming reminders.",
        "אין לך תזכורות קרובות.",
    )
    chat.say(said)
    set_now = chat.say(answer)
    assert set_now.startswith("🔁"), set_now
    came = [
        (day, hour)
        for day in (0, 1)
        for hour in range(24)
        if (day, hour) > (0, 10) and fired(chat, clock, day, hour)
    ]
    # Every night, through midnight: Monday night's hours and Tuesday's small hours both come.
    assert {(0, 23), (1, 0), (1, 23)} <= set(came) and all(hour in (22, 23, 0, 1, 2) for _, hour in came), (
        came
    )


@pytest.mark.parametrize(
    "said", ["make it from 10am to 6pm", "change it to between 10 and 6", "change the hours to 10 to 6"]
)
def test_new_hours_alone_keep_how_often_and_undo_brings_the_old_ones_back(
    chat: Conversation, clock: FakeClock, said: str
) -> None:
    # "make it from 10am to 6pm" moved the reminder to 10:00; "change it to between 10 and 6" was
    # not understood.
    chat.say("remind me to drink water every 2 hours between 9am and 5pm")
    assert chat.say(said) == (
        f"🔁 Updated the reminder “drink water” — now every 2 hours from 10:00 to 18:00 (next: {shown(0, 12)})."
    )
    assert chat.say("undo").startswith("↩️")
    assert "every 2 hours from 09:00 to 17:00" in chat.say("show my reminders")
    assert _hours_fired(chat, clock, 1) == [9, 11, 13, 15, 17]


def test_hebrew_new_hours_alone(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי לשתות מים כל שעתיים בין 9 ל-17")
    changed = chat.say("תעשה את זה בין 10 ל-18")
    assert changed.startswith("🔁") and "כל שעתיים בין 10:00 ל-18:00" in changed, changed
    assert _hours_fired(chat, clock, 1) == [10, 12, 14, 16, 18]


def test_new_hours_for_a_reminder_that_comes_once_change_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("make it from 10 to 6") == (
        "“call mom” doesn't repeat within hours of the day, so it has no hours to change; nothing was "
        "changed. To have it come every hour, say so (e.g. “every hour from 10 to 6”)."
    )
    assert f"“call mom” — {shown(1, 17)}" in chat.say("show my reminders")
