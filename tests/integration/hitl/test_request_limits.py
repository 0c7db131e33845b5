"""A "delete all" or "clear the list" that says what to keep or which ones ("delete all my reminders
except call mom", "clear the shopping list but keep the bread", "… for tomorrow", "תנקה את רשימת
הקניות חוץ מלחם"). These words were dropped and the approval asked to delete everything, so one
tap deleted what the person had asked to keep. Now the approval lists only what the words leave.
Words that pick out none of the items are asked about, and nothing runs. Signed payloads through
the webhook, the fake clock (a Monday at 10:00, Jerusalem), the reply read from the sink."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START, shown


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def _three_reminders(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5")
    chat.say("remind me to go to the dentist on friday at 9")
    chat.say("remind me to buy bread at 6")


def test_delete_all_except_one_keeps_it(chat: Conversation) -> None:
    _three_reminders(chat)
    question = chat.say("delete all my reminders except call mom")
    assert question.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "call mom" not in question and "go to the dentist" in question and "buy bread" in question
    assert chat.say("yes") == "Deleted 2 reminders: “buy bread”, “go to the dentist”."
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(1, 17)}"


def test_delete_all_for_one_day_deletes_only_that_days(chat: Conversation) -> None:
    _three_reminders(chat)
    question = chat.say("delete all my reminders for tomorrow")
    assert "I'm about to delete 1 reminder" in question and "call mom" in question
    assert "dentist" not in question and "bread" not in question
    chat.say("yes")
    listed = chat.say("show my reminders")
    assert "call mom" not in listed and "dentist" in listed and "bread" in listed


def test_words_that_pick_out_nothing_are_asked_and_nothing_runs(chat: Conversation) -> None:
    _three_reminders(chat)
    reply = chat.say("delete all my reminders except the blue one")
    assert reply.startswith("I couldn't tell which of them “the blue one” means, so I haven't done anything.")
    # Keeping every one of them leaves nothing to delete.
    assert chat.say("delete all reminders but call mom, the dentist and bread") == (
        "That leaves nothing, so I haven't done anything."
    )
    assert len(chat.say("show my reminders").splitlines()) == 4
    # Words that limit nothing ("now please") are still the whole set, asked for approval.
    assert "delete all your reminders (3)" in chat.say("delete all my reminders now please")


def test_clear_the_list_but_keep_the_bread(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    question = chat.say("clear my shopping list but keep the bread")
    assert question.startswith("Before I go ahead: I'm about to remove 2 items from your shopping list:")
    assert "bread" not in question
    assert chat.say("approve") == "Removed milk, eggs from your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• bread"


def test_hebrew_clear_except(chat: Conversation) -> None:
    chat.say("תוסיף לרשימת הקניות חלב, ביצים ולחם")
    # Was read as "delete the reminder 'רשימת הקניות חוץ מלחם'".
    question = chat.say("תנקה את רשימת הקניות חוץ מלחם")
    assert question.startswith("רגע לפני:") and "לחם" not in question.split("\n", 1)[1]
    chat.say("כן")
    assert chat.say("מה יש ברשימת הקניות?").endswith("• לחם")


def test_delete_all_notes_except_one(chat: Conversation) -> None:
    chat.say("note: the wifi password is sunshine42")
    chat.say("note: parking is on level 3")
    question = chat.say("delete all my notes except the wifi one")
    assert "parking" in question and "wifi" not in question
    # It said "Deleted 1 note." without naming it, where a delete of reminders names them.
    assert chat.say("yes") == "Deleted 1 note: “parking is on level 3”."
    assert "wifi" in chat.say("what's the wifi password?")
    # The undo question said "deleted all notes (1)" though the wifi note was kept.
    assert chat.say("cancel").startswith("Undo what I just did — deleted 1 note?")


@pytest.mark.parametrize(
    ("request_", "undo", "said"),
    [
        ("delete all my notes except the wifi one", "cancel", "deleted 2 notes"),
        ("delete all my notes", "cancel", "deleted all notes (3)"),
        ("תמחק את כל הפתקים חוץ מהוויפי", "בטל", "מחקתי 2 פתקים"),
        ("תמחק את כל הפתקים", "בטל", "מחקתי את כל הפתקים (3)"),
    ],
)
def test_what_the_undo_question_says_a_delete_of_notes_did(
    chat: Conversation, request_: str, undo: str, said: str
) -> None:
    he = request_[0] > "z"
    for note in (
        ("הסיסמה של הוויפי היא 1234", "חניה בקומה 3", "קוד השער 55")
        if he
        else ("the wifi password is sunshine42", "parking is on level 3", "gate code 55")
    ):
        chat.say(f"{'פתק' if he else 'note'}: {note}")
    chat.say(request_)
    chat.say("כן" if he else "yes")
    assert said in chat.say(undo)


def test_the_plural_with_words_that_pick_some_out(chat: Conversation) -> None:
    _three_reminders(chat)
    chat.say("remind me to buy a gift for mom tomorrow at 6")
    # Was "I couldn't find a reminder matching “tomorrow's”".
    question = chat.say("cancel tomorrow's reminders")
    assert question.startswith("Before I go ahead: I'm about to delete 2 reminders:")
    assert "call mom" in question and "buy a gift for mom" in question and "dentist" not in question
    assert chat.say("no").startswith("OK, cancelled")
    # Was "Just to check — you want me to delete the reminder “both reminders about mom”?".
    question = chat.say("delete both reminders about mom")
    assert "I'm about to delete 2 reminders:" in question and "bread" not in question
    chat.say("yes")
    listed = chat.say("show my reminders")
    assert "mom" not in listed and "dentist" in listed and "bread" in listed


def test_delete_my_notes_about_work_is_about_notes(chat: Conversation) -> None:
    chat.say("note: work password is 1234")
    chat.say("note: gym at 6")
    # Was "Just to check — you want me to delete the reminder “notes about work”?".
    question = chat.say("delete my notes about work")
    assert "work password" in question and "gym" not in question
    chat.say("yes")
    assert "gym at 6" in chat.say("what notes do I have?")


def test_everything_on_the_list_but_one(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    # Was a removal of an item called "everything".
    question = chat.say("remove everything from my shopping list but the bread")
    assert "I'm about to remove 2 items from your shopping list" in question and "bread" not in question


def test_everything_except_with_no_list_named(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    # Was a removal of an item called "everything except bread".
    question = chat.say("remove everything except bread")
    assert "I'm about to remove 2 items from your shopping list" in question and "bread" not in question
    chat.say("no")
    # Nothing numbered was shown yet: a number picks nothing out, and nothing runs.
    assert chat.say("remove all except 2").startswith("I couldn't tell which of them “2” means")
    assert chat.say("what's on my shopping list?").count("•") == 3


def test_a_yes_with_a_new_request_after_it_runs_neither(chat: Conversation) -> None:
    # Was: the delete ran and "remind me to buy milk at 7" was dropped without a word.
    _three_reminders(chat)
    chat.say("delete all my reminders")
    reply = chat.say("yes, and remind me to buy milk at 7")
    assert reply.startswith("One thing at a time 🙂 Please answer this question first")
    assert "I'm about to delete all your reminders (3)" in reply
    # In the language of the open question.
    assert chat.say("כן, ותזכיר לי לקנות חלב בשבע").startswith("One thing at a time")
    # Nothing ran ("show my reminders" is a new request: the question is dropped, as documented).
    assert len(chat.say("show my reminders").splitlines()) == 4
    chat.say("delete all my reminders")
    # A plain yes, or a yes with thanks, still approves.
    assert chat.say("yes thanks") == "Deleted 3 reminders: “buy bread”, “call mom”, “go to the dentist”."


def test_hebrew_yes_with_a_new_request(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר בחמש")
    chat.say("תמחק את כל התזכורות")
    assert chat.say("כן, ותזכיר לי לקנות חלב בשבע").startswith("דבר אחד בכל פעם 🙂")
    assert chat.say("כן") == "מחקתי תזכורת אחת: „להתקשר לאמא”."


def test_a_yes_that_names_items_still_narrows_and_a_guess_keeps_its_new_request(chat: Conversation) -> None:
    _three_reminders(chat)
    chat.say("delete all my reminders")
    # Words of a shown item in a new request are no narrowing: it was "Deleted 1 reminder." (bread).
    assert chat.say("yes, and remind me to buy bread again tomorrow").startswith("One thing at a time")
    # The approved removal said again with one item is a narrowing, as before.
    assert chat.say("yes, delete the call mom reminder") == "Deleted 1 reminder: “call mom”."
    assert "call mom" not in chat.say("show my reminders")
    # A yes to a guess with one more thing to add: it was the guess alone, "eggs" dropped.
    chat.say("add 2 avocados")
    assert chat.say("yes, and add eggs too").startswith("One thing at a time")
    assert chat.say("yes thanks") == "Added 2 avocados to your shopping list."


@pytest.mark.parametrize(
    "answer",
    [
        "yes and also delete the dentist one",
        "yes, delete the dentist reminder too",
        "ok, and cancel the dentist too",
    ],
)
def test_a_yes_that_adds_a_removal_of_something_not_shown_runs_neither(
    chat: Conversation, answer: str
) -> None:
    # Was "Deleted the reminder “call mom”.": the dentist, named after the yes, was dropped without a word.
    _three_reminders(chat)
    assert "“call mom”" in chat.say("delete the call mom reminder")
    reply = chat.say(answer)
    assert reply.startswith("One thing at a time 🙂 Please answer this question first")
    assert "I'm about to delete 1 reminder" in reply and "dentist" not in reply
    assert chat.say("yes") == "Deleted the reminder “call mom”."
    # The dentist, asked for on its own, is its own approval.
    assert "“go to the dentist”" in chat.say("delete the dentist reminder")


def test_hebrew_yes_that_adds_a_removal_of_something_not_shown_runs_neither(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר בחמש")
    chat.say("תזכיר לי להתקשר לאבא מחר בשש")
    assert "„להתקשר לאבא”" in chat.say("תמחק את התזכורת של אבא")
    assert chat.say("כן וגם תמחק את של אמא").startswith("דבר אחד בכל פעם 🙂")
    # Said again with what was shown, it narrows to it as before.
    assert chat.say("כן, תמחק את של אבא") == "מחקתי את התזכורת „להתקשר לאבא”."
    assert "להתקשר לאמא" in chat.say("מה התזכורות שלי?")


def test_two_deletes_in_one_message_list_both_before_either_runs(chat: Conversation) -> None:
    # Was: the approval listed the dentist only, and "yes" deleted the dentist and call mom.
    _three_reminders(chat)
    question = chat.say("delete the dentist reminder and delete the call mom reminder")
    assert question.startswith("Before I go ahead: I'm about to:\ndelete 1 reminder:\n1. “go to the dentist”")
    assert "2. “call mom”" in question and "bread" not in question
    assert '\nApprove all of it, reject, or keep only some (e.g. "only 1" or "not 2")?' in question
    assert "1) Approve\n   2) Reject" in question  # no Edit: one of several steps cannot be edited here
    assert set(chat.say("yes").splitlines()) == {
        "✅ Deleted the reminder “go to the dentist”.",
        "✅ Deleted the reminder “call mom”.",
    }
    listed = chat.say("show my reminders")
    assert "bread" in listed and "dentist" not in listed and "call mom" not in listed


def test_an_answer_to_two_deletes_that_keeps_one_runs_only_that_one(chat: Conversation) -> None:
    # Was asked again ("you can answer approve or reject"): the answer may keep some, as one step's can.
    _three_reminders(chat)
    chat.say("delete the dentist reminder and delete the call mom reminder")
    assert chat.say("only the dentist") == "Deleted the reminder “go to the dentist”."
    listed = chat.say("show my reminders")
    assert "call mom" in listed and "bread" in listed and "dentist" not in listed
    chat.say("delete the bread reminder and delete the call mom reminder")
    assert chat.say("yes but not 2") == "Deleted the reminder “buy bread”."
    assert "call mom" in chat.say("show my reminders")


def test_a_removal_and_a_delete_kept_to_the_list_item(chat: Conversation) -> None:
    chat.say("remind me to go to the dentist tomorrow at 9am")
    chat.say("add milk and eggs to my shopping list")
    question = chat.say("take the milk off the list and cancel the dentist reminder")
    assert "“milk”" in question and "“go to the dentist”" in question
    assert chat.say("just the milk") == "Removed milk from your shopping list."
    assert chat.say("show my shopping list") == "Your shopping list:\n• eggs"
    assert "go to the dentist" in chat.say("show my reminders")


def test_a_delete_beside_a_new_reminder_says_both_and_a_no_runs_neither(chat: Conversation) -> None:
    # Was: only the delete was shown, and "no" also dropped the reminder without a word about it.
    _three_reminders(chat)
    question = chat.say("remind me to call dad at 5 and delete the bread reminder")
    assert "“buy bread”" in question and "Along with it: set a reminder “call dad”" in question
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    listed = chat.say("show my reminders")
    assert "buy bread" in listed and "call dad" not in listed


def test_keeping_some_items_of_a_plan_that_does_more_is_asked_again(chat: Conversation) -> None:
    # "only the bread" also set the call dad reminder the question named along with the deletes:
    # whether the rest still stands is not said, so nothing runs and the question is asked again.
    _three_reminders(chat)
    question = chat.say(
        "remind me to call dad at 5 and delete the bread reminder and delete the call mom reminder"
    )
    assert "Along with it: set a reminder “call dad”" in question
    assert question.endswith(
        "Approve all of it, or reject?\n   1) Approve\n   2) Reject\n   (answer with a number)"
    )
    again = chat.say("only the bread")
    assert again.startswith(
        "I can't tell whether the rest of the request still stands, so I haven't done anything."
    )
    listed = chat.say("show my reminders")
    assert "buy bread" in listed and "call mom" in listed and "call dad" not in listed


def test_hebrew_keeping_some_of_a_delete_all_that_also_sets_a_reminder(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר בחמש")
    chat.say("תזכיר לי לקנות לחם מחר בשבע")
    question = chat.say("תזכיר לי להתקשר לאבא מחר בשש ותמחק את כל התזכורות")
    assert "ויחד עם זה גם" in question and "להשאיר רק חלק" not in question
    assert chat.say("רק את של אמא").startswith("לא ברור לי אם שאר הבקשה עדיין בתוקף")
    listed = chat.say("מה התזכורות שלי?")
    assert "להתקשר לאמא" in listed and "לקנות לחם" in listed and "להתקשר לאבא" not in listed


def test_hebrew_two_deletes_in_one_message(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר בחמש")
    chat.say("תזכיר לי להתקשר לאבא מחר בשש")
    question = chat.say("תמחק את התזכורת של אמא ותמחק את התזכורת של אבא")
    assert (
        question.startswith("רגע לפני: אני עומד:")
        and "„להתקשר לאמא”" in question
        and "„להתקשר לאבא”" in question
    )
    assert "\nלאשר את הכול, לדחות, או להשאיר רק חלק (למשל „רק 1” או „חוץ מ-2”)?" in question
    assert chat.say("רק את של אבא") == "מחקתי את התזכורת „להתקשר לאבא”."
    assert "להתקשר לאמא" in chat.say("מה התזכורות שלי?")


@pytest.mark.parametrize(
    "request_",
    ["delete everything tomorrow", "cancel everything for tomorrow", "clear it all tomorrow", "תמחק הכל מחר",
     "תמחק את הכול מחר"],
)  # fmt: skip
def test_everything_on_a_day_is_that_days_reminders_after_one_approval(
    chat: Conversation, request_: str
) -> None:
    _three_reminders(chat)
    chat.say("remind me to water the plants tomorrow at 8pm")
    question = chat.say(request_)
    assert "call mom" in question and "water the plants" in question, question
    assert "dentist" not in question and "bread" not in question
    chat.tap(1)
    listed = chat.say("show my reminders")
    assert "call mom" not in listed and "plants" not in listed and "dentist" in listed and "bread" in listed


def test_everything_on_a_day_with_nothing_then_says_so_and_nothing_runs(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5")
    reply = chat.say("delete all my reminders for saturday")
    assert reply == "I found nothing for “saturday”, so I haven't done anything."
    assert "call mom" in chat.say("show my reminders")
