"""Second thoughts about a reminder, sent the way people send them: a new amount right after "in an
hour" ("actually make it 45 minutes"), another title ("no, call dad instead"), the same reminder once
more ("and again in 4 hours"), a reminder named by one of its words ("change the bank one to 5",
"push the email one to friday"), and a new title while Memo is still asking when. Signed payloads
through the webhook, the ticker on moto, the fake clock (a Monday at 10:00, Jerusalem)."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import at, shown
from tests.support.week import fired as _fired


def test_make_it_45_minutes_after_in_an_hour(chat: Conversation, clock: FakeClock) -> None:
    # Was "I'm not sure I understood", and the reminder stayed at 11:00.
    chat.say("can you remind me in an hour to check the oven?")
    assert (
        chat.say("actually make it 45 minutes")
        == f"Updated the reminder “check the oven” — now for {shown(0, 10, 45)}."
    )
    (fired,) = _fired(chat, clock, 0, 10, 46)
    assert "check the oven" in fired
    assert _fired(chat, clock, 0, 11, 1) == []  # once, at the new time only


def test_an_amount_for_a_reminder_days_away_is_asked(chat: Conversation) -> None:
    # A reminder for Friday was not set by an amount of time: "45 minutes" from now is not what
    # the person meant, so nothing moves.
    chat.say("remind me to pay rent on friday at 9")
    assert "Updated" not in chat.say("make it 45 minutes")
    assert chat.say("show my reminders") == f"Your reminders:\n• “pay rent” — {shown(4, 9)}"


def test_hebrew_amount_change(chat: Conversation) -> None:
    chat.say("תזכיר לי עוד שעה לכבות את התנור")
    # "תעשה את זה" is "make it" (was not understood).
    assert chat.say("בעצם תעשה את זה 45 דקות") == (
        f"עדכנתי את התזכורת „לכבות את התנור” — עכשיו ל{shown(0, 10, 45, language='he')}."
    )
    chat.say("תזכיר לי בעוד שעה להוציא את העוגה")
    assert (
        chat.say("תשנה את זה לחצי שעה")
        == f"עדכנתי את התזכורת „להוציא את העוגה” — עכשיו ל{shown(0, 10, 30, language='he')}."
    )


def test_another_title_instead_renames_the_reminder_just_set(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call mom at 5")
    assert chat.say("no, call dad instead") == f"Updated the reminder “call dad” — now for {shown(0, 17)}."
    (fired,) = _fired(chat, clock, 0, 17, 1)
    assert "call dad" in fired and "call mom" not in fired
    chat.say("תזכיר לי להתקשר לאמא בשש")
    assert chat.say("התכוונתי להתקשר לסבתא").startswith("עדכנתי את התזכורת „להתקשר לסבתא”")


def test_another_title_and_time_at_once(chat: Conversation) -> None:
    chat.say("remind me to call mom at 5")
    assert (
        chat.say("no, call dad instead at 6") == f"Updated the reminder “call dad” — now for {shown(0, 18)}."
    )
    chat.say("תזכיר לי להתקשר לאמא בחמש")
    assert chat.say("לא, להתקשר לאבא במקום בשש") == (
        f"עדכנתי את התזכורת „להתקשר לאבא” — עכשיו ל{shown(0, 18, language='he')}."
    )


def test_no_with_a_title_but_no_instead_is_asked(chat: Conversation) -> None:
    chat.say("remind me to call mom at 5")
    assert "Updated" not in chat.say("no, call dad")
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(0, 17)}"


def test_and_again_in_4_hours_is_a_second_reminder(chat: Conversation, clock: FakeClock) -> None:
    # Was "I'm not sure I understood".
    chat.say("remind me to take my pills in 2 hours")
    assert chat.say("and again in 4 hours") == f"⏰ Reminder set: “take my pills” for {shown(0, 14)}."
    assert (
        chat.say("remind me about it again tomorrow")
        == f"⏰ Reminder set: “take my pills” for {shown(1, 14)}."
    )
    assert len(_fired(chat, clock, 0, 12, 1)) == 1
    assert len(_fired(chat, clock, 0, 14, 1)) == 1
    # "again" names the reminder just set: with a list item just added, it is asked about.
    chat.say("add milk to my shopping list")
    assert "Reminder set" not in chat.say("remind me again in an hour")


def test_a_reminder_named_by_one_of_its_words(chat: Conversation) -> None:
    chat.say("remind me to call the bank at 4")
    chat.say("remind me to answer the email from sarah tomorrow morning")
    # Was "I'm not sure I understood".
    assert (
        chat.say("change the bank one to 5")
        == f"Updated the reminder “call the bank” — now for {shown(0, 17)}."
    )
    # Was "To use your email I need access to your account".
    assert chat.say("push the email one to friday") == (
        f"Updated the reminder “answer the email from sarah” — now for {shown(4, 9)}."
    )


def test_a_new_title_while_asked_when(chat: Conversation) -> None:
    assert chat.say("remind me to call dad").startswith("When should I remind you?")
    assert chat.say("no, call mom instead").startswith("When should I remind you?")
    assert chat.say("at 6") == f"⏰ Reminder set: “call mom” for {shown(0, 18)}."
    # With the time in the same answer: the new title, not the old one at that time.
    chat.say("remind me to call dad")
    assert chat.say("no, call grandma instead at 7") == f"⏰ Reminder set: “call grandma” for {shown(0, 19)}."
    # Was "call dad i meant call mom".
    chat.say("remind me to call dad")
    assert chat.say("i meant call the plumber tomorrow").startswith(
        f"What time on {shown(1, 9).split(',')[0]}"
    )
    assert chat.say("at 9") == f"⏰ Reminder set: “call the plumber” for {shown(1, 9)}."
    chat.say("תזכיר לי להתקשר לאבא")
    chat.say("התכוונתי להתקשר לדוד")
    assert chat.say("מחר בשמונה") == f"⏰ קבעתי תזכורת „להתקשר לדוד” ל{shown(1, 8, language='he')}."


def test_and_again_at_6_in_the_same_message(chat: Conversation, clock: FakeClock) -> None:
    # Was a guess to confirm: "call the vet" at 12:00, then a reminder titled "call again" at 18:00.
    assert chat.say("remind me tomorrow at noon to call the vet and again at 6") == (
        f"✅ ⏰ Reminder set: “call the vet” for {shown(1, 12)}.\n"
        f"✅ ⏰ Reminder set: “call the vet” for {shown(1, 18)}."
    )
    assert len(_fired(chat, clock, 1, 12, 1)) == 1
    (fired,) = _fired(chat, clock, 1, 18, 1)
    assert "call the vet" in fired
    reply = chat.say("תזכיר לי ביום רביעי בעשר לשלם חשבון חשמל ושוב בשתיים")
    assert reply.count("„לשלם חשבון חשמל”") == 2 and "10:00" in reply and "14:00" in reply


def test_next_tuesday_said_on_monday_is_confirmed_and_can_be_moved(chat: Conversation) -> None:
    # Was set for tomorrow without a word: people mean tomorrow, or the Tuesday of next week.
    assert chat.say("remind me next tuesday at 10 to renew my passport").startswith(
        f"Just to check — you want me to set a reminder “renew my passport” for {shown(1, 10)}?"
    )
    # "No" with the day meant sets it for that day (was: cancelled, "thanks for telling me why").
    day = at(8, 10).day
    ordinal = "th" if 11 <= day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    assert chat.say(f"no, the {day}{ordinal}") == f"⏰ Reminder set: “renew my passport” for {shown(8, 10)}."
    chat.say("remind me next tuesday at 10 to call the bank")
    assert chat.say("no, the one after") == f"⏰ Reminder set: “call the bank” for {shown(8, 10)}."
    chat.say("תזכיר לי ביום שלישי הבא בעשר לחדש דרכון")
    assert chat.say("לא, בשבוע שאחרי") == f"⏰ קבעתי תזכורת „לחדש דרכון” ל{shown(8, 10, language='he')}."
    # A plain "no" still cancels, and "yes" sets tomorrow.
    chat.say("remind me next tuesday at 10 to pay the gardener")
    assert chat.say("no").startswith("OK, cancelled")
    chat.say("remind me next tuesday at 9 to water the plants")
    assert chat.say("yes") == f"⏰ Reminder set: “water the plants” for {shown(1, 9)}."
    # A weekday further away, or without "next", is not asked about.
    assert chat.say("remind me next friday at 10 to call grandma") == (
        f"⏰ Reminder set: “call grandma” for {shown(4, 10)}."
    )


def test_stop_reminding_me_with_no_reminder_named(chat: Conversation) -> None:
    # Was "I'm not sure I understood", and the "no" that followed was read as "stop reminding me no".
    chat.say("remind me every day at 8 to take vitamins")
    question = chat.say("stop reminding me")
    assert question.startswith("Before I go ahead: I'm about to delete 1 reminder:")
    assert "take vitamins" in question and "the whole series" in question
    assert chat.say("no").startswith("OK, cancelled")
    # With something else just done, which one is asked, then named.
    chat.say("remind me every sunday at 10 to call grandma")
    chat.say("add milk to my shopping list")
    assert chat.say("stop reminding me") == "Which reminder should I stop? A word of its name is enough."
    assert "take vitamins" in chat.say("the vitamins one")
    assert chat.say("yes") == "Deleted the reminder “take vitamins”."
    assert chat.say("תפסיק להזכיר לי").startswith("איזו תזכורת להפסיק?")


def test_no_to_what_would_you_like_is_nothing(chat: Conversation) -> None:
    assert chat.say("blah blah").startswith("I'm not sure I understood")
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_a_bare_hour_right_after_a_reminder_is_its_time_confirmed(
    chat: Conversation, clock: FakeClock
) -> None:
    # Was "I'm not waiting on a question right now": "every morning" is 09:00, and "8" says otherwise.
    chat.say("remind me to water the plants every morning")
    assert chat.say("8").startswith(
        "Just to check — you want me to update the reminder “water the plants”: move it to 08:00?"
    )
    assert chat.say("yes").startswith("🔁 Updated the reminder “water the plants” — now every day at 08:00")
    # The half of the day nearer the time just set: 17:00 -> "6" is 18:00; 09:00 -> "7" is 07:00.
    chat.say("remind me to call mom at 5")
    assert chat.say("6").split("\n")[0].endswith("move it to 18:00?")
    assert chat.say("no").startswith("OK, cancelled")
    # Long after, a bare number is no correction: the stale-answer reply, as before.
    clock.set(at(0, 11))
    assert chat.say("8") == "I'm not waiting on a question right now — what would you like to do?"
    chat.say("תזכיר לי כל בוקר לקחת ויטמינים")
    assert chat.say("7").split("\n")[0].endswith("להזיז אותה ל-07:00?")


def test_when_is_the_rent_reminder(chat: Conversation) -> None:
    # Was "I'm not sure I understood".
    chat.say("remind me to call mom tomorrow at 5")
    chat.say("remind me to pay rent on friday at 9")
    chat.say("remind me to buy a gift for mom on sunday at 10")
    assert (
        chat.say("when is the rent reminder?")
        == f"Your reminders about “rent”:\n• “pay rent” — {shown(4, 9)}"
    )
    listed = chat.say("what time is my reminder about mom?")
    assert listed.splitlines()[1:] == [
        f"• “call mom” — {shown(1, 17)}",
        f"• “buy a gift for mom” — {shown(6, 10)}",
    ]
    assert chat.say("when is the dentist reminder?") == "You have no reminder about “dentist”."
    chat.say("תזכיר לי לשלם ארנונה ביום רביעי בשמונה")
    assert chat.say("מתי התזכורת של הארנונה?").startswith("התזכורות שלך על „הארנונה”:\n• „לשלם ארנונה”")
    assert chat.say("when is my next reminder?").startswith("Your next reminder: “call mom” — ")


def test_a_change_that_starts_with_and(chat: Conversation) -> None:
    # "and make it tomorrow" was "I'm not sure I understood": the "and" was read as the request's.
    chat.say("remind me to call the doctor at 3")
    assert chat.say("change it to 4") == f"Updated the reminder “call the doctor” — now for {shown(0, 16)}."
    assert (
        chat.say("and make it tomorrow")
        == f"Updated the reminder “call the doctor” — now for {shown(1, 16)}."
    )


def test_in_hebrew_the_and_glued_to_the_verb(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לרופא ב-3")
    assert chat.say("ותעשה את זה מחר") == (
        f"עדכנתי את התזכורת „להתקשר לרופא” — עכשיו ל{shown(1, 15, language='he')}."
    )


def test_when_is_it_right_after_setting_and_changing_a_reminder(chat: Conversation) -> None:
    # Was "I'm not sure I understood" for every one of these.
    chat.say("remind me tomorrow at 5pm to call mom")
    assert chat.say("when is it?") == f"Your reminders about “call mom”:\n• “call mom” — {shown(1, 17)}"
    chat.say("actually make it 6")
    assert chat.say("what time is it set for?").endswith(f"— {shown(1, 18)}")
    assert chat.say("what time is it?").startswith("It's 10:00")  # the clock, no reminder
    assert chat.say("מתי זה?").endswith(f"— {shown(1, 18, language='he')}")
    chat.say("add eggs to the shopping list")
    assert chat.say("when is it?").startswith("I'm not sure I understood")  # "it" is no reminder now
    chat.say("remind me to pay rent on the 1st of every month at 9")
    assert "(next: " in chat.say("when's the next one?")


def test_an_item_put_back_is_that_item(chat: Conversation) -> None:
    chat.say("add eggs to the shopping list")
    chat.say("remove eggs from the shopping list")
    assert chat.say("put eggs back on the shopping list") == "Added eggs to your shopping list."
    assert chat.say("תוסיף את החלב בחזרה לרשימת הקניות") == "הוספתי חלב לרשימת הקניות."


def test_the_day_after_and_the_time_of_it(chat: Conversation) -> None:
    # "move it to the day after" was not understood; "change the time to 3:15" looked for a
    # reminder called "time".
    chat.say("remind me tomorrow at 5pm to call mom")
    assert (
        chat.say("move it to the day after") == f"Updated the reminder “call mom” — now for {shown(2, 17)}."
    )
    assert (
        chat.say("change the time to 3:15")
        == f"Updated the reminder “call mom” — now for {shown(2, 15, 15)}."
    )
    assert chat.say("תעביר את זה ליום שאחרי").endswith(f"{shown(3, 15, 15, language='he')}.")


@pytest.mark.parametrize("said", ["no wait, 9pm", "no no, 9pm", "no wait 9pm", "nope, wait, 9pm"])
def test_a_correction_led_in_by_several_words(chat: Conversation, said: str) -> None:
    # It was "Just to check — you want me to set a reminder “no wait” for ..., 21:00?".
    chat.say("remind me to water the plants at 8pm")
    assert chat.say(said) == f"Updated the reminder “water the plants” — now for {shown(0, 21)}."
    assert chat.say("show my reminders") == f"Your reminders:\n• “water the plants” — {shown(0, 21)}"


@pytest.mark.parametrize(
    "said", ["no wait, make it the electrician", "I meant the electrician", "make it the electrician"]
)
def test_a_thing_said_instead_takes_its_place_in_the_title(chat: Conversation, said: str) -> None:
    # "no wait, make it the electrician" was "I'm not sure I understood"; "I meant the electrician"
    # renamed it “the electrician”.
    chat.say("remind me to call the plumber tomorrow at 9")
    assert chat.say(said) == f"Updated the reminder “call the electrician” — now for {shown(1, 9)}."
    assert chat.say("undo").startswith("↩️")
    assert "“call the plumber”" in chat.say("show my reminders")
