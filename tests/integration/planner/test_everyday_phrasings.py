"""Notes, lists, alarms and errands phrased the way people send them, through the webhook: a value
told changed updates its note, what ran out goes on the list, a repeating alarm repeats, a snooze
moves the reminder just set, and an errand Memo cannot run (booking a table) never becomes a reminder."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.support.clock import TEST_NOW
from tests.support.conversation import Conversation


def test_a_value_told_changed_updates_its_note_in_both_languages(chat: Conversation) -> None:
    chat.say("save a note: gate code is 1234")
    assert chat.say("they changed the gate code to 5678") == "📝 Updated your note: “gate code is 5678”."
    assert chat.say("what's the gate code?") == "Found 1 note for “gate code”:\n• gate code is 5678"
    chat.say("תשמור פתק: הסיסמה של הוויפי היא sunshine42")
    assert chat.say("תעדכן בפתק של הוויפי שהסיסמה היא 1234") == (
        "📝 עדכנתי את הפתק: „הסיסמה של הוויפי היא 1234”."
    )
    assert (
        chat.say("שינו את הסיסמה של הוויפי ל-green7") == "📝 עדכנתי את הפתק: „הסיסמה של הוויפי היא green7”."
    )


def test_something_added_to_a_note_goes_at_its_end_and_makes_no_list(chat: Conversation) -> None:
    chat.say("save a note: party: balloons, cake")
    assert (
        chat.say("edit my party note and add candles")
        == "📝 Updated your note: “party: balloons, cake, candles”."
    )
    assert (
        chat.say("add a banner to my party note")
        == "📝 Updated your note: “party: balloons, cake, candles, a banner”."
    )
    assert chat.say("what lists do I have?").startswith("You have no lists yet.")
    assert chat.say("show my notes") == "Found 1 note:\n• party: balloons, cake, candles, a banner"


def test_hebrew_something_added_to_a_note(chat: Conversation) -> None:
    chat.say("תשמור פתק: מסיבה: בלונים")
    assert chat.say("תוסיף לפתק של המסיבה נרות") == "📝 עדכנתי את הפתק: „מסיבה: בלונים, נרות”."
    # A note that matches nothing is said so, and nothing changes.
    assert chat.say("add candles to my wedding note") == "I couldn't find a note matching “wedding”."
    assert chat.say("show my notes") == "Found 1 note:\n• מסיבה: בלונים, נרות"


def test_what_ran_out_goes_on_the_list_and_the_whole_list_is_shown(chat: Conversation) -> None:
    assert chat.say("we're out of coffee add it to the list") == "Added coffee to your shopping list."
    assert chat.say("we ran out of eggs, put them on my shopping list") == "Added eggs to your shopping list."
    assert chat.say("show me the whole list") == "Your shopping list:\n• coffee\n• eggs"


def test_a_repeating_alarm_and_a_snooze_of_the_reminder_just_set(chat: Conversation) -> None:
    assert chat.say("wake me up every weekday at 7").startswith(
        "🔁 Reminder set: “alarm” every weekday (Sun–Thu) at 07:00"
    )
    chat.say("remind me to call mom tomorrow at 5pm")
    tomorrow = (TEST_NOW.astimezone(ZoneInfo("Asia/Jerusalem")) + timedelta(days=1)).date()
    assert chat.say("snooze that for 10 min").startswith("Updated the reminder “call mom” — now for")
    listed = chat.say("what's coming up?")
    assert f"“call mom” — {tomorrow:%a} {tomorrow.day} {tomorrow:%b}, 17:10" in listed


def test_an_errand_with_a_time_is_no_reminder_but_a_reminder_about_a_meeting_is(chat: Conversation) -> None:
    assert chat.say("book me a table for 2 at 8 tonight") == (
        "That's something I can't do for you — I handle reminders, notes and lists. "
        "I can remind you to do it, though: e.g. “remind me to book a table in an hour”."
    )
    assert chat.say("could you order us sushi for 7pm?").endswith("“remind me to order sushi in an hour”.")
    assert chat.say("what's coming up?") == "You have no upcoming reminders."
    # What it offers to write is understood as it is offered.
    assert chat.say("remind me to book a table in an hour").startswith("⏰ Reminder set: “book a table”")
    assert chat.say("remind me about the meeting with dan tomorrow at 3").startswith(
        "⏰ Reminder set: “the meeting with dan”"
    )


def test_a_ride_a_bill_or_tickets_asked_of_memo_are_errands_too(chat: Conversation) -> None:
    assert chat.say("can you call an uber for me") == (
        "That's something I can't do for you — I handle reminders, notes and lists. "
        "I can remind you to do it, though: e.g. “remind me to call an uber in an hour”."
    )
    assert chat.say("pay my electricity bill").endswith("“remind me to pay the electricity bill in an hour”.")
    assert chat.say("תקנה לי כרטיסים להופעה").endswith("„תזכיר לי לקנות כרטיסים בעוד שעה”.")
    assert chat.say("what's coming up?") == "You have no upcoming reminders."
    # Asked as a reminder, it is one.
    assert chat.say("remind me to call an uber at 6").startswith("⏰ Reminder set: “call an uber”")


def test_hebrew_an_errand_is_refused_with_what_memo_can_do(chat: Conversation) -> None:
    assert chat.say("תזמין לי מונית למחר ב-7") == (
        "את זה אני לא יכול לעשות בשבילך — אני מטפל בתזכורות, פתקים ורשימות. "
        "אבל אפשר לבקש תזכורת לעשות את זה, למשל „תזכיר לי להזמין מונית בעוד שעה”."
    )
    assert chat.say("what's coming up?") == "You have no upcoming reminders."
    assert chat.say("תזכיר לי להזמין מונית בעוד שעה").startswith("⏰ קבעתי תזכורת")


def test_hebrew_what_ran_out_and_a_list_named_after_the_word_list(chat: Conversation) -> None:
    assert chat.say("נגמר החלב תוסיף את זה לרשימה") == "הוספתי חלב לרשימת הקניות."
    # The supermarket list is the shopping list, shown by the name just said.
    assert chat.say("תראה לי את הרשימה של הסופר") == "רשימת הסופר:\n• חלב"


def test_we_need_milk_is_asked_then_added(chat: Conversation) -> None:
    # Was "I'm not sure I understood".
    asked = chat.say("we need milk and bread")
    assert asked.startswith("Just to check") and "milk" in asked and "bread" in asked
    assert chat.say("yes") == "Added milk, bread to your shopping list."
    assert chat.say("צריך חלב").startswith("רק מוודא")


def test_the_list_named_before_its_items(chat: Conversation) -> None:
    # Was "I'm not sure I understood".
    assert (
        chat.say("add to the shopping list bananas and apples")
        == "Added bananas, apples to your shopping list."
    )
    assert chat.say("add to shopping: pears") == "Added pears to your shopping list."


def test_not_after_all_takes_back_only_what_was_just_added(chat: Conversation) -> None:
    # "actually not the bread" right after adding it was "not understood".
    chat.say("add cheese to my shopping list")
    chat.say("add milk, eggs and bread to my shopping list")
    assert chat.say("actually not the bread") == "Removed bread from your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• cheese\n• milk\n• eggs"
    # Something the add did not name is no such correction: nothing is taken off.
    chat.say("add apples to my shopping list")
    assert not chat.say("not the cheese").startswith("Removed")
    assert "cheese" in chat.say("what's on my shopping list?")
    chat.say("תוסיף עגבניות ולחם לרשימת הקניות")
    assert chat.say("בעצם בלי הלחם") == "הורדתי לחם מרשימת הקניות."
    listed = chat.say("מה ברשימת הקניות?")
    assert "עגבניות" in listed and "לחם" not in listed


def test_remove_eggs_takes_the_eggs_not_the_egg_noodles(chat: Conversation) -> None:
    # "remove milk and eggs" asked "which ones: eggs or egg noodles?" though "eggs" is on the list.
    chat.say("add milk, eggs, egg noodles and bread to my shopping list")
    assert chat.say("remove milk and eggs") == "Removed milk, eggs from your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• egg noodles\n• bread"
    chat.say("תוסיף ביצים וביצים קשות לרשימת הקניות")
    assert chat.say("תוריד את הביצים") == "הורדתי ביצים מרשימת הקניות."


def test_a_reminder_to_buy_them_names_what_went_on_the_list(chat: Conversation) -> None:
    # The reminder was "buy them": when it went off, nothing said what to buy.
    replies = chat.deliver(
        chat.user.text("add eggs and milk to my shopping list and remind me tomorrow at 9 to buy them")
    )
    assert replies and "“buy eggs and milk”" in replies[-1]
    replies = chat.deliver(chat.user.text("תוסיף סוללות לרשימת הקניות ותזכיר לי מחר ב-10 לקנות אותן"))
    assert replies and "„לקנות סוללות”" in replies[-1]


def test_dont_forget_and_remember_to_are_reminders(chat: Conversation) -> None:
    # "don't forget to buy milk tomorrow at 9" was a guess titled "don't forget to buy milk".
    assert chat.say("don't forget to buy milk tomorrow at 9").startswith("⏰ Reminder set: “buy milk”")
    assert chat.say("i need to remember to call bob tomorrow at 10").startswith("⏰ Reminder set: “call bob”")
    assert chat.say("אל תשכח להזכיר לי לקנות לחם מחר ב-8").startswith("⏰ קבעתי תזכורת „לקנות לחם”")
    # "remember that ..." is still a note.
    assert chat.say("remember that the gate code is 1234").startswith("📝")


def test_append_to_a_note_named_first(chat: Conversation) -> None:
    # "append to my wifi note: router in the closet" saved a second note.
    chat.say("save a note: wifi password is abc123")
    assert chat.say("append to my wifi note: router in the closet").startswith("📝 Updated your note")
    found = chat.say("show my notes")
    assert "abc123" in found and "router in the closet" in found and found.count("•") == 1


WOULD_YOU_MIND = [
    ("would you mind adding eggs to my shopping list? thank you", "Added eggs to your shopping list."),
    ("Would you mind putting eggs on my shopping list?", "Added eggs to your shopping list."),
    ("do you mind adding eggs to the shopping list please", "Added eggs to your shopping list."),
    ("אכפת לך להוסיף ביצים לרשימת הקניות?", "הוספתי ביצים לרשימת הקניות."),
    ("אפשר בבקשה שתוסיף ביצים לרשימת הקניות? תודה!", "הוספתי ביצים לרשימת הקניות."),
    ("תוכל בבקשה להוסיף ביצים לרשימת הקניות", "הוספתי ביצים לרשימת הקניות."),
]


@pytest.mark.parametrize(("said", "done"), WOULD_YOU_MIND)
def test_would_you_mind_is_the_request(chat: Conversation, said: str, done: str) -> None:
    # "would you mind adding eggs to my shopping list? thank you" was answered "You're welcome!" and
    # nothing was added.
    assert chat.say(said) == done


def test_would_you_mind_reminding_me_keeps_a_clean_title(chat: Conversation) -> None:
    # The title was “mind reminding me to water the plants”; the Hebrew „אכפת לך להזכיר לי ...”.
    assert "“water the plants”" in chat.say("would you mind reminding me to water the plants at 6pm?")
    said = chat.say("אכפת לך להזכיר לי מחר בשמונה בבוקר להתקשר לגננת?")
    assert "„להתקשר לגננת”" in said and "אכפת" not in said
    assert "„להוציא את העוגה מהתנור”" in chat.say(
        "אפשר בבקשה שתזכיר לי בעוד עשר דקות להוציא את העוגה מהתנור? תודה!"
    )
    listed = chat.say("show my reminders")
    assert "mind " not in listed and "אכפת" not in listed and "שתזכיר" not in listed


def test_would_you_mind_jotting_down_saves_the_note(chat: Conversation) -> None:
    said = chat.say(
        "Would you mind jotting down that the babysitter's number is 052-7654321? Thank you so much"
    )
    assert said.startswith("📝") and "052-7654321" in said
    assert "052-7654321" in chat.say("show my notes")


@pytest.mark.parametrize(
    "said",
    ["could you sort out my whole week for me? thank you", "תסדר לי את כל השבוע בבקשה, תודה רבה"],
)
def test_a_request_not_understood_with_thanks_after_it_is_not_welcomed(chat: Conversation, said: str) -> None:
    reply = chat.say(said)
    assert "welcome" not in reply and "בכיף" not in reply
    assert reply.startswith(("I'm not sure I understood", "לא בטוח שהבנתי"))


@pytest.mark.parametrize(
    "said", ["thanks", "ok great thanks", "thanks for your help", "תודה רבה", "תודה על העזרה"]
)
def test_thanks_alone_is_still_welcomed(chat: Conversation, said: str) -> None:
    assert chat.say(said) in (
        "You're welcome! I'm here if you need anything else.",
        "בכיף! אני כאן אם צריך עוד משהו.",
    )
