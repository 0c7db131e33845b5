"""Ordinary ways people write, through the webhook: a lead-in word before a request ("actually",
"בעצם"), "also"/"גם" around list items, and an approval that lists a repeating reminder as the
series it is, so "delete all" never hides that a series goes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

TZ = ZoneInfo("Asia/Jerusalem")
# A Monday at least a week ahead of the real clock (moto refuses a recurring schedule that starts
# more than 5 minutes before the real time), 10:00 in Jerusalem.
_today = datetime.now(TZ).date()
MONDAY = _today + timedelta(days=7 + (7 - _today.weekday()) % 7)
START = datetime(MONDAY.year, MONDAY.month, MONDAY.day, 10, 0, tzinfo=TZ)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def test_actually_make_it_the_2nd_moves_the_monthly_series(chat: Conversation) -> None:
    assert chat.say("remind me to pay rent on the 1st of every month at 10am").startswith("🔁")
    question = chat.say("actually make it the 2nd")
    assert "This one" in question and "The whole series" in question
    moved = chat.tap(2)
    assert moved.startswith("🔁 Updated the reminder “pay rent” — now every month on the 2nd at 10:00")


def test_hebrew_lead_in_and_also_are_not_part_of_the_item(chat: Conversation) -> None:
    assert chat.say("בעצם תוסיף גם חלב לרשימת הקניות") == "הוספתי חלב לרשימת הקניות."
    assert chat.say("oh and add eggs too to my shopping list") == "Added eggs to your shopping list."
    listed = chat.say("מה ברשימת הקניות?")
    assert "• חלב" in listed and "• eggs" in listed and "גם" not in listed


def test_delete_all_lists_a_series_as_a_series_then_not_2_keeps_it(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me every monday at 9 to take out the trash")
    question = chat.say("delete all my reminders")
    assert "2. “take out the trash” — every Monday at 09:00 (next: " in question
    assert chat.say("not 2") == "Deleted 1 reminder: “call mom”."
    assert "“take out the trash” — every Monday at 09:00" in chat.say("show my reminders")


def test_hebrew_delete_all_lists_a_series_as_a_series(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום שני ב-9 להוציא את הזבל")
    question = chat.say("תמחק את כל התזכורות שלי")
    assert "„להוציא את הזבל” — כל יום שני ב-09:00 (הבאה: " in question
    assert chat.say("לא") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert "„להוציא את הזבל” — כל יום שני ב-09:00" in chat.say("מה התזכורות שלי?")


def test_which_one_answered_in_words_then_a_vague_answer_is_asked_again(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert chat.say("delete the call reminder").startswith("Which one do you mean?")
    question = chat.say("the one for dad")
    assert "“call dad”" in question and "call mom" not in question
    assert chat.say("yes") == "Deleted the reminder “call dad”."

    chat.say("remind me to call dad tomorrow at 6pm")
    assert chat.say("delete the call reminder").startswith("Which one do you mean?")
    again = chat.say("the call one")  # both are calls: asked again, nothing deleted
    assert "Which one do you mean?" in again
    assert chat.say("mom").startswith("Before I go ahead: I'm about to delete 1 reminder:\n1. “call mom”")


def test_hebrew_which_one_answered_in_words(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי להתקשר לאבא מחר ב-18:00")
    assert chat.say("תמחק את התזכורת להתקשר").startswith("לאיזה מהם התכוונת?")
    question = chat.say("את של אבא")
    assert "„להתקשר לאבא”" in question and "לאמא" not in question
    assert chat.say("כן") == "מחקתי את התזכורת „להתקשר לאבא”."


def test_which_one_answered_by_time_or_with_neither(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert chat.say("delete the call reminder").startswith("Which one do you mean?")
    # Was "Bye for now!" ("later" read as goodbye), with the question dropped.
    question = chat.say("the later one")
    assert "“call dad”" in question and "call mom" not in question
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("delete the call reminder").startswith("Which one do you mean?")
    assert "“call mom”" in chat.say("the 5pm one")
    assert chat.say("reject") == "OK, cancelled. Nothing was changed."
    # "neither" is no to the question (was: not understood, with the question dropped).
    assert chat.say("delete the call reminder").startswith("Which one do you mean?")
    assert chat.say("neither") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders").count("call") == 2


def test_which_one_answered_with_a_typo_is_asked_again(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    chat.say("תזכיר לי להתקשר לאבא מחר ב-18:00")
    assert chat.say("תמחק את התזכורת להתקשר").startswith("לאיזה מהם התכוונת?")
    # A word that is neither a candidate nor a request: the question stays open.
    assert "לאיזה מהם התכוונת?" in chat.say("אבבא")
    assert "„להתקשר לאבא”" in chat.say("המאוחרת")
    assert chat.say("כן") == "מחקתי את התזכורת „להתקשר לאבא”."


def test_a_number_sent_to_what_should_i_remind_you_about_is_no_title(chat: Conversation) -> None:
    # "1" (meant for an older question) was set as a reminder titled "1" at 13:00.
    assert chat.say("remind me tomorrow").startswith("What should I remind you about")
    assert "What should I remind you about" in chat.say("1")
    assert chat.say("to buy stamps at 9").startswith("⏰ Reminder set: “buy stamps”")


def test_a_new_request_naming_a_candidate_is_a_new_request(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert chat.say("delete the call reminder").startswith("Which one do you mean?")
    made = chat.say("remind me to call dad again on friday at 9am")
    assert made.startswith("⏰ Reminder set: “call dad again”")
    assert chat.say("show my reminders").count("call") == 3  # nothing was deleted


@pytest.mark.parametrize("request_", ["delete the dentist", "cancel the dentist", "remove the dentist"])
@pytest.mark.parametrize("question", ["change the trash one to 8pm", "delete the trash reminder"])
def test_a_request_the_planner_only_guesses_at_is_a_new_request_to_a_choice(
    chat: Conversation, question: str, request_: str
) -> None:
    # "delete the dentist" (a guess: "dentist" could be a note) while "this one or the whole
    # series?" or "which one?" was open was "Sorry, I didn't catch that", again and again.
    chat.say("remind me to call the dentist tomorrow at 3pm")
    chat.say("remind me to take out the trash every tuesday at 7pm")
    chat.say("remind me to take out the trash tomorrow at 9am")
    assert "Which one do you mean?" in chat.say(question)
    approval = chat.say(request_)
    assert approval.startswith("Before I go ahead") and "call the dentist" in approval
    assert "trash" not in approval
    assert chat.say("yes") == "Deleted the reminder “call the dentist”."
    listed = chat.say("show my reminders")
    assert listed.count("take out the trash") == 2 and "19:00" in listed  # the question changed nothing


def test_hebrew_a_guessed_request_to_a_choice_is_a_new_request(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לרופא השיניים מחר ב-15:00")
    chat.say("תזכיר לי להוציא את הזבל מחר ב-9:00")
    chat.say("תזכיר לי להוציא את הזבל מחר ב-19:00")
    assert chat.say("תמחק את הזבל").startswith("לאיזה מהם התכוונת?")
    approval = chat.say("תמחק את רופא השיניים")
    assert approval.startswith("רגע לפני") and "רופא השיניים" in approval and "זבל" not in approval


def test_wait_no_rejects_and_actually_yes_approves(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert chat.say("delete my mom reminder").startswith("Before I go ahead")
    assert chat.say("wait no") == "OK, cancelled. Nothing was changed."
    assert chat.say("delete my mom reminder").startswith("Before I go ahead")
    assert chat.say("yes wait").startswith("Sorry, I didn't catch that")  # asked again, nothing ran
    assert chat.say("actually yes") == "Deleted the reminder “call mom”."


def test_hebrew_a_yes_with_a_wait_is_asked_again(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    assert chat.say("תמחק את התזכורת להתקשר לאמא").startswith("רגע לפני")
    assert chat.say("כן רגע").startswith("לא הבנתי")  # nothing ran
    assert chat.say("בעצם כן") == "מחקתי את התזכורת „להתקשר לאמא”."


def test_off_the_list_finds_the_one_list_that_has_it_else_asks(chat: Conversation) -> None:
    chat.say("add milk and eggs to my shopping list")
    assert chat.say("take milk off the list") == "Removed milk from your shopping list."
    chat.say("add eggs to my todo list")
    asked = chat.say("take eggs off the list")
    assert asked == "“eggs” is on more than one list (shopping, todo). Which list should I take it off?"
    # The question is open: words that name no list are no answer, and it is asked again.
    assert chat.say("take bread off the list").endswith(asked)
    assert "eggs" in chat.say("what's on my shopping list?")  # untouched while it was unclear
    assert chat.say("my todo list") == "Removed eggs from your todo list."
    assert chat.say("take bread off the list") == "I couldn't find “bread” on your lists."
    assert "eggs" in chat.say("what's on my shopping list?")


def test_hebrew_off_the_list_without_its_name(chat: Conversation) -> None:
    chat.say("תוסיף חלב וביצים לרשימת הקניות")
    assert chat.say("תמחק חלב מהרשימה") == "הורדתי חלב מרשימת הקניות."
    assert chat.say("תמחק לחם מהרשימה") == "לא מצאתי את „לחם” ברשימות שלך."
    listed = chat.say("מה ברשימת הקניות?")
    assert "ביצים" in listed and "חלב" not in listed


def test_a_stretched_yes_or_no_answers_the_approval(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert "Before I go ahead" in chat.say("delete the call mom reminder")
    assert chat.say("Yesss") == "Deleted the reminder “call mom”."
    assert "רגע לפני" in chat.say("תמחק את התזכורת call dad")
    assert chat.say("לאאא") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert "call dad" in chat.say("show my reminders")


def test_which_ones_answered_only_mom_and_dad_deletes_those_two_after_approval(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("remind me to call the bank tomorrow at 9am")
    assert chat.say("delete the call reminders").startswith("Which ones do you mean?")
    question = chat.say("only mom and dad")
    assert question.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "call the bank" not in question
    assert chat.say("yes") == "Deleted 2 reminders: “call mom”, “call dad”."
    assert "call the bank" in chat.say("show my reminders")


def test_which_one_answered_with_two_names_is_asked_again(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert chat.say("move the call reminder to 8pm").startswith("Which one do you mean?")
    assert "Which one do you mean?" in chat.say("mom and dad")
    moved = chat.say("the one for mom")
    assert moved.startswith("Updated the reminder “call mom” — now for ") and moved.endswith(", 20:00.")
    assert "“call dad” — " in chat.say("show my reminders")


def test_delete_all_narrowed_after_edit_says_only_what_it_deletes(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert "delete all your reminders (2)" in chat.say("delete all my reminders")
    chat.say("edit")
    again = chat.say("keep dad")
    assert again.startswith("Before I go ahead: I'm about to delete 1 reminder:\n1. “call mom”")
    assert "all your reminders" not in again
    assert chat.say("yes") == "Deleted 1 reminder: “call mom”."
    assert "call dad" in chat.say("show my reminders")


def test_a_typed_1_to_an_approval_of_one_item_approves_it(chat: Conversation) -> None:
    # Was "Sorry, I didn't catch that": the question lists "1. …" and its first button is Approve,
    # and typed (not tapped) the "1" meant neither. Both readings approve the one item shown.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call dad tomorrow at 6pm")
    assert "1. “call dad”" in chat.say("delete the dad reminder")
    assert chat.say("1") == "Deleted the reminder “call dad”."
    assert "call mom" in chat.say("show my reminders")
    # With two listed, "2" is item 2 or the second button (Edit): asked again, nothing deleted;
    # "only 2" keeps just that item.
    chat.say("remind me to call dad tomorrow at 6pm")
    assert "I'm about to delete all your reminders (2)" in chat.say("delete all my reminders")
    assert chat.say("2").startswith("I can't tell whether 2 means item 2 or the “Edit” button")
    assert chat.say("show my reminders").count("•") == 2
    assert "I'm about to delete all your reminders (2)" in chat.say("delete all my reminders")
    assert chat.say("only 2").startswith("Deleted")
    assert chat.say("show my reminders").count("•") == 1


def test_hebrew_typed_1_to_an_approval_of_one_item(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאבא מחר בשש")
    assert "1. „להתקשר לאבא”" in chat.say("תמחק את התזכורת של אבא")
    assert chat.say("1") == "מחקתי את התזכורת „להתקשר לאבא”."


@pytest.mark.parametrize(
    ("answer", "deleted"),
    [("okey", True), ("no problem", True), ("no need", False), ("yse", None)],
)
def test_everyday_yes_and_no_to_an_approval(chat: Conversation, answer: str, deleted: bool | None) -> None:
    # Were "Sorry, I didn't catch that". A typo of yes is still asked again: unclear, for a delete.
    chat.say("remind me to call dad tomorrow at 6pm")
    chat.say("delete the dad reminder")
    said = chat.say(answer)
    if deleted is None:
        assert said.startswith("Sorry, I didn't catch that")
    else:
        assert said == (
            "Deleted the reminder “call dad”." if deleted else "OK, cancelled. Nothing was changed."
        )


@pytest.mark.parametrize(
    ("answer", "deleted"), [("סגור", True), ("יס", True), ("אין בעיה", True), ("לא רוצה", False)]
)
def test_everyday_hebrew_yes_and_no_to_an_approval(chat: Conversation, answer: str, deleted: bool) -> None:
    chat.say("תזכיר לי להתקשר לאבא מחר בשש")
    chat.say("תמחק את התזכורת של אבא")
    said = chat.say(answer)
    assert said == ("מחקתי את התזכורת „להתקשר לאבא”." if deleted else "בסדר, ביטלתי. לא שיניתי כלום.")


def _reminders(chat: Conversation) -> str:
    return chat.say("show my reminders")


@pytest.mark.parametrize("answer", ["just this one", "this time only", "the next one", "רק הפעם הזאת"])
def test_this_time_only_in_words_skips_the_next_time_of_the_series(chat: Conversation, answer: str) -> None:
    chat.say("remind me to water the plants every day at 7am")
    assert "The whole series" in chat.say("delete the plants reminder")
    skipped = chat.say(answer)
    assert skipped.startswith(("✅ Skipped “water the plants”", "✅ דילגתי על „water the plants”")), skipped
    assert "every day at 07:00" in _reminders(chat)


@pytest.mark.parametrize("answer", ["all of them", "the whole thing", "את כל הסדרה"])
def test_all_of_it_in_words_deletes_the_series(chat: Conversation, answer: str) -> None:
    chat.say("remind me to water the plants every day at 7am")
    chat.say("delete the plants reminder")
    deleted = chat.say(answer)
    assert "water the plants" in deleted and deleted.startswith(("Deleted", "מחקתי")), deleted
    assert "water the plants" not in _reminders(chat)


@pytest.mark.parametrize("answer", ["not this one, the whole series", "both", "לא את הסדרה"])
def test_a_part_said_with_a_not_is_asked_again_and_nothing_changes(chat: Conversation, answer: str) -> None:
    chat.say("remind me to water the plants every day at 7am")
    question = chat.say("delete the plants reminder")
    again = chat.say(answer)
    assert again.endswith(question.split("\n", 1)[1]) and "Sorry" in again, again
    assert "every day at 07:00 (next:" in _reminders(chat)
