"""Skipping times of a repeating reminder the way people say it ("skip next week", "skip the gym this
week", "skip tomorrow", "תדלג על השבוע הבא") and stopping one by its name ("stop the plant
reminders"). Signed payloads through the webhook, the ticker on moto, the fake clock (a Monday at
10:00, Jerusalem). A skip that names days skips each time of the series on them, its next one or
later ones; days it does not come on are answered, and nothing is skipped instead."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

import pytest

from memo.text.months import MONTHS_EN, MONTHS_HE
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import MONDAY, shown
from tests.support.week import fired as _fired


def test_skip_next_week_skips_only_that_monday(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me every monday at 8 to take out the trash")
    question = chat.say("skip next week")
    assert question.startswith(
        f"Before I go ahead: I'm about to skip “take out the trash” once — {shown(7, 8)}; it goes on after that."
    )
    assert chat.say("approve") == (
        f"✅ Skipped “take out the trash” on {shown(7, 8)}; the next one is {shown(14, 8)}."
    )
    assert _fired(chat, clock, 7, 8) == []  # next Monday: skipped
    (fired,) = _fired(chat, clock, 14, 8)
    assert "take out the trash" in fired  # the one after it comes


def test_skip_words_that_name_a_later_time_skip_that_time(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to water the plants every day at 7pm")
    # The next time is tonight: "tomorrow" is the one after it, and only it is skipped (it was
    # refused: only the next time could be skipped).
    question = chat.say("skip tomorrow")
    assert question.startswith(
        f"Before I go ahead: I'm about to skip “water the plants” once — {shown(1, 19)}; it goes on after that."
    )
    assert chat.say("yes") == (
        f"✅ Skipped “water the plants” on {shown(1, 19)}; it still comes on the other days (next: {shown(0, 19)})."
    )
    (tonight,) = _fired(chat, clock, 0, 19)
    assert "water the plants" in tonight
    assert _fired(chat, clock, 1, 19) == []  # tomorrow: skipped
    (after,) = _fired(chat, clock, 2, 19)
    assert "water the plants" in after


def test_skip_words_that_name_days_it_does_not_come_skip_nothing(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me every monday at 8 to take out the trash")
    answer = chat.say("skip the trash on wednesday")
    assert answer == (
        f"“take out the trash” doesn't come then, so there's nothing to skip: its next time is {shown(7, 8)}."
    )
    assert chat.say("yes").startswith("I'm not waiting on a question")
    (fired,) = _fired(chat, clock, 7, 8)
    assert "take out the trash" in fired


def test_skip_the_gym_this_week_and_next_week_skips_each_of_its_times_then(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    assert chat.say("skip the gym next week").startswith(
        f"Before I go ahead: I'm about to skip “go to the gym” twice — {shown(8, 19)} and {shown(10, 19)}; "
        "it goes on after that."
    )
    assert chat.say("yes") == (
        f"✅ Skipped “go to the gym” on {shown(8, 19)} and {shown(10, 19)}; it still comes on the other days (next: {shown(1, 19)})."
    )
    listed = chat.say("what do I have next week?")
    assert listed.startswith("You have no reminders from"), listed
    assert "gym" in chat.say("what do I have this week?")  # this week's still come
    (fired,) = _fired(chat, clock, 1, 19)
    assert "go to the gym" in fired
    _fired(chat, clock, 3, 19)
    assert _fired(chat, clock, 8, 19) == [] and _fired(chat, clock, 10, 19) == []
    (back,) = _fired(chat, clock, 15, 19)
    assert "go to the gym" in back


def test_hebrew_skip_the_gym_next_week(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום שלישי וחמישי ב7 בערב ללכת לחדר כושר")
    question = chat.say("תדלג על החדר כושר בשבוע הבא")
    assert question.startswith(
        f"רגע לפני: אני עומד לדלג פעמיים על „ללכת לחדר כושר” — {shown(8, 19, language='he')} "
        f"ו{shown(10, 19, language='he')}; אחרי זה היא ממשיכה כרגיל."
    )
    assert chat.say("כן").startswith("✅ דילגתי על „ללכת לחדר כושר”")
    assert chat.say("מה יש לי בשבוע הבא?").startswith("אין לך תזכורות")


def test_a_daily_series_skipped_for_a_week_says_how_many_times(chat: Conversation) -> None:
    chat.say("remind me every day at 8am to take pills")
    question = chat.say("skip the pills next week")
    assert question.startswith(
        f"Before I go ahead: I'm about to skip “take pills” 7 times — {shown(6, 8)} to {shown(12, 8)}; "
    )
    assert chat.say("yes") == (
        f"✅ Skipped “take pills” 7 times, {shown(6, 8)} to {shown(12, 8)}; it still comes on the other days (next: {shown(1, 8)})."
    )
    assert chat.say("undo").startswith("↩️ Undone: “take pills” is back")
    assert "7 times" in chat.say("what do I have next week?")


def test_hebrew_skip_next_week(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום שני ב8 להוציא את הזבל")
    # Was "אני עומד למחוק תזכורת אחת": a skip said as a delete.
    question = chat.say("תדלג על השבוע הבא")
    assert question.startswith(
        f"רגע לפני: אני עומד לדלג פעם אחת על „להוציא את הזבל” — {shown(7, 8, language='he')}; "
        "אחרי זה היא ממשיכה כרגיל.\nלאשר, לערוך או לדחות?"
    )
    assert "למחוק" not in question
    assert chat.say("כן").startswith("✅ דילגתי על „להוציא את הזבל”")


def test_stop_the_plant_reminders_asks_for_the_whole_series(chat: Conversation) -> None:
    chat.say("remind me to water the plants every day at 7pm")
    question = chat.say("stop the plant reminders")
    assert "“water the plants”" in question and "the whole series" in question
    assert chat.say("reject").startswith("OK")
    assert "water the plants" in chat.say("what's coming up?")
    chat.say("תזכיר לי לקחת ויטמינים כל בוקר ב8")
    assert "כל הסדרה" in chat.say("תפסיק את התזכורת של הוויטמינים")


def test_skip_tomorrows_skips_the_one_due_tomorrow(chat: Conversation, clock: FakeClock) -> None:
    # Was "I couldn't find a reminder matching “s”": the possessive of "tomorrow's" read as a name.
    chat.say("remind me every weekday at 7:30 to leave for work")
    # Was "I'm about to delete 1 reminder: … — only the next time": a skip said as a delete.
    question = chat.say("skip tomorrow's")
    assert question.startswith(
        f"Before I go ahead: I'm about to skip “leave for work” once — {shown(1, 7, 30)}; it goes on after that.\n"
        "Approve, edit or reject?"
    )
    assert chat.say("yes") == (
        f"✅ Skipped “leave for work” on {shown(1, 7, 30)}; the next one is {shown(2, 7, 30)}."
    )
    assert _fired(chat, clock, 1, 7, 31) == []
    chat.say("remind me to water the plants every day at 7pm")
    assert "“water the plants”" in chat.say("skip the one on wednesday")


def test_hebrew_skip_tomorrows_vitamins_says_skip(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי לקחת ויטמינים כל יום ב-9")
    question = chat.say("תדלג על הוויטמינים מחר")
    assert question.startswith(
        f"רגע לפני: אני עומד לדלג פעם אחת על „לקחת ויטמינים” — {shown(1, 9, language='he')}; "
        "אחרי זה היא ממשיכה כרגיל."
    )
    assert chat.say("כן").startswith("✅ דילגתי על „לקחת ויטמינים”")
    assert _fired(chat, clock, 1, 9) == []  # tomorrow's is skipped
    (fired,) = _fired(chat, clock, 2, 9)
    assert "לקחת ויטמינים" in fired  # and it goes on


def test_skip_tomorrow_right_after_one_went_out_is_about_that_one(
    chat: Conversation, clock: FakeClock
) -> None:
    # A day after both were set, the latest actions are gone: "skip tomorrow" right after the dog
    # reminder went out was not understood. The one that just went out is what it is about.
    chat.say("remind me every day at 8pm to walk the dog")
    chat.say("remind me every day at 7am to take vitamins")
    _fired(chat, clock, 1, 7)
    assert any("walk the dog" in m for m in _fired(chat, clock, 1, 20))
    question = chat.say("skip tomorrow")
    assert question.startswith(f"Before I go ahead: I'm about to skip “walk the dog” once — {shown(2, 20)}")
    assert chat.say("yes").startswith(f"✅ Skipped “walk the dog” on {shown(2, 20)}")
    assert not [m for m in _fired(chat, clock, 2, 20) if "walk the dog" in m]
    assert any("take vitamins" in m for m in _fired(chat, clock, 3, 7))


def test_hebrew_skip_tomorrow_after_a_reminder_went_out(chat: Conversation, clock: FakeClock) -> None:
    chat.say("תזכיר לי כל יום בשמונה בערב לטייל עם הכלב")
    chat.say("תזכיר לי כל יום בשבע בבוקר לקחת ויטמינים")
    assert any("לטייל עם הכלב" in m for m in _fired(chat, clock, 1, 20))
    question = chat.say("תדלג על מחר")
    assert "„לטייל עם הכלב”" in question and "ויטמינים" not in question


def test_long_after_a_reminder_went_out_it_is_not_what_it_means(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me every day at 8pm to walk the dog")
    chat.say("remind me every day at 7am to take vitamins")
    _fired(chat, clock, 1, 20)
    _fired(chat, clock, 2, 18)  # nearly a day later: what went out is no longer "it"
    assert "walk the dog" not in chat.say("skip tomorrow")


def _days_to_the_next_first() -> int:
    """Days from the test week's Monday to the next 1st of a month (its 09:00 is then still ahead)."""
    following = (MONDAY.replace(day=1) + timedelta(days=32)).replace(day=1)
    return (following - MONDAY).days


def test_skip_next_month_skips_a_monthly_reminder_s_next_time(chat: Conversation, clock: FakeClock) -> None:
    # Was "The next “pay rent” is <the 1st>, not then": next month was read as the day a month on.
    first = _days_to_the_next_first()
    chat.say("remind me to pay rent on the 1st of every month at 9")
    assert f"skip “pay rent” once — {shown(first, 9)}" in chat.say("skip next month")
    assert chat.say("yes").startswith(f"✅ Skipped “pay rent” on {shown(first, 9)}")
    assert _fired(chat, clock, first, 9) == []


def test_hebrew_skip_next_month(chat: Conversation) -> None:
    first = _days_to_the_next_first()
    chat.say("תזכיר לי ב-1 לכל חודש ב-9 לשלם שכירות")
    question = chat.say("תדלג על החודש הבא")
    assert "לדלג פעם אחת על „לשלם שכירות”" in question and shown(first, 9, language="he") in question


def test_stop_repeating_it_says_what_can_be_done_and_changes_nothing(chat: Conversation) -> None:
    # Was "I'm not sure I understood".
    chat.say("remind me every monday at 8 to take out the trash")
    assert chat.say("stop repeating it").startswith("I can't turn a repeating reminder into a one-time one.")
    assert "every Monday" in chat.say("what are my reminders?")
    assert chat.say("תפסיק לחזור על זה").startswith("אין לי אפשרות להפוך תזכורת חוזרת לחד־פעמית.")


def test_undo_after_a_skip_gives_the_series_its_skipped_time_back(
    chat: Conversation, clock: FakeClock
) -> None:
    # Was "There's nothing left to undo": a skip kept nothing for Undo.
    chat.say("remind me every monday at 8 to take out the trash")
    chat.say("skip next week")
    assert chat.say("yes").startswith("✅ Skipped “take out the trash”")
    assert chat.say("undo") == (
        f"↩️ Undone: “take out the trash” is back at {shown(7, 8)} (every Monday at 08:00)."
    )
    (fired,) = _fired(chat, clock, 7, 8)
    assert "take out the trash" in fired


def test_hebrew_undo_after_a_skip(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום שני ב8 להוציא את הזבל")
    chat.say("תדלג על השבוע הבא")
    chat.say("כן")
    # A skip is a change: its button does not say "undo the delete".
    assert [c.title for c in chat.choices] == ["ביטול השינוי"]
    assert chat.say("תבטל את מה שעשית").startswith("↩️")
    assert shown(7, 8, language="he") in chat.say("מה התזכורות שלי?")


def test_a_skipped_week_stays_skipped_when_the_series_moves_to_another_time(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    chat.say("skip the gym next week")
    chat.say("yes")
    chat.say("move the gym to 8pm")
    assert chat.say("the whole series").startswith("🔁 Updated the reminder “go to the gym” — now every")
    assert chat.say("what do I have next week?").startswith("You have no reminders from")
    (fired,) = _fired(chat, clock, 1, 20)
    assert "go to the gym" in fired
    _fired(chat, clock, 3, 20)
    assert _fired(chat, clock, 8, 20) == [] and _fired(chat, clock, 10, 20) == []
    (back,) = _fired(chat, clock, 15, 20)
    assert "go to the gym" in back


@pytest.mark.parametrize(
    "said",
    [
        "don't remind me about the gym next week",
        "pause the gym reminders next week",
        "cancel the gym next week",
        "cancel next week's gym",
        "I'm on vacation next week, skip the gym",
        "no gym next week",
        "no more gym next week please",
    ],
)
def test_next_weeks_gym_said_in_other_words_is_the_same_skip(chat: Conversation, said: str) -> None:
    # They were a new reminder "about the gym", not understood, or the next time only (this week's).
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    assert chat.say(said).startswith(
        f"Before I go ahead: I'm about to skip “go to the gym” twice — {shown(8, 19)} and {shown(10, 19)}; "
    )
    assert chat.say("yes").startswith("✅ Skipped “go to the gym”")
    assert chat.say("what do I have next week?").startswith("You have no reminders from")


def test_a_stretch_from_today_skips_each_time_in_it(chat: Conversation) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    assert chat.say("pause the gym for two weeks").startswith(
        f"Before I go ahead: I'm about to skip “go to the gym” 4 times — {shown(1, 19)} to {shown(10, 19)}; "
    )
    chat.say("yes")
    assert chat.say("what's my next reminder?") == (
        f"Your next reminder: “go to the gym” — every Tuesday and Thursday at 19:00 (next: {shown(15, 19)})"
    )


def test_cancel_a_one_time_reminder_by_its_day_deletes_it_and_names_no_part(chat: Conversation) -> None:
    chat.say("remind me tomorrow at 9am to go to the dentist")
    question = chat.say("cancel the dentist tomorrow")
    assert question.startswith(
        f"Before I go ahead: I'm about to delete 1 reminder:\n1. “go to the dentist” — {shown(1, 9)}\n"
    )
    assert "next time" not in question and "series" not in question
    assert chat.say("yes") == "Deleted the reminder “go to the dentist”."
    assert chat.say("what do I have tomorrow?").startswith("You have no reminders on")
    chat.say("remind me tomorrow at 9am to go to the dentist")
    assert chat.say("cancel the dentist on friday") == (
        f"“go to the dentist” is on {shown(1, 9)}, not then, so I haven't deleted anything."
    )


def test_hebrew_dont_remind_me_about_the_gym_next_week(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום שלישי וחמישי ב7 בערב ללכת לחדר כושר")
    # Was "לא מצאתי תזכורת שמתאימה ל„החדר כושר בשבוע הבא”".
    assert chat.say("אל תזכיר לי על החדר כושר בשבוע הבא").startswith(
        "רגע לפני: אני עומד לדלג פעמיים על „ללכת לחדר כושר”"
    )
    assert chat.say("כן").startswith("✅ דילגתי")
    assert "כל הסדרה" in chat.say("אל תזכיר לי על החדר כושר")  # no days: the whole series, asked


def test_hebrew_without_the_gym_next_week_is_its_skip(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום שלישי וחמישי ב7 בערב ללכת לחדר כושר")
    assert chat.say("בלי חדר כושר בשבוע הבא").startswith("רגע לפני: אני עומד לדלג פעמיים על „ללכת לחדר כושר”")
    assert chat.say("כן").startswith("✅ דילגתי")
    assert chat.say("מה יש לי בשבוע הבא?").startswith("אין לך תזכורות")


def test_skip_the_gym_the_week_after_next(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    assert chat.say("skip the gym the week after next").startswith(
        f"Before I go ahead: I'm about to skip “go to the gym” twice — {shown(15, 19)} and {shown(17, 19)}; "
    )
    chat.say("yes")
    assert "gym" in chat.say("what do I have next week?")
    assert chat.say("what do I have the week after next?").startswith("You have no reminders from")
    _fired(chat, clock, 8, 19)
    _fired(chat, clock, 10, 19)
    assert _fired(chat, clock, 15, 19) == [] and _fired(chat, clock, 17, 19) == []
    (back,) = _fired(chat, clock, 22, 19)
    assert "go to the gym" in back


def test_a_skip_of_more_than_a_year_is_refused_and_skips_nothing(chat: Conversation) -> None:
    # Was "Sorry, something went wrong on my side": the days failed the args' bound in resolution.
    chat.say("remind me every tuesday and thursday at 7pm to go to the gym")
    assert chat.say("skip the gym for 99 weeks") == (
        "I can skip at most a year of days at once, so I haven't skipped anything."
    )
    assert chat.say("what's my next reminder?") == (
        f"Your next reminder: “go to the gym” — every Tuesday and Thursday at 19:00 (next: {shown(1, 19)})"
    )
    assert chat.say("skip the gym for 52 weeks").startswith(
        "Before I go ahead: I'm about to skip “go to the gym” 104 times"
    )


@pytest.mark.parametrize(
    ("setup", "skip", "move", "said"),
    [
        (
            "remind me every tuesday and thursday at 7pm to go to the gym",
            "skip the gym next week",
            "move the gym to 8pm",
            "There's no time to change on a skip. Nothing was changed or skipped.",
        ),
        (
            "תזכיר לי כל יום שלישי וחמישי ב7 בערב ללכת לחדר כושר",
            "תדלג על החדר כושר בשבוע הבא",
            "תעביר את החדר כושר ל8 בערב",
            "לדילוג אין שעה לשנות. לא שיניתי ולא דילגתי על כלום.",
        ),
    ],
    ids=["en", "he"],
)
def test_a_new_time_said_to_a_skip_question_is_explained_and_changes_nothing(
    chat: Conversation, clock: FakeClock, setup: str, skip: str, move: str, said: str
) -> None:
    chat.say(setup)
    question = chat.say(skip)
    answer = chat.say(move)
    assert answer.startswith(said), answer
    assert question.splitlines()[0] in answer  # the same question, asked again
    chat.say("reject" if said.startswith("There") else "לא")
    (fired,) = _fired(chat, clock, 8, 19)  # neither skipped nor moved
    assert "gym" in fired or "חדר כושר" in fired


@pytest.mark.parametrize(
    "stop", ["stop reminding me about the gym", "stop the gym reminder", "stop my gym reminder"]
)
def test_a_stop_of_the_reminder_asked_about_is_its_own_request(chat: Conversation, stop: str) -> None:
    # While "skip the gym tomorrow" was asked, it was "OK, cancelled. Nothing was changed.": the
    # request was lost. It is asked as the delete it is, the whole series shown.
    chat.say("remind me to go to the gym every day at 7am")
    chat.say("skip the gym tomorrow")
    asked = chat.say(stop)
    assert asked.startswith("Before I go ahead: I'm about to delete 1 reminder:\n1. “go to the gym”")
    assert "the whole series" in asked
    assert chat.say("yes") == "Deleted the reminder “go to the gym”."
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_a_plain_stop_still_cancels_the_question(chat: Conversation) -> None:
    chat.say("remind me to go to the gym every day at 7am")
    chat.say("skip the gym tomorrow")
    assert chat.say("stop") == "OK, cancelled. Nothing was changed."
    assert "go to the gym" in chat.say("show my reminders")


@pytest.mark.parametrize(
    ("series", "skip", "taken_back", "cancelled", "listing"),
    [
        (
            "remind me every day at 8am to take vitamins",
            "skip tomorrow",
            "cancel the skip",
            "OK, cancelled",
            "show my reminders",
        ),
        (
            "remind me every day at 8am to take vitamins",
            "skip tomorrow",
            "don't skip it",
            "OK, cancelled",
            "show my reminders",
        ),
        (
            "תזכיר לי כל יום ב-8 בבוקר לקחת ויטמינים",
            "תדלג על מחר",
            "תבטל את הדילוג",
            "בסדר, ביטלתי",
            "מה התזכורות שלי?",
        ),
        (
            "תזכיר לי כל יום ב-8 בבוקר לקחת ויטמינים",
            "תדלג על מחר",
            "אל תדלג",
            "בסדר, ביטלתי",
            "מה התזכורות שלי?",
        ),
    ],
)
def test_a_skip_taken_back_while_it_is_asked_is_cancelled(
    chat: Conversation, series: str, skip: str, taken_back: str, cancelled: str, listing: str
) -> None:
    # "cancel the skip" answered "I couldn't find a reminder matching “skip”. I've set aside the
    # earlier request (skip “” on Tue 24 Nov)".
    chat.say(series)
    assert chat.say(skip).startswith(("Before I go ahead", "רגע לפני"))
    assert chat.say(taken_back).startswith(cancelled)
    assert shown(1, 8, language="he" if cancelled.startswith("ב") else "en") in chat.say(listing)


@pytest.mark.parametrize(
    ("said", "n"),
    [
        ("skip the next two vitamins", 2),
        ("skip the vitamins twice", 2),
        ("skip the vitamins the next 3 times", 3),
        ("תדלג על הויטמינים פעמיים", 2),
        ("תדלג על שלוש הפעמים הבאות של הויטמינים", 3),
    ],
)
def test_skip_the_next_few_times_skips_that_many_and_no_more(
    chat: Conversation, clock: FakeClock, said: str, n: int
) -> None:
    # "skip the next two vitamins" looked for a reminder called "two vitamins".
    hebrew = said[0] > "z"
    chat.say(
        "תזכיר לי לקחת ויטמינים כל יום ב-8 בבוקר" if hebrew else "remind me to take vitamins every day at 8am"
    )
    asked = chat.say(said)
    assert (
        shown(1, 8, 0, "he" if hebrew else "en") in asked
        and shown(n + 1, 8, 0, "he" if hebrew else "en") not in asked
    )
    assert chat.tap(1).startswith("✅")
    for day in range(1, n + 1):
        assert _fired(chat, clock, day, 8) == []  # each of the next n is skipped
    (came,) = _fired(chat, clock, n + 1, 8)
    assert "ויטמינים" in came or "vitamins" in came  # and the one after them comes


def test_a_number_of_times_of_a_series_within_a_day_is_not_guessed(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to drink water every 2 hours")
    assert "comes more than once a day" in chat.say("skip the water twice")
    (came,) = _fired(chat, clock, 0, 12)
    assert "drink water" in came  # nothing was skipped


@pytest.mark.parametrize(
    ("setup", "said", "answer"),
    [
        (
            "remind me to take vitamins every day at 8am",
            "stop the vitamins after friday",
            "🔁 Updated the reminder “take vitamins” — now every day at 08:00, until {friday} (next: {first}).",
        ),
        (
            "תזכיר לי לקחת ויטמינים כל יום ב-8 בבוקר",
            "תפסיק את הויטמינים אחרי יום שישי",
            "🔁 עדכנתי את התזכורת „לקחת ויטמינים” — עכשיו כל יום ב-08:00, עד {friday} (הבאה: {first}).",
        ),
    ],
)
def test_a_series_stopped_after_a_day_comes_until_then_only(
    chat: Conversation, clock: FakeClock, setup: str, said: str, answer: str
) -> None:
    # "stop the vitamins after friday" was not understood.
    hebrew = said[0] > "z"
    chat.say(setup)
    friday = f"{MONDAY + timedelta(days=4):%-d.%-m}" if hebrew else f"{MONDAY + timedelta(days=4):%a %-d %b}"
    assert chat.say(said) == answer.format(friday=friday, first=shown(1, 8, 0, "he" if hebrew else "en"))
    assert len(_fired(chat, clock, 4, 8)) == 1  # friday's is the last
    assert _fired(chat, clock, 5, 8) == [] and _fired(chat, clock, 8, 8) == []


def test_a_reminder_that_comes_once_has_no_end_to_change(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("stop call mom after friday") == (
        "“call mom” doesn't repeat, so it has no end to change; nothing was changed."
    )
    assert shown(1, 17) in chat.say("show my reminders")


@pytest.mark.parametrize(
    ("setup", "said", "lang"),
    [
        (
            "remind me every monday at 8 to take out the trash",
            "stop reminding me about the trash after {month}",
            "en",
        ),
        (
            "remind me every monday at 8 to take out the trash",
            "stop the trash reminder at the end of {month}",
            "en",
        ),
        ("תזכיר לי כל יום שני ב-8 להוציא את הזבל", "תפסיק להזכיר לי על הזבל אחרי {month}", "he"),
    ],
)
def test_a_series_stopped_after_a_month_ends_on_its_last_day(
    chat: Conversation, setup: str, said: str, lang: str
) -> None:
    # "stop reminding me about the trash after december" asked to delete the whole series; "stop
    # the trash reminder after december" was not understood. The month two months on, whatever the
    # fake clock's date.
    later = MONDAY + timedelta(days=62)
    last = date(later.year, later.month, calendar.monthrange(later.year, later.month)[1])
    chat.say(setup)
    answer = chat.say(said.format(month=(MONTHS_HE if lang == "he" else MONTHS_EN)[later.month - 1]))
    assert answer.startswith("🔁"), answer
    assert (f"עד {last:%-d.%-m}" if lang == "he" else f"until {last:%a %-d %b}") in answer, answer
    listed = chat.say("מה התזכורות שלי?" if lang == "he" else "what are my reminders?")
    assert "זבל" in listed or "trash" in listed  # ended, not deleted
