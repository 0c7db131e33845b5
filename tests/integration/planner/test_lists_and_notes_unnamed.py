"""What people write about their lists and notes without naming them, through the webhook.

"What's on my list?", "clear the list", "remove the milk", "what notes do I have?", in English and
Hebrew: the list is the one that has items (several are shown, or asked about before anything is
cleared), a thing taken off is found on the list that has it, and a question about "my notes"
lists them. Also: a Hebrew question answered with an English request is answered in English.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def test_whats_on_my_list_shows_the_one_list_then_every_list(chat: Conversation) -> None:
    assert chat.say("what's on my list?") == (
        "There's nothing on your lists yet. Try: add milk to my shopping list"
    )
    chat.say("add milk and eggs to my shopping list")
    assert chat.say("show me the list") == "Your shopping list:\n• milk\n• eggs"
    chat.say("add call the plumber to my todo list")
    both = chat.say("whats on my list")
    assert both == "Your shopping list:\n• milk\n• eggs\n\nYour todo list:\n• call the plumber"
    assert "my list" not in both and "the list" not in both


def test_hebrew_whats_on_the_list_counts_synonyms_as_one_list(chat: Conversation) -> None:
    chat.say("תוסיף חלב לרשימת הקניות")
    chat.say("add eggs to my shopping list")  # the same list, in English
    shown = chat.say("מה יש ברשימה?")
    assert shown.startswith("רשימת ")
    assert "• חלב" in shown and "• eggs" in shown and shown.count("רשימת") == 1


def test_clear_the_list_names_the_list_it_found_and_only_clears_what_was_approved(chat: Conversation) -> None:
    assert chat.say("clear the list") == "Your lists are already empty."
    chat.say("add milk and eggs to my shopping list")
    question = chat.say("clear my list")
    assert (
        "clear your shopping list (2 items):\n1. “milk”\n2. “eggs”" in question and "default" not in question
    )
    # Only milk went: said so, not "Cleared your shopping list".
    assert chat.say("only 1") == "Removed milk from your shopping list."
    assert chat.say("what's on the shopping list?") == "Your shopping list:\n• eggs"


def test_clear_the_list_with_several_lists_asks_which_and_clears_nothing(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    chat.say("add call the plumber to my todo list")
    asked = chat.say("נקה את הרשימה")
    assert asked.startswith("יש לך יותר מרשימה אחת (shopping, todo). איזו לנקות?")
    # The person names it; that one is asked about and the other list is untouched.
    question = chat.say("clear the todo list")
    assert "clear your todo list (1 item)" in question
    assert chat.say("yes") == "Removed call the plumber from your todo list."
    assert chat.say("what's on my list?") == "Your shopping list:\n• milk"


def test_remove_the_milk_takes_it_off_the_list_that_has_it(chat: Conversation) -> None:
    chat.say("add milk and eggs to my shopping list")
    chat.say("add eggs to my packing list")
    assert chat.say("remove the milk") == "Removed milk from your shopping list."
    # eggs are on two lists: Memo asks which, and removes nothing.
    asked = chat.say("cross off eggs")
    assert asked == "“eggs” is on more than one list (packing, shopping). Which list should I take it off?"
    assert chat.say("take eggs off the packing list") == "Removed eggs from your packing list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• eggs"


def test_hebrew_take_off_finds_the_item_on_a_list_named_in_english(chat: Conversation) -> None:
    chat.say("add bread to my shopping list")
    chat.say("תוסיף לחם לרשימת קניות")
    # One list under two names: the bread in either language is found once, not "on two lists".
    assert chat.say("תוריד את הלחם") == "הורדתי לחם מרשימת הקניות."
    assert chat.say("what's on my list?") == "Your shopping list:\n• bread"


def test_remove_a_reminder_without_saying_reminder(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to call the dentist tomorrow at 5pm")
    chat.say("add milk to my shopping list")
    clock.advance(hours=13)  # the reminder is no longer something just done
    # Not on a list: Memo says which reminder it may mean, and deletes nothing on that guess.
    hint = chat.say("remove the dentist")
    assert hint.startswith("“dentist” isn't on your lists. Did you mean the reminder “call the dentist”?")
    assert "call the dentist" in chat.say("show my reminders")
    # Right after a reminder is set, "remove <its name>" is that reminder, asked before deleting.
    chat.say("remind me to call mom tomorrow at 6pm")
    question = chat.say("remove call mom")
    assert "delete 1 reminder" in question and "“call mom”" in question
    assert chat.say("no") == "OK, cancelled. Nothing was changed."


@pytest.mark.parametrize(
    "question",
    [
        "what notes do I have",
        "what are my notes?",
        "which notes have I got?",
        "מה הפתקים שלי",
        "אילו פתקים יש לי",
    ],
)
def test_asking_for_my_notes_lists_them(chat: Conversation, question: str) -> None:
    chat.say("note: wifi password is 1234")
    chat.say("note: Noa's shoe size is 31")
    listed = chat.say(question)
    assert "wifi password is 1234" in listed and "Noa's shoe size is 31" in listed


def test_a_hebrew_question_answered_with_an_english_request_is_answered_in_english(
    chat: Conversation,
) -> None:
    assert chat.say("תעשה את הדבר ההוא עם הקובץ").startswith("לא בטוח שהבנתי")
    assert chat.say("add bread to my todo list") == "Added bread to your todo list."
    assert chat.say("what's on my list?") == "Your todo list:\n• bread"


def test_put_it_on_the_list_adds_to_the_one_list_else_asks_which(chat: Conversation) -> None:
    # No list yet: nothing goes to a list called "default"; the person is asked to name one.
    assert chat.say("put bananas on the list") == (
        "Which list should I add bananas to? For example: “add bananas to my shopping list”."
    )
    assert chat.say("show my lists") == "You have no lists yet. Try: add milk to my shopping list"
    chat.say("add milk to my shopping list")
    assert chat.say("put bananas on the list") == "Added bananas to your shopping list."
    chat.say("add call the plumber to my todo list")
    assert chat.say("תוסיף ביצים לרשימה") == (
        "לאיזו רשימה להוסיף את ביצים? יש לך: shopping, todo. למשל: „תוסיף ביצים לרשימת הקניות”."
    )
    shown = chat.say("what's on the shopping list?").split("\n")  # (one instant on the fake clock: any order)
    assert shown[0] == "Your shopping list:" and sorted(shown[1:]) == ["• bananas", "• milk"]


def test_and_eggs_too_right_after_adding_goes_to_the_same_list(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    assert chat.say("and eggs too") == "Added eggs to your shopping list."
    assert chat.say("oh and butter as well") == "Added butter to your shopping list."
    assert chat.say("וגם לחם ועגבניות") == "הוספתי לחם, עגבניות לרשימת הקניות."
    # A request said with "and" is that request, not an item.
    assert chat.say("and remind me tomorrow at 5pm to call mom").startswith("⏰ Reminder set: “call mom”")
    # With no list just added to, "and X too" is not guessed onto some list.
    assert chat.say("and cheese too").startswith("I'm not sure I understood")
    assert "cheese" not in chat.say("what's on the shopping list?")


def test_what_do_i_need_to_buy_shows_the_shopping_list(chat: Conversation) -> None:
    chat.say("תוסיף לרשימת קניות חלב וביצים")
    assert chat.say("מה צריך לקנות?") == "רשימת הקניות:\n• חלב\n• ביצים"
    assert chat.say("what do I need to buy?") == "Your shopping list:\n• חלב\n• ביצים"


def test_an_oxford_comma_and_running_out(chat: Conversation) -> None:
    assert (
        chat.say("add milk, eggs, and bread to groceries")
        == "Added milk, eggs, bread to your groceries list."
    )
    # "we're out of ..." is most likely for the shopping list: a guess, confirmed first.
    assert chat.say("we're out of olive oil").startswith(
        "Just to check — you want me to add olive oil to your shopping list?"
    )
    assert chat.say("yes") == "Added olive oil to your shopping list."
    listed = chat.say("what's on the grocery list?").split("\n")  # the frozen clock: same-instant order
    assert listed[0] == "Your grocery list:" and sorted(listed[1:]) == [
        "• bread",
        "• eggs",
        "• milk",
        "• olive oil",
    ]
    # Not everything people run out of is bought.
    assert chat.say("I'm out of ideas").startswith("I'm not sure I understood")


def test_hebrew_ran_out_and_a_list_with_commas(chat: Conversation) -> None:
    assert chat.say("תוסיף לרשימת קניות חלב, ביצים, ולחם") == "הוספתי חלב, ביצים, לחם לרשימת הקניות."
    assert chat.say("נגמרו לנו הביצים").startswith("רק מוודא — להוסיף ביצים לרשימת הקניות?")
    assert chat.say("לא").startswith("בסדר")


def test_bought_takes_it_off_the_list_that_has_it(chat: Conversation) -> None:
    chat.say("add milk, eggs and bread to my shopping list")
    assert chat.say("bought the milk") == "Removed milk from your shopping list."
    assert chat.say("I picked up eggs") == "Removed eggs from your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• bread"
    # Bought something that was never on a list: said, nothing removed.
    assert chat.say("bought a new car") == "I couldn't find “new car” on your lists."
    chat.say("תוסיף לרשימת קניות חלב")
    assert chat.say("קניתי את החלב") == "הורדתי חלב מרשימת הקניות."


def test_add_with_no_list_named_is_confirmed_for_the_shopping_list(chat: Conversation) -> None:
    # "add milk" was "I'm not sure I understood". It is a guess, so it is asked first.
    assert chat.say("add milk and eggs") == (
        "Just to check — you want me to add milk, eggs to your shopping list?\n"
        "   1) Yes\n   2) No\n   (answer with a number)"
    )
    assert chat.say("yes") == "Added milk, eggs to your shopping list."
    # A "no" adds nothing; a time in it is no shopping item.
    assert chat.say("add the dog").startswith("Just to check")
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    # A time in it is no shopping item: a reminder is offered instead, asked first.
    offered = chat.say("add dentist on friday at 3")
    assert (
        offered.startswith("Just to check — you want me to set a reminder “dentist” for ")
        and "list" not in offered
    )
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    listed = chat.say("what's on my shopping list?").split("\n")
    assert listed[0] == "Your shopping list:" and sorted(listed[1:]) == ["• eggs", "• milk"]
    assert chat.say("תוסיף לחם").startswith("רק מוודא — להוסיף לחם לרשימת הקניות?")


def test_things_typed_without_commas_are_asked_about_then_added_apart(chat: Conversation) -> None:
    # Was one item, "milk eggs", added without a question.
    assert chat.say("add milk eggs and bread to my shopping list").startswith(
        "Just to check — you want me to add milk, eggs, bread to your shopping list?"
    )
    assert chat.say("yes") == "Added milk, eggs, bread to your shopping list."
    # Two words that make one thing stay one, and need no question.
    assert chat.say("add peanut butter and apple juice to my shopping list") == (
        "Added peanut butter, apple juice to your shopping list."
    )
    # Pairs that make one thing are read as one, inside a run ("חלב סויה שמן זית": two things).
    assert chat.say("תוסיף חלב סויה שמן זית וסבון כלים לרשימת הקניות").startswith(
        "רק מוודא — להוסיף חלב סויה, שמן זית, סבון כלים"
    )
    assert chat.say("כן").startswith("הוספתי")
    # "No" adds nothing.
    assert chat.say("תוסיף עגבניות מלפפונים ובצל לרשימת הקניות").startswith(
        "רק מוודא — להוסיף עגבניות, מלפפונים, בצל"
    )
    assert chat.say("לא").startswith("בסדר, ביטלתי")
    listed = chat.say("what's on my shopping list?")
    assert "• eggs" in listed and "• milk eggs" not in listed and "• שמן זית" in listed
    assert "מלפפונים" not in listed


def test_got_a_thing_takes_it_off_the_list_that_has_it(chat: Conversation) -> None:
    # "got the eggs too" was not understood ("bought" was).
    chat.say("add milk, eggs, olive oil and bread to my shopping list")
    assert chat.say("I bought the milk") == "Removed milk from your shopping list."
    assert chat.say("got the eggs too") == "Removed eggs from your shopping list."
    assert chat.say("got the olive oil") == "Removed olive oil from your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• bread"
    # "got" with words that are not things to buy is no purchase.
    assert chat.say("got a call from the bank").startswith("I'm not sure I understood")


@pytest.mark.parametrize(
    ("answer", "list_shown"),
    [("the todo list", "todo"), ("no, the shopping list", "shopping"), ("i meant my todo list", "todo"),
     ("shopping", "shopping"), ("the hardware list", "hardware"), ("to my packing list please", "packing")],
)  # fmt: skip
def test_which_list_is_a_question_its_answer_completes(
    chat: Conversation, answer: str, list_shown: str
) -> None:
    asked = chat.say("add eggs to the list")
    assert asked.startswith("Which list should I add eggs to?")
    assert chat.say(answer) == f"Added eggs to your {list_shown} list."
    assert chat.say(f"what's on my {list_shown} list?") == f"Your {list_shown} list:\n• eggs"


def test_which_list_in_hebrew_with_two_lists(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    chat.say("add call the plumber to my todo list")
    assert chat.say("תוסיף מסמרים לרשימה").startswith("לאיזו רשימה להוסיף את מסמרים?")
    assert chat.say("לרשימת המשימות") == "הוספתי מסמרים לרשימת המשימות."


@pytest.mark.parametrize("unclear", ["asdf qwer zxcv", "hardware", "hmm"])
def test_an_answer_that_names_no_list_is_asked_again_and_adds_nothing(
    chat: Conversation, unclear: str
) -> None:
    chat.say("add eggs to the list")
    again = chat.say(unclear)
    assert "Which list should I add eggs to?" in again
    assert chat.say("never mind") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my lists") == "You have no lists yet. Try: add milk to my shopping list"


def test_a_new_request_instead_of_the_list_is_its_own(chat: Conversation) -> None:
    chat.say("add eggs to the list")
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")
    assert chat.say("show my lists") == "You have no lists yet. Try: add milk to my shopping list"


@pytest.mark.parametrize("question", ["show groceries", "open groceries", "show me groceries?"])
def test_a_list_named_alone_after_show_is_shown(chat: Conversation, question: str) -> None:
    # "show groceries" was "I'm not sure I understood".
    chat.say("add oat milk, bananas and coffee filters to groceries")
    shown = chat.say(question)
    assert "oat milk" in shown and "coffee filters" in shown, shown


def test_delete_everything_asks_about_every_reminder_and_leaves_lists_and_notes(chat: Conversation) -> None:
    # It was "I couldn't find a reminder matching “everything”".
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("add milk and eggs to my shopping list")
    chat.say("save a note: gate code 4521")
    chat.say("what are my reminders?")
    asked = chat.say("delete everything")
    assert asked.startswith(
        "Before I go ahead: I'm about to delete all your reminders (1):\n1. “call mom”"
    ), asked
    assert chat.say("yes") == "Deleted 1 reminder: “call mom”."
    assert "milk" in chat.say("what's on my shopping list?")
    assert "gate code 4521" in chat.say("show my notes")


@pytest.mark.parametrize("words", ["delete everything", "clear it all", "תמחק הכל"])
def test_delete_everything_right_after_a_list_add_asks_to_clear_that_list(
    chat: Conversation, words: str
) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("add milk and eggs to my shopping list")
    asked = chat.say(words)
    assert "shopping" in asked or "הקניות" in asked, asked
    assert "“milk”" in asked or "„milk”" in asked, asked
    chat.say("no")
    assert "milk" in chat.say("what's on my shopping list?")
    assert "call mom" in chat.say("what are my reminders?")


@pytest.mark.parametrize(
    "words", ["תוסיף לרשימה חלב ולחם", "תוסיף לרשימה: חלב ולחם", "תוסיף לרשימה שלי חלב ולחם"]
)
def test_hebrew_add_to_the_list_then_its_items_adds_the_items(chat: Conversation, words: str) -> None:
    # "תוסיף לרשימה חלב ולחם" added "ולחם" to a list named "חלב".
    chat.say("תוסיף ביצים לרשימת הקניות")
    assert chat.say(words) == "הוספתי חלב, לחם לרשימת הקניות."
    listed = chat.say("מה ברשימת הקניות?")
    assert "• חלב" in listed and "• לחם" in listed and "ולחם" not in listed


def test_a_correction_said_to_which_list_is_asked_again_and_never_becomes_an_item(chat: Conversation) -> None:
    # "בעצם בלי הלחם" to "which list?" went on the list as the item "לחם בעצם בלי הלחם".
    asked = chat.say("תוסיף לרשימה חלב ולחם")
    assert asked.startswith("לאיזו רשימה להוסיף את חלב, לחם?")
    again = chat.say("בעצם בלי הלחם")
    assert again.endswith(asked) and again != asked
    assert chat.say("לרשימת הקניות") == "הוספתי חלב, לחם לרשימת הקניות."
    assert "בעצם" not in chat.say("מה ברשימת הקניות?")


@pytest.mark.parametrize(
    ("add", "done", "removed", "left", "ask"),
    [
        (
            "add fix the faucet and change the bulb to my todo list",
            "done with fix the faucet",
            "Removed fix the faucet from your todo list.",
            "Your todo list:\n• change the bulb",
            "show my todo list",
        ),
        (
            "תוסיף לרשימת המשימות לתקן את הברז ולהחליף נורה",
            "סיימתי לתקן את הברז",
            "הורדתי לתקן את הברז מרשימת המשימות.",
            "רשימת המשימות:\n• להחליף נורה",
            "מה ברשימת המשימות?",
        ),
    ],
)
def test_a_task_said_done_comes_off_its_list(
    chat: Conversation, add: str, done: str, removed: str, left: str, ask: str
) -> None:
    # "done with fix the faucet" and "סיימתי לתקן את הברז" were "I'm not sure I understood".
    chat.say(add)
    assert chat.say(done) == removed
    assert chat.say(ask) == left
    assert chat.say("undo").startswith("↩️")
    assert chat.say(ask).count("•") == 2
    # Done with something on no list: said, nothing removed.
    assert chat.say("finished the report") == "I couldn't find “report” on your lists."
    # A thing people buy that was "finished" ran out: it is not taken off the shopping list.
    chat.say("add milk to my shopping list")
    assert "Removed" not in chat.say("we finished the milk")
    assert "milk" in chat.say("what's on my shopping list?")
