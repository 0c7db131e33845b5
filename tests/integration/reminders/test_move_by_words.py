"""Moving a reminder the way people say it: by an amount ("push it by an hour", "bring it forward
30 minutes", "תדחה את זה בחצי שעה") and by its name without the word "reminder" ("move call mom to
7pm"). Signed WhatsApp payloads through the webhook, the ticker on moto, the fake clock; the reminder
then fires at the moved time, and not at the old one."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import at as _at
from tests.support.week import shown as _shown


def _fired_at(chat: Conversation, clock: FakeClock, when: datetime) -> list[str]:
    assert chat.stack.ticker is not None
    clock.set(when)
    chat.stack.ticker.tick()
    return chat.replies()


def test_push_it_by_an_hour_then_bring_it_forward(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("push it by an hour") == f"Updated the reminder “call mom” — now for {_shown(1, 18)}."
    assert chat.say("bring it forward 30 minutes") == (
        f"Updated the reminder “call mom” — now for {_shown(1, 17, 30)}."
    )
    assert _fired_at(chat, clock, _at(1, 17, 1)) == []  # not at the old time
    fired = _fired_at(chat, clock, _at(1, 17, 31))
    assert len(fired) == 1 and "call mom" in fired[0]


def test_move_a_reminder_by_its_name_without_saying_reminder(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to pay the bills on friday at 9am")
    assert chat.say("move call mom to 7pm") == f"Updated the reminder “call mom” — now for {_shown(1, 19)}."
    assert chat.say("push the bills by 2 hours") == (
        f"Updated the reminder “pay the bills” — now for {_shown(4, 11)}."
    )
    listed = chat.say("show my reminders")
    assert _shown(1, 19) in listed and _shown(4, 11) in listed


def test_hebrew_push_by_half_an_hour(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר ב-8 בבוקר לקנות חלב")
    moved = chat.say("תדחה את זה בחצי שעה")
    assert moved == f"עדכנתי את התזכורת „לקנות חלב” — עכשיו ל{_shown(1, 8, 30, 'he')}."
    assert chat.say("תקדים את זה בשעה").endswith(f"— עכשיו ל{_shown(1, 7, 30, 'he')}.")


def test_an_amount_without_a_direction_or_into_the_past_moves_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    # Earlier or later? Not guessed: asked ("forward" is read both ways), and a cancel leaves it.
    assert chat.say("move it an hour").startswith("Move “call mom” 1 hour earlier or 1 hour later?")
    assert chat.say("cancel") == "OK, cancelled. Nothing was changed."
    assert chat.say("move it forward an hour").startswith("Move “call mom” 1 hour earlier or 1 hour later?")
    assert chat.say("never mind") == "OK, cancelled. Nothing was changed."
    assert (
        chat.say("bring it forward 2 days") == "I couldn't update the reminder: that time has already passed."
    )
    assert _shown(1, 17) in chat.say("show my reminders")


def test_push_a_weekly_series_by_an_hour_asks_this_one_or_all(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me every monday at 9 to take out the trash")
    question = chat.say("push the trash reminder by an hour")
    assert "This one" in question and "The whole series" in question
    assert chat.tap(2) == (
        f"🔁 Updated the reminder “take out the trash” — now every Monday at 10:00 (next: {_shown(7, 10)})."
    )
    assert _fired_at(chat, clock, _at(7, 9, 1)) == []
    fired = _fired_at(chat, clock, _at(7, 10, 1))
    assert len(fired) == 1 and "take out the trash" in fired[0]


def test_make_it_6_and_change_the_bread_one_to_10am(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("actually make it 6") == f"Updated the reminder “call mom” — now for {_shown(1, 18)}."
    chat.say("remind me to buy bread on wednesday morning")
    assert chat.say("change the bread one to 10am") == (
        f"Updated the reminder “buy bread” — now for {_shown(2, 10)}."
    )
    # "change X to Y" where Y is no time is not read as a move.
    assert chat.say("change call mom to call mom and dad").startswith("I'm not sure I understood")
    listed = chat.say("what did I ask you to remind me about?")
    assert listed.startswith("Your reminders:") and "call mom" in listed and "buy bread" in listed
    assert chat.say("על מה ביקשתי שתזכיר לי?").startswith("התזכורות שלך:")


def test_move_it_to_9_is_9_on_the_reminders_own_day(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 8am")
    # 9:00 today has passed, but the reminder is tomorrow's: 9 is tomorrow 09:00, not 21:00.
    assert chat.say("move it to 9") == f"Updated the reminder “call mom” — now for {_shown(1, 9)}."
    chat.say("remind me to buy a card tomorrow at 5pm")
    # An hour without am/pm is in the half of the day nearer the reminder's time (it was 08:30).
    assert chat.say("make that 8:30") == f"Updated the reminder “buy a card” — now for {_shown(1, 20, 30)}."
    chat.say("remind me to call dad at 5pm")
    # A reminder of today: 9 is this evening's 21:00 (this morning's has passed).
    assert chat.say("move it to 9") == f"Updated the reminder “call dad” — now for {_shown(0, 21)}."


def test_move_a_named_reminder_to_9_is_9_on_its_own_day(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me about the dentist tomorrow at 11:00")
    # Not "the next 9 from now" (tonight's 21:00, then put on the reminder's day): 9 on its day.
    assert chat.say("move the dentist to 9") == (
        f"Updated the reminder “the dentist” — now for {_shown(1, 9)}."
    )
    chat.say("remind me to call dad at 5pm")
    # Today's reminder at 10:00: this morning's 9 has passed, so 9 is this evening.
    assert chat.say("move call dad to 9") == f"Updated the reminder “call dad” — now for {_shown(0, 21)}."
    # An explicit am/pm, or a 24-hour time, is taken as said.
    assert chat.say("move the dentist to 9pm") == (
        f"Updated the reminder “the dentist” — now for {_shown(1, 21)}."
    )
    assert chat.say("change the dentist to 08:30") == (
        f"Updated the reminder “the dentist” — now for {_shown(1, 8, 30)}."
    )
    fired = _fired_at(chat, clock, _at(0, 21, 1))
    assert len(fired) == 1 and "call dad" in fired[0]
    fired = _fired_at(chat, clock, _at(1, 8, 31))
    assert len(fired) == 1 and "the dentist" in fired[0]


def test_hebrew_move_a_named_reminder_to_9(chat: Conversation) -> None:
    chat.say("תזכיר לי רופא שיניים מחר ב11:00")
    assert chat.say("תזיז את רופא השיניים ל9") == (
        f"עדכנתי את התזכורת „רופא שיניים” — עכשיו ל{_shown(1, 9, language='he')}."
    )
    chat.say("תזכיר לי לקנות כרטיס מחר ב-17:00")
    assert chat.say("בעצם תעשה את זה ב-8:30") == (
        f"עדכנתי את התזכורת „לקנות כרטיס” — עכשיו ל{_shown(1, 20, 30, language='he')}."
    )


def test_move_it_an_hour_asks_which_way_and_changes_nothing_until_told(
    chat: Conversation, clock: FakeClock
) -> None:
    # "move it an hour" was "not understood"; guessing a way would move it wrong half the time.
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("move it an hour") == "Move “call mom” 1 hour earlier or 1 hour later? (e.g. “later”)"
    assert chat.say("hmm").startswith("Sorry, I didn't catch that.")  # asked again
    # Untouched; the listing only looks, so the question stays open for the answer after it.
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {_shown(1, 17)}"
    assert chat.say("earlier") == f"Updated the reminder “call mom” — now for {_shown(1, 16)}."
    assert chat.say("move call mom 30 minutes").startswith("Move “call mom” 30 minutes earlier")
    assert chat.say("2 hours later") == f"Updated the reminder “call mom” — now for {_shown(1, 18)}."
    assert _fired_at(chat, clock, _at(1, 17, 1)) == []  # not at the old time
    fired = _fired_at(chat, clock, _at(1, 18, 1))
    assert len(fired) == 1 and "call mom" in fired[0]


def test_hebrew_move_it_an_hour_asks_which_way(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    asked = chat.say("תזיז את זה בשעה")
    assert asked == "להקדים את „להתקשר לאמא” בשעה או לדחות בשעה? (למשל „מאוחר יותר”)"
    assert chat.say("מאוחר יותר").startswith("עדכנתי את התזכורת „להתקשר לאמא” — עכשיו ליום")
    assert "18:00" in chat.say("מה התזכורות שלי?")
    chat.say("תזיז את זה בחצי שעה")
    assert "17:30" in chat.say("להקדים")


def test_a_new_request_instead_of_which_way_drops_the_question(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("move it an hour").startswith("Move")
    assert chat.say("remind me to buy milk at 9pm").startswith("⏰ Reminder set: “buy milk”")
    assert chat.say("later") != f"Updated the reminder “call mom” — now for {_shown(1, 18)}."
    assert f"“call mom” — {_shown(1, 17)}" in chat.say("show my reminders")


@pytest.mark.parametrize("said", ["תזיז את הרופא לשעה 3", "תזיז את התזכורת של הרופא לשעה 15:00"])
def test_hebrew_move_to_the_hour_moves_it_there(chat: Conversation, said: str) -> None:
    # "לשעה 3" (to the hour 3) was not understood; "בשעה 3" and "ל-3" were.
    chat.say("תזכיר לי מחר בצהריים להתקשר לרופא")
    moved = chat.say(said)
    assert moved.startswith("עדכנתי את התזכורת „להתקשר לרופא” — עכשיו ליום") and "15:00" in moved, moved


def test_a_meeting_reminder_is_moved_not_refused_as_a_calendar(chat: Conversation) -> None:
    # It was "To use your calendar I need access to your account ...": the reminder is what Memo holds.
    chat.say("remind me about the meeting with the accountant on tuesday at 2:30pm")
    assert chat.say("move the meeting with the accountant to wednesday") == (
        f"Updated the reminder “the meeting with the accountant” — now for {_shown(2, 14, 30)}."
    )
    chat.say("תזכיר לי ביום חמישי ב-10:00 פגישה עם רואה החשבון")
    assert chat.say("תעביר את הפגישה עם רואה החשבון ליום שישי") == (
        f"עדכנתי את התזכורת „פגישה עם רואה החשבון” — עכשיו ל{_shown(4, 10, language='he')}."
    )
    assert chat.say("add a meeting to my calendar").startswith("To use your calendar I need access")


def test_a_move_that_names_someone_else_moves_nothing(chat: Conversation) -> None:
    # "move the call with dan to 6pm" moved “the call with mom”: the shared words were a match.
    chat.say("remind me about the call with mom tomorrow at 5pm")
    assert chat.say("move the call with dan to 6pm") == "I couldn't find a reminder matching “call with dan”."
    assert chat.say("move my meeting with dan to 5pm").startswith("I couldn't find a reminder matching")
    assert chat.say("show my reminders") == f"Your reminders:\n• “the call with mom” — {_shown(1, 17)}"


@pytest.mark.parametrize(
    "said",
    [
        "change the time of the dentist to 11:30",
        "change the dentist time to 11:30",
        "change the dentist's time to 11:30",
        "set the time of the dentist reminder to 11:30",
        "move the time of the dentist to 11:30",
        "תשנה את השעה של רופא השיניים ל-11:30",
        "תשני את השעה של התזכורת של רופא השיניים ל-11:30",
        "שנה את רופא השיניים ל-11:30",
        "תזיז את השעה של רופא השיניים ל-11:30",
    ],
)
def test_the_time_of_a_named_reminder_changed(chat: Conversation, said: str) -> None:
    # "change the time of the dentist to 11:30" looked for a reminder called “time of the dentist”;
    # the Hebrew was not understood.
    he = said[0] > "z"
    title = "רופא השיניים" if he else "the dentist"
    chat.say(f"תזכיר לי {title} מחר ב-9" if he else f"remind me about {title} tomorrow at 9")
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00" if he else "remind me to call mom tomorrow at 5pm")
    moved = chat.say(said)
    assert (
        _shown(1, 11, 30, language="he" if he else "en") in moved
        and ("רופא השיניים" if he else "dentist") in moved
    )
    listed = chat.say("מה התזכורות שלי?" if he else "show my reminders")
    assert (
        _shown(1, 11, 30, language="he" if he else "en") in listed
        and _shown(1, 17, language="he" if he else "en") in listed
    )
    assert _shown(1, 9, language="he" if he else "en") not in listed


def test_change_the_time_of_the_reminder_is_the_one_just_set(chat: Conversation) -> None:
    chat.say("remind me to water the plants tomorrow at 9")
    assert chat.say("change the time of the reminder to 4pm") == (
        f"Updated the reminder “water the plants” — now for {_shown(1, 16)}."
    )
    assert chat.say("תשנה את השעה ל-18:30").endswith(f"{_shown(1, 18, 30, language='he')}.")


@pytest.mark.parametrize(
    ("said", "day", "hour"),
    [
        ("snooze the dentist until thursday", 3, 9),
        ("snooze the dentist till 11am", 1, 11),
        ("snooze it until wednesday at 8pm", 2, 20),
        ("תעשה נודניק לרופא השיניים עד יום חמישי", 3, 9),
    ],
)
def test_snooze_until_a_day_or_time_moves_it_there(
    chat: Conversation, said: str, day: int, hour: int
) -> None:
    # "snooze the dentist until thursday" was not understood.
    he = said[0] > "z"
    chat.say("תזכיר לי רופא השיניים מחר ב-9" if he else "remind me about the dentist tomorrow at 9")
    assert _shown(day, hour, language="he" if he else "en") in chat.say(said)
    listed = chat.say("מה התזכורות שלי?" if he else "show my reminders")
    assert (
        _shown(day, hour, language="he" if he else "en") in listed
        and _shown(1, 9, language="he" if he else "en") not in listed
    )


@pytest.mark.parametrize(
    ("said", "minutes"),
    [
        ("push it by ten minutes", 10),
        ("delay it by three hours", 180),
        ("push it back by two hours", 120),
        ("move it two hours later", 120),
        ("bring it forward twenty minutes", -20),
        ("postpone it a couple of hours", 120),
        ("delay it forty-five minutes", 45),
        ("תדחה את זה בעשר דקות", 10),
        ("תדחה את זה בשלוש שעות", 180),
        ("תקדים את זה בשתי שעות", -120),
        ("תדחה את זה בעשרים דקות", 20),
    ],
)
def test_an_amount_said_in_words_moves_by_that_amount(chat: Conversation, said: str, minutes: int) -> None:
    # "push it by ten minutes" moved a 10:08 reminder to 22:00 (ten o'clock); "delay it by three hours"
    # said "updated" of a 15:00 reminder and left it at 15:00.
    he = said[0] > "z"
    chat.say("תזכיר לי להתקשר לדני מחר ב-17:00" if he else "remind me to call dan tomorrow at 5pm")
    hour, minute = divmod(17 * 60 + minutes, 60)
    language = "he" if he else "en"
    assert chat.say(said).endswith(f"{_shown(1, hour, minute, language=language)}.")
    assert _shown(1, hour, minute, language=language) in chat.say(
        "מה התזכורות שלי?" if he else "show my reminders"
    )


def test_snooze_for_an_amount_in_words_after_it_fired(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to check the oven tomorrow at 5pm")
    assert "check the oven" in _fired_at(chat, clock, _at(1, 17, 0))[0]
    assert chat.say("snooze it for ten minutes").endswith(f"{_shown(1, 17, 10)}.")
    assert "check the oven" in _fired_at(chat, clock, _at(1, 17, 10))[0]


@pytest.mark.parametrize(
    ("setup", "move", "this_one", "moved"),
    [
        (
            "remind me to take vitamins every day at 8am",
            "move the vitamins on wednesday to 9am",
            "This one — take vitamins — {wed_8}",
            "Updated the reminder “take vitamins” — now for {wed_9}.",
        ),
        (
            "remind me to take vitamins every day at 8am",
            "move wednesday's vitamins to 9am",
            "This one — take vitamins — {wed_8}",
            "Updated the reminder “take vitamins” — now for {wed_9}.",
        ),
        (
            "תזכיר לי לקחת ויטמינים כל יום ב-8 בבוקר",
            "תזיז את הויטמינים ביום רביעי לתשע",
            "רק הפעם הזאת — לקחת ויטמינים — {wed_8}",
            "עדכנתי את התזכורת „לקחת ויטמינים” — עכשיו ל{wed_9}.",
        ),
    ],
)
def test_this_one_of_a_daily_series_said_by_its_day_is_that_days_time(
    chat: Conversation, clock: FakeClock, setup: str, move: str, this_one: str, moved: str
) -> None:
    # "This one" is Wednesday's 08:00, not the series' next time (Tuesday's): moving that lost
    # Tuesday's and left Wednesday with two.
    lang = "he" if "תזכיר" in setup else "en"
    days = {"wed_8": _shown(2, 8, 0, lang), "wed_9": _shown(2, 9, 0, lang)}
    chat.say(setup)
    assert this_one.format(**days) in chat.say(move)
    assert chat.tap(1) == moved.format(**days)
    assert len(_fired_at(chat, clock, _at(1, 8, 1))) == 1  # Tuesday's stays
    assert _fired_at(chat, clock, _at(2, 8, 1)) == []  # Wednesday's 08:00 moved ...
    assert len(_fired_at(chat, clock, _at(2, 9, 1))) == 1  # ... to 09:00, once
    assert len(_fired_at(chat, clock, _at(3, 8, 1))) == 1  # and the series goes on
