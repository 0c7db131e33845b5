"""Changes said the short way people say them, through the webhook: a time in words ("change it to
nine"), "it" left unsaid ("change to 9", "תשנה לתשע"), and a list named with nothing to take off it
("delete from the shopping list"). Each was misread before: the reminder renamed "nine", not
understood, a reminder looked for by the name "from the shopping list", the thing "קניות" taken off;
and "תעביר לרשימת הקניות" put the verb itself on the shopping list."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, at, shown


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    ("said", "hour", "minute"),
    [
        ("change it to nine", 21, 0),  # the nearer nine after 17:00
        ("make it nine thirty", 21, 30),
        ("no, make it seven fifteen", 19, 15),
        ("change to 6", 18, 0),
        ("move to eight o'clock", 20, 0),
    ],
)
def test_a_new_time_in_words_or_with_it_unsaid_moves_the_reminder(
    chat: Conversation, said: str, hour: int, minute: int
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say(said) == f"Updated the reminder “call mom” — now for {shown(1, hour, minute)}."
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(1, hour, minute)}"


def test_words_that_are_more_than_a_time_are_the_new_title(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("change it to call dad") == f"Updated the reminder “call dad” — now for {shown(1, 17)}."


@pytest.mark.parametrize(
    ("said", "hour", "minute"),
    [("תשנה לתשע", 9, 0), ("תעביר לעשר וחצי", 10, 30), ("תזיז ל-11", 11, 0), ("תשני לתשע ורבע", 9, 15)],
)
def test_hebrew_change_to_a_time_with_it_unsaid(
    chat: Conversation, said: str, hour: int, minute: int
) -> None:
    chat.say("תזכיר לי מחר בשמונה בבוקר לקחת תרופה")
    assert chat.say(said) == f"עדכנתי את התזכורת „לקחת תרופה” — עכשיו ל{shown(1, hour, minute, 'he')}."


def test_a_list_with_nothing_named_asks_what_to_take_off(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to the shopping list")
    assert chat.say("delete from the shopping list") == "What should I take off your shopping list?"
    assert chat.say("the eggs") == "Removed eggs from your shopping list."
    assert chat.say("remove something from my shopping list") == "What should I take off your shopping list?"
    assert chat.say("never mind") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk\n• bread"


def test_hebrew_a_list_with_nothing_named_asks_what_to_take_off(chat: Conversation) -> None:
    chat.say("תוסיף חלב, ביצים ולחם לרשימת קניות")
    assert chat.say("תמחק מרשימת הקניות") == "מה להוריד מרשימת הקניות?"
    assert chat.say("לחם") == "הורדתי לחם מרשימת הקניות."
    assert chat.say("מה ברשימת הקניות") == "רשימת הקניות:\n• חלב\n• ביצים"


def test_a_move_to_a_list_puts_no_verb_on_it(chat: Conversation) -> None:
    chat.say("תוסיף חלב לרשימת קניות")
    chat.say("תעביר לרשימת הקניות")
    assert chat.say("מה ברשימת הקניות") == "רשימת הקניות:\n• חלב"


@pytest.mark.parametrize("weekend", ["בסופ״ש", "בסופש", "בסוף השבוע"])
def test_hebrew_the_weekend_abbreviated_is_saturday(chat: Conversation, weekend: str) -> None:
    # "בסופ״ש" was no day: Memo asked when, and the title kept "בסופ״ש".
    saturday = at(5, 10)
    asked = chat.say(f"תזכיר לי {weekend} לנקות את המרפסת")
    assert asked == f"באיזו שעה בשבת {saturday.day}.{saturday.month}? (למשל „ב-17:00”)"
    assert chat.say("ב-10") == f"⏰ קבעתי תזכורת „לנקות את המרפסת” ל{shown(5, 10, 0, 'he')}."


@pytest.mark.parametrize(
    "said",
    [
        "move all my reminders from tomorrow to wednesday",
        "move all tomorrow's reminders to wednesday",
        "push everything tomorrow by an hour",
        "reschedule every reminder tomorrow to 9am",
        "תזיז את כל התזכורות של מחר ליום רביעי",
    ],
)
def test_a_change_of_all_the_reminders_changes_none_and_says_how(chat: Conversation, said: str) -> None:
    # "move all my reminders from tomorrow to wednesday" moved “call mom” alone ("all" is in "call").
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to buy milk tomorrow at 6pm")
    before = chat.say("show my reminders")

    answer = chat.say(said)

    assert "one reminder at a time" in answer or "תזכורת אחת בכל פעם" in answer, answer
    assert chat.say("show my reminders") == before
    assert (
        chat.say("move call mom to wednesday") == f"Updated the reminder “call mom” — now for {shown(2, 17)}."
    )


def test_a_named_reminder_renamed_or_moved_in_words(chat: Conversation) -> None:
    chat.say("remind me to buy milk tomorrow at 6pm")
    # "rename milk to ..." meant the reminder: how to say it is told, and the way told works.
    hint = chat.say("rename milk to buy oat milk")
    assert hint.endswith("To rename it, say e.g. “rename the reminder buy milk to …”."), hint
    assert chat.say("rename the reminder buy milk to buy oat milk") == (
        f"Updated the reminder “buy oat milk” — now for {shown(1, 18)}."
    )
    # "change ... to <words>" renames; "change ... to <a time in words>" moves (both asked "what time?").
    assert chat.say("change the reminder buy oat milk to buy soy milk") == (
        f"Updated the reminder “buy soy milk” — now for {shown(1, 18)}."
    )
    assert chat.say("change the buy soy milk reminder to seven thirty") == (
        f"Updated the reminder “buy soy milk” — now for {shown(1, 19, 30)}."
    )


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        (
            "move the dentist to wednesday at the same time",
            "Updated the reminder “the dentist” — now for {}.",
        ),
        ("move it to wednesday, same time", "Updated the reminder “the dentist” — now for {}."),
    ],
)
def test_a_new_day_at_the_same_time(chat: Conversation, said: str, reply: str) -> None:
    # "move the dentist to wednesday at the same time" looked for a reminder "dentist at the same".
    chat.say("remind me about the dentist tomorrow at 4pm")
    assert chat.say(said) == reply.format(shown(2, 16))


def test_hebrew_a_new_day_at_the_same_time(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר בארבע אחר הצהריים רופא שיניים")
    assert chat.say("תזיז את רופא השיניים ליום רביעי באותה שעה") == (
        f"עדכנתי את התזכורת „רופא שיניים” — עכשיו ל{shown(2, 16, 0, 'he')}."
    )


def test_did_i_add_milk_shows_the_list_and_adds_nothing(chat: Conversation) -> None:
    # "did i add milk?" put a second milk on the shopping list.
    chat.say("add milk and eggs to the shopping list")
    assert chat.say("did I add milk?") == "Your shopping list:\n• milk\n• eggs"
    assert chat.say("is bread on my shopping list?") == "Your shopping list:\n• milk\n• eggs"
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk\n• eggs"


def test_a_question_about_a_reminder_or_about_memo_changes_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert (
        chat.say("did you remind me to call mom?")
        == f"Your reminders about “call mom”:\n• “call mom” — {shown(1, 17)}"
    )
    assert chat.say("how do I delete a reminder?").startswith("Just tell me in your own words, for example:")
    assert chat.say("איך מוחקים תזכורת?").startswith("פשוט לכתוב לי במילים שלך, למשל:")
    assert chat.say("why did you remind me").startswith("Just tell me in your own words")
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(1, 17)}"


def test_asked_what_memo_does_after_a_greeting_sets_nothing(chat: Conversation) -> None:
    # "hi! can you remind me of stuff?" asked when to remind about "stuff"; the Hebrew too.
    assert "I can set reminders" in chat.say("hi! can you remind me of stuff?")
    assert "אני יכול לקבוע תזכורות" in chat.say("היי, אתה יכול להזכיר לי דברים?")
    assert chat.say("hello can you set reminders").startswith("Good morning")
    assert chat.say("show my reminders") == "You have no upcoming reminders."
    # What a person says next is the request itself, with nothing set aside before it.
    assert chat.say("ok remind me to call mom at 5pm") == f"⏰ Reminder set: “call mom” for {shown(0, 17)}."
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(0, 17)}"


def test_hebrew_is_it_on_the_list_shows_it_and_adds_nothing(chat: Conversation) -> None:
    chat.say("תוסיף חלב וביצים לרשימת הקניות")
    assert chat.say("הוספתי חלב?") == "רשימת הקניות:\n• חלב\n• ביצים"
    assert chat.say("יש לחם ברשימת הקניות?") == "רשימת הקניות:\n• חלב\n• ביצים"


def test_the_same_thing_in_another_amount_is_one_line_and_undo_gives_it_back(chat: Conversation) -> None:
    # "add 2 milk" with milk on the list put a second line "2 milk" on it.
    chat.say("add milk and eggs to the shopping list")
    assert chat.say("add 2 milk to the shopping list") == "Changed “milk” to “2 milk” on your shopping list."
    assert chat.say("add milk to the shopping list") == "Already there: 2 milk."
    assert chat.say("show my shopping list") == "Your shopping list:\n• 2 milk\n• eggs"
    assert (
        chat.say("add 3 milk to the shopping list") == "Changed “2 milk” to “3 milk” on your shopping list."
    )
    assert chat.say("undo") == "↩️ Undone: the item on your shopping list is “2 milk” again."
    assert chat.say("add a dozen eggs and bread to the shopping list") == (
        "Added bread to your shopping list. Changed “eggs” to “dozen eggs” on your shopping list."
    )
    shown_list = chat.say("show my shopping list").split("\n")  # (one fake time: its order is not the point)
    assert sorted(shown_list[1:]) == ["• 2 milk", "• bread", "• dozen eggs"]


def test_hebrew_the_same_thing_in_another_amount(chat: Conversation) -> None:
    chat.say("תוסיף חלב לרשימת הקניות")
    assert chat.say("תוסיף 3 חלב לרשימת הקניות") == "שיניתי את „חלב” ל„3 חלב” ברשימת הקניות."
    assert chat.say("מה ברשימת הקניות") == "רשימת הקניות:\n• 3 חלב"


@pytest.mark.parametrize("said", ["remind me too walk the dog at 8pm", "remind em to walk the dog at 8pm"])
def test_the_to_of_remind_me_to_mistyped(chat: Conversation, said: str) -> None:
    # The reminder was titled "too walk the dog", or the whole message with "remind em" in it.
    assert chat.say(said) == f"⏰ Reminder set: “walk the dog” for {shown(0, 20)}."
    assert chat.say("show my reminders") == f"Your reminders:\n• “walk the dog” — {shown(0, 20)}"


@pytest.mark.parametrize(
    ("said", "asked", "answer", "set_"),
    [
        ("remind me eod to submit my timesheet", "When should I remind you?", "6pm", (0, 18)),
        ("remind me tomorrow by end of day to send the report", "What time on ", "at 5", (1, 17)),
    ],
)
def test_the_end_of_the_day_is_asked_and_never_the_title(
    chat: Conversation, said: str, asked: str, answer: str, set_: tuple[int, int]
) -> None:
    # "eod" and "end of day" went into the title ("eod to submit my timesheet").
    question = chat.say(said)
    assert question.startswith(asked)
    if asked.startswith("What time on"):  # the day said is kept
        assert shown(1, 17).rsplit(",", 1)[0] in question
    title = said.split(" to ", 1)[1]
    assert chat.say(answer) == f"⏰ Reminder set: “{title}” for {shown(*set_)}."


@pytest.mark.parametrize(
    ("said", "answer", "set_"),
    [
        ("remind me before bed to take my pills", "10pm", (0, 22)),
        ("remind me to call grandma when i get home", "at 7pm", (0, 19)),
        ("remind me after work tomorrow to buy milk", "6", (1, 18)),
    ],
)
def test_a_moment_of_the_day_is_asked_and_never_the_title(
    chat: Conversation, said: str, answer: str, set_: tuple[int, int]
) -> None:
    # "before bed", "when i get home" and "after work" went into the title.
    assert chat.say(said).startswith(("When should I remind you?", "What time on "))
    title = next(t for t in ("take my pills", "call grandma", "buy milk") if t in said)
    assert chat.say(answer) == f"⏰ Reminder set: “{title}” for {shown(*set_)}."


def test_hebrew_a_moment_of_the_day_is_asked(chat: Conversation) -> None:
    assert chat.say("תזכיר לי לפני השינה לקחת כדורים").startswith("מתי להזכיר לך?")
    assert chat.say("ב-22") == f"⏰ קבעתי תזכורת „לקחת כדורים” ל{shown(0, 22, 0, 'he')}."
    assert chat.say("תזכיר לי להתקשר לסבתא כשאגיע הביתה").startswith("מתי להזכיר לך?")


def test_hebrew_minutes_abbreviated_without_the_geresh(chat: Conversation) -> None:
    # "בעוד 5 דק" was no time: the words were the title and the time was asked.
    assert chat.say("תזכיר לי בעוד 5 דק לבדוק את התנור") == (
        f"⏰ קבעתי תזכורת „לבדוק את התנור” ל{shown(0, 10, 5, 'he')}."
    )
    assert chat.say("תזכיר לי לתלות כביסה").startswith("מתי להזכיר לך?")
    assert chat.say("10 דק") == f"⏰ קבעתי תזכורת „לתלות כביסה” ל{shown(0, 10, 10, 'he')}."


def test_a_thing_said_again_in_another_spelling_or_as_meant(chat: Conversation) -> None:
    # "actually make it 3 tomatoes" after "tomatos" and "i meant almond milk" were not understood.
    chat.say("add tomatos and cucumbers to the shopping list")
    assert (
        chat.say("actually make it 3 tomatoes") == "Changed “tomatos” to “3 tomatoes” on your shopping list."
    )
    chat.say("add milk to the shopping list")
    assert chat.say("i meant almond milk") == "Changed “milk” to “almond milk” on your shopping list."
    # (Added at the same moment of the fake clock: their order is not the point.)
    shown_list = chat.say("show my shopping list").split("\n")
    assert shown_list[0] == "Your shopping list:"
    assert sorted(shown_list[1:]) == ["• 3 tomatoes", "• almond milk", "• cucumbers"]
    # The list of a thing not named is said as "your list", never "your default list".
    assert chat.say("remove cucumbers and add lettuce").startswith(
        "Just to check — you want me to remove cucumbers from your list, then add lettuce"
    )


def test_one_word_meant_takes_its_place_in_the_title(chat: Conversation) -> None:
    # "sorry i meant dad" after “call mom” renamed the reminder “dad”.
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("sorry i meant dad") == f"Updated the reminder “call dad” — now for {shown(1, 17)}."
    chat.say("תזכיר לי מחר בשמונה בבוקר להתקשר לאמא")
    assert chat.say("התכוונתי לאבא") == f"עדכנתי את התזכורת „להתקשר לאבא” — עכשיו ל{shown(1, 8, 0, 'he')}."
    assert chat.say("show my reminders") == (
        f"Your reminders:\n• “להתקשר לאבא” — {shown(1, 8)}\n• “call dad” — {shown(1, 17)}"
    )


@pytest.mark.parametrize(
    ("request_", "time", "later", "moved"),
    [
        (
            "remind me next tuesday to pay the gardener",
            "at 4",
            "no, the one after",
            "Updated the reminder “pay the gardener” — now for ",
        ),
        (
            "תזכיר לי ביום שלישי הבא לשלם לגנן",
            "בארבע",
            "לא, בשבוע שאחרי",
            "עדכנתי את התזכורת „לשלם לגנן” — עכשיו ל",
        ),
    ],
)
def test_the_one_after_said_once_the_near_tuesday_was_set(
    chat: Conversation, request_: str, time: str, later: str, moved: str
) -> None:
    # On a Monday "next tuesday" is tomorrow (the date is shown when its time is asked); "no, the one
    # after" said once it was set was not understood.
    chat.say(request_)
    chat.say(time)
    language = "he" if moved.startswith("ע") else "en"
    assert chat.say(later) == f"{moved}{shown(8, 16, 0, language)}."


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("pause all my reminders", "I can't pause reminders."),
        ("תשהה את כל התזכורות", "אין לי אפשרות להשהות תזכורות."),
    ],
)
def test_pausing_reminders_says_what_can_be_done_and_changes_nothing(
    chat: Conversation, said: str, reply: str
) -> None:
    # It was "I'm not sure I understood".
    chat.say("remind me every monday at 9 to take out the trash")
    assert chat.say(said).startswith(reply)
    assert chat.say("show my reminders") == (
        f"Your reminders:\n• “take out the trash” — every Monday at 09:00 (next: {shown(7, 9)})"
    )


def test_is_there_anything_on_a_day(chat: Conversation) -> None:
    # "is there anything today" was "I'm not sure I understood".
    chat.say("remind me to buy milk friday at 10am")
    assert (
        chat.say("is there anything on friday?")
        == f"Your reminders on {shown(4, 10).split(',')[0]}:\n• “buy milk” — {shown(4, 10)}"
    )
    assert chat.say("יש משהו מחר?").startswith("אין לך תזכורות")


def test_tell_me_at_a_time_and_tell_me_what_i_have(chat: Conversation) -> None:
    # "tell me at 5 to call mom" was titled "tell me to call mom"; "tell me what i have tomorrow"
    # was not understood.
    assert (
        chat.say("tell me tomorrow at 5pm to call mom") == f"⏰ Reminder set: “call mom” for {shown(1, 17)}."
    )
    assert chat.say("can you make sure i remember to buy bread tomorrow at 9am") == (
        f"⏰ Reminder set: “buy bread” for {shown(1, 9)}."
    )
    assert chat.say("tell me what i have tomorrow") == (
        f"Your reminders on {shown(1, 9).split(',')[0]}:\n• “buy bread” — {shown(1, 9)}\n• “call mom” — {shown(1, 17)}"
    )


@pytest.mark.parametrize(
    "said",
    [
        "תדאג שאזכור מחר בחמש להתקשר לאמא",
        "תזכיר לי מחר בחמש שאני צריך להתקשר לאמא",
        "תגיד לי מחר בחמש להתקשר לאמא",
    ],
)
def test_hebrew_more_ways_to_ask_for_a_reminder(chat: Conversation, said: str) -> None:
    assert chat.say(said) == f"⏰ קבעתי תזכורת „להתקשר לאמא” ל{shown(1, 17, 0, 'he')}."


def test_more_of_a_thing_on_the_list_is_one_line_of_it(chat: Conversation) -> None:
    # "add more milk" put a line "more milk" beside "milk"; "תוסיף עוד חלב" a line "עוד חלב".
    chat.say("add milk and 12 eggs to the shopping list")
    assert chat.say("add more milk to the shopping list") == "Already there: milk."
    assert chat.say("add 2 more eggs to the shopping list") == "Already there: 12 eggs."
    assert chat.say("show my shopping list") == "Your shopping list:\n• milk\n• 12 eggs"
    chat.say("תוסיף חלב לרשימת הקניות")
    assert chat.say("תוסיף עוד חלב לרשימת הקניות").startswith("כבר ברשימה")


@pytest.mark.parametrize("said", ["scrap the gym reminder", "i don't need the gym reminder anymore"])
def test_more_ways_to_drop_a_reminder_ask_to_delete_it(chat: Conversation, said: str) -> None:
    # Both were "I'm not sure I understood".
    chat.say("remind me to go to the gym tomorrow at 7am")
    assert chat.say(said).startswith("Before I go ahead: I'm about to delete 1 reminder:")
    assert chat.say("yes") == "Deleted the reminder “go to the gym”."


def test_errands_said_the_short_way(chat: Conversation) -> None:
    # "need milk", "grab some bread on the way home" and "mark milk as bought" were not understood.
    assert chat.say("need milk").startswith("Just to check — you want me to add milk to your shopping list?")
    assert chat.say("yes") == "Added milk to your shopping list."
    assert chat.say("grab some bread on the way home").startswith("Just to check — you want me to add bread")
    assert chat.say("yes") == "Added bread to your shopping list."
    assert chat.say("mark milk as bought") == "Removed milk from your shopping list."
    assert chat.say("show my shopping list") == "Your shopping list:\n• bread"


@pytest.mark.parametrize(
    ("answer", "day", "hour", "minute"),
    [("tmrw 9", 1, 9, 0), ("9ish", 0, 21, 0), ("1730", 0, 17, 30), ("friday 10", 4, 10, 0)],
)
def test_a_time_answered_the_short_way(
    chat: Conversation, answer: str, day: int, hour: int, minute: int
) -> None:
    # Each was "When should I remind you?" again.
    chat.say("remind me to call the bank")
    assert chat.say(answer) == f"⏰ Reminder set: “call the bank” for {shown(day, hour, minute)}."


def test_four_digits_that_may_be_a_year_are_asked_again(chat: Conversation) -> None:
    chat.say("remind me to renew the passport")
    assert chat.say("2030").startswith("Sorry, I didn't catch that.")
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_a_bare_hour_after_its_day_in_a_request(chat: Conversation) -> None:
    # "remind me tomorrow 9 to call mom" was titled "9 to call mom" and its time asked.
    assert chat.say("remind me tomorrow 9 to call mom") == f"⏰ Reminder set: “call mom” for {shown(1, 9)}."
    assert (
        chat.say("תזכיר לי מחר 10 להתקשר לסבתא")
        == f"⏰ קבעתי תזכורת „להתקשר לסבתא” ל{shown(1, 10, 0, 'he')}."
    )
