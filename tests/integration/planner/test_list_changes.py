"""Changing a thing on a list the way people say it, through the webhook on the local stack: "actually
make it 12 eggs" right after adding, "replace the bread with sourdough bread", "swap milk for oat milk
on the shopping list", "תשנה ביצים ל-12 ביצים"; the thing keeps its place, "undo" gives it its words
back, and a thing on no list or on two lists changes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import START


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def test_make_it_12_eggs_right_after_adding_them_and_undo(chat: Conversation) -> None:
    chat.say("add eggs and bread to my shopping list")
    # Was "I'm not sure I understood".
    assert chat.say("actually make it 12 eggs") == "Changed “eggs” to “12 eggs” on your shopping list."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• 12 eggs\n• bread"
    # It was "Done: restored “eggs”."
    assert chat.say("undo") == "↩️ Undone: the item on your shopping list is “eggs” again."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• eggs\n• bread"


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        ("replace the bread with sourdough bread", "• eggs\n• sourdough bread"),
        ("swap bread for rolls on my shopping list", "• eggs\n• rolls"),
        ("change eggs to 12 eggs", "• 12 eggs\n• bread"),
        ("rename eggs to 12 eggs", "• 12 eggs\n• bread"),
    ],
)
def test_a_thing_changed_by_its_words_keeps_its_place(chat: Conversation, said: str, listed: str) -> None:
    chat.say("add eggs and bread to my shopping list")
    chat.say("what's the weather like?")  # something else in between: the words name the thing
    assert chat.say(said).startswith("Changed “")
    assert chat.say("what's on my shopping list?") == f"Your shopping list:\n{listed}"


def test_hebrew_change_eggs_to_12_eggs(chat: Conversation) -> None:
    chat.say("תוסיף ביצים ולחם לרשימת הקניות")
    assert chat.say("תשנה ביצים ל-12 ביצים") == "שיניתי את „ביצים” ל„12 ביצים” ברשימת הקניות."
    assert chat.say("תחליף את הלחם בלחם מחמצת").startswith("שיניתי את „לחם” ל„לחם מחמצת”")
    assert chat.say("מה יש ברשימת הקניות?") == "רשימת הקניות:\n• 12 ביצים\n• לחם מחמצת"
    assert chat.say("תבטל את מה שעשית") == "↩️ ביטלתי: הפריט ברשימת הקניות חזר ל„לחם”."


def test_a_thing_on_no_list_or_on_two_changes_nothing(chat: Conversation) -> None:
    assert chat.say("change milk to oat milk") == "I couldn't find “milk” on your lists."
    chat.say("add milk to my todo list")
    chat.say("add milk to my shopping list")
    assert chat.say("change milk to oat milk") == (
        "“milk” is on more than one list (shopping, todo). Which list should I change it on?"
    )
    assert (
        chat.say("change milk to oat milk on my todo list")
        == "Changed “milk” to “oat milk” on your todo list."
    )
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"


def test_the_new_words_alone_right_after_adding(chat: Conversation) -> None:
    chat.say("תוסיף לרשימת קניות חלב, ביצים ולחם")
    assert chat.say("בעצם 12 ביצים") == "שיניתי את „ביצים” ל„12 ביצים” ברשימת הקניות."  # was not understood
    chat.say("add milk and bread to my todo list")
    assert chat.say("actually oat milk") == "Changed “milk” to “oat milk” on your todo list."
    assert chat.say("what's on my todo list?") == "Your todo list:\n• oat milk\n• bread"


@pytest.mark.parametrize(
    ("ask", "answer", "gone_from"),
    [
        ("remove batteries", "packing", "packing"),
        ("take the batteries off", "from the shopping list", "shopping"),
        ("remove batteries", "the packing one", "packing"),
        ("remove the batteries", "my shopping list", "shopping"),
    ],
)
def test_which_list_to_take_it_off_is_asked_and_answered(
    chat: Conversation, ask: str, answer: str, gone_from: str
) -> None:
    # "Which list should I take it off?" was a plain reply: "packing" was then "not understood" and
    # nothing was removed.
    kept_on = "shopping" if gone_from == "packing" else "packing"
    chat.say("add batteries to the shopping list")
    chat.say("add batteries to the packing list")
    assert chat.say(ask).endswith("Which list should I take it off?")
    assert chat.say(answer) == f"Removed batteries from your {gone_from} list."
    assert chat.say(f"what's on my {kept_on} list?") == f"Your {kept_on} list:\n• batteries"
    assert chat.say(f"what's on my {gone_from} list?") == f"Your {gone_from} list is empty."


@pytest.mark.parametrize(("answer", "gone_from"), [("אריזה", "האריזה"), ("מרשימת הקניות", "הקניות")])
def test_hebrew_which_list_to_take_it_off(chat: Conversation, answer: str, gone_from: str) -> None:
    chat.say("תוסיף סוללות לרשימת הקניות")
    chat.say("תוסיף סוללות לרשימת האריזה")
    assert chat.say("תוריד את הסוללות").endswith("מאיזו רשימה להוריד?")
    assert chat.say(answer) == f"הורדתי סוללות מרשימת {gone_from}."
    kept = "הקניות" if gone_from == "האריזה" else "האריזה"
    assert chat.say(f"מה ברשימת {kept}?") == f"רשימת {kept}:\n• סוללות"


def test_which_list_to_change_it_on_is_asked_and_answered(chat: Conversation) -> None:
    chat.say("add tape to the shopping list")
    chat.say("add tape to the packing list")
    assert chat.say("change tape to duct tape").endswith("Which list should I change it on?")
    assert chat.say("the shopping list") == "Changed “tape” to “duct tape” on your shopping list."
    assert chat.say("what's on my packing list?") == "Your packing list:\n• tape"


def test_an_answer_that_names_no_list_removes_nothing(chat: Conversation) -> None:
    chat.say("add batteries to the shopping list")
    chat.say("add batteries to the packing list")
    chat.say("remove batteries")
    chat.say("whatever")
    listed = chat.say("show my lists")
    assert "shopping (1 item)" in listed and "packing (1 item)" in listed


@pytest.mark.parametrize(
    ("adds", "said", "shown", "asked"),
    [
        (
            ["add olive oil to the shopping list", "add paper towels to the shopping list"],
            "actually make it 2 bottles of olive oil",
            ["• 2 bottles of olive oil", "• paper towels"],
            "show the shopping list",
        ),
        (
            ["תוסיף שמן זית לרשימת הקניות", "תוסיף נייר סופג לרשימת הקניות"],
            "בעצם תעשה את זה 2 בקבוקי שמן זית",
            ["• 2 בקבוקי שמן זית", "• נייר סופג"],
            "מה ברשימת הקניות?",
        ),
    ],
)
def test_make_it_names_the_thing_added_before_the_last_add(
    chat: Conversation, adds: list[str], said: str, shown: list[str], asked: str
) -> None:
    # The paper towels, added last, were renamed “2 bottles of olive oil”, and olive oil stayed.
    for add in adds:
        chat.say(add)
    chat.say(said)
    listed = chat.say(asked).splitlines()
    assert sorted(listed[1:]) == sorted(shown)


@pytest.mark.parametrize(
    ("add", "take_off", "asked", "left"),
    [
        (
            "add apples, milk and bread to the shopping list",
            "delete milk and bread",
            "show the shopping list",
            ["• apples"],
        ),
        (
            "תוסיף תפוחים, חלב ולחם לרשימת הקניות",
            "תמחק את התפוחים ואת החלב",
            "מה ברשימת הקניות?",
            ["• לחם"],
        ),
        (
            "תוסיף תפוחים, חלב ולחם לרשימת הקניות",
            "תוריד מהרשימה את התפוחים והחלב",
            "מה ברשימת הקניות?",
            ["• לחם"],
        ),
    ],
)
def test_several_things_deleted_without_the_list_named_come_off_it(
    chat: Conversation, add: str, take_off: str, asked: str, left: list[str]
) -> None:
    # "delete milk and bread" answered "You don't have any upcoming reminders"; "תוריד מהרשימה את…"
    # answered that the list was empty. A reminder set before is not touched.
    chat.say("remind me to buy a gift tomorrow at 9" if "add" in add else "תזכיר לי לקנות מתנה מחר ב-9")
    chat.say(add)
    chat.say(take_off)
    assert chat.say(asked).splitlines()[1:] == left
    assert "gift" in chat.say("show my reminders") or "מתנה" in chat.say("show my reminders")


@pytest.mark.parametrize(
    ("add", "remove", "keep", "added", "listing"),
    [
        (
            "add bananas and apples to my shopping list",
            "remove the bananas",
            "actually keep the bananas",
            "Added bananas to your shopping list.",
            "show my shopping list",
        ),
        (
            "add bananas and apples to my shopping list",
            "remove bananas and apples",
            "oh wait, don't remove the apples",
            "Added apples to your shopping list.",
            "show my shopping list",
        ),
        (
            "תוסיף חלב ולחם לרשימת הקניות",
            "תוריד את החלב",
            "בעצם תשאיר את החלב",
            "הוספתי חלב לרשימת הקניות.",
            "מה ברשימת הקניות",
        ),
    ],
)
def test_a_removal_taken_back_by_name_puts_that_thing_back(
    chat: Conversation, add: str, remove: str, keep: str, added: str, listing: str
) -> None:
    # "actually keep the bananas" was "I'm not sure I understood", and the bananas stayed off.
    chat.say(add)
    chat.say(remove)
    assert chat.say(keep) == added
    kept = added.split(" ")[1]
    assert kept in chat.say(listing)
    assert chat.say("keep the cheese").startswith(("I'm not sure", "לא בטוח"))  # not what was removed


@pytest.mark.parametrize(
    ("add", "move", "answer", "shown_from", "shown_to"),
    [
        (
            "add milk and batteries to my shopping list",
            "move the batteries to the hardware list",
            "✅ Removed batteries from your shopping list.\n✅ Added batteries to your hardware list.",
            "what's on my shopping list?",
            "what's on my hardware list?",
        ),
        (
            "תוסיף חלב וסוללות לרשימת הקניות",
            "תעביר את הסוללות לרשימת טיולים",
            "✅ הורדתי סוללות מרשימת הקניות.\n✅ הוספתי סוללות לרשימת הטיולים.",
            "מה ברשימת הקניות",
            "מה ברשימת הטיולים",
        ),
    ],
)
def test_a_thing_moved_to_another_list_is_there_and_not_here(
    chat: Conversation, add: str, move: str, answer: str, shown_from: str, shown_to: str
) -> None:
    # "move the batteries to the hardware list" was "I'm not sure I understood".
    chat.say(add)
    assert chat.say(move) == answer
    thing = "batteries" if "batteries" in move else "סוללות"
    assert thing not in chat.say(shown_from)
    assert thing in chat.say(shown_to)


_SHOPPING_NAMES = ("shopping", "groceries", "grocery", "supermarket", "store", "food shopping")


@pytest.mark.parametrize("other", _SHOPPING_NAMES)
def test_a_thing_moved_to_its_own_list_under_another_name_stays_where_it_is(
    chat: Conversation, other: str
) -> None:
    # It was taken off and added again: the reply spoke of a move, and it went to the end of the list.
    chat.say("add milk and bread to my shopping list")
    answer = "\n".join(chat.deliver(chat.user.text(f"move the milk to the {other} list")))
    assert "Removed" not in answer and "Added" not in answer and answer.endswith("Already there: milk.")
    first = (
        "It's on your shopping list already."
        if other == "shopping"
        else f"The {other} list is your shopping list"
    )
    assert answer.startswith(first)
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk\n• bread"


@pytest.mark.parametrize("other", ["הסופר", "קניות", "הקניות"])
def test_in_hebrew_too_a_thing_moved_to_its_own_list_stays_where_it_is(
    chat: Conversation, other: str
) -> None:
    chat.say("תוסיף חלב ולחם לרשימת הקניות")
    answer = "\n".join(chat.deliver(chat.user.text(f"תעביר את החלב לרשימת {other}")))
    assert "הורדתי" not in answer and "הוספתי" not in answer
    assert chat.say("מה ברשימת הקניות").split("\n")[1:] == ["• חלב", "• לחם"]


@pytest.mark.parametrize(
    ("add", "undo", "answer", "shown"),
    [
        (
            "add milk to my shopping list",
            "undo",
            "↩️ Undone: “milk” is off your shopping list again.",
            "what's on my shopping list?",
        ),
        (
            "add eggs and bread to my shopping list",
            "oops, undo that",
            "↩️ Undone: “eggs”, “bread” are off your shopping list again.",
            "what's on my shopping list?",
        ),
        (
            "תוסיף חלב לרשימת הקניות",
            "תבטל מה שעשית",
            "↩️ ביטלתי: „חלב” ירד שוב מרשימת הקניות.",
            "מה ברשימת הקניות",
        ),
        (
            "תוסיף ביצים ולחם לרשימת הקניות",
            "בטל את הפעולה האחרונה",
            "↩️ ביטלתי: „ביצים”, „לחם” ירדו שוב מרשימת הקניות.",
            "מה ברשימת הקניות",
        ),
    ],
)
def test_undo_right_after_an_add_takes_it_off_again(
    chat: Conversation, add: str, undo: str, answer: str, shown: str
) -> None:
    # "undo" after "add milk" answered "There's nothing to undo", and the milk stayed.
    chat.say("add apples to my shopping list" if add[0] < "z" else "תוסיף תפוחים לרשימת הקניות")
    chat.say(add)
    assert chat.say(undo) == answer
    # Only what that request added comes off; what was there before stays.
    assert chat.say(shown).split("\n")[1:] == (["• apples"] if add[0] < "z" else ["• תפוחים"])


@pytest.mark.parametrize("words", ["bring it back", "restore it", "תחזיר את זה"])
def test_words_asking_for_something_back_take_nothing_off(chat: Conversation, words: str) -> None:
    chat.say("add milk to my shopping list")
    assert chat.say(words).startswith(("There's nothing to undo", "אין מה לבטל"))
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"


def test_undo_of_a_move_puts_it_back_and_takes_the_copy_off(chat: Conversation) -> None:
    # The copy added to the shopping list used to stay: the batteries were on both lists.
    chat.say("add batteries and nails to the hardware list")
    chat.say("move the batteries to the shopping list")
    assert chat.say("undo") == "↩️ Undone: “batteries” is back; “batteries” is off your shopping list again."
    assert chat.say("what lists do I have?") == "Your lists:\n• hardware (2 items)"


def test_a_bare_cancel_after_an_add_asks_first(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    assert (
        chat.say("cancel")
        == "Undo what I just did — added milk to the shopping list?\n   1) Yes\n   2) No\n   (answer with a number)"
    )
    assert chat.say("no") == "OK, I left everything as it is."
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"
    chat.say("cancel")
    assert chat.say("yes") == "↩️ Undone: “milk” is off your shopping list again."


def test_undo_after_a_change_of_what_was_added_undoes_the_change_only(chat: Conversation) -> None:
    chat.say("add apples to my shopping list")
    chat.say("change apples to green apples")
    assert chat.say("undo") == "↩️ Undone: the item on your shopping list is “apples” again."
    assert chat.say("undo").startswith("There's nothing to undo")
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• apples"


def test_undo_after_an_add_that_found_it_there_takes_nothing_off(chat: Conversation) -> None:
    chat.say("add milk to my shopping list")
    assert chat.say("add milk to my shopping list") == "Already there: milk."
    assert chat.say("undo").startswith("There's nothing to undo")
    assert chat.say("what's on my shopping list?") == "Your shopping list:\n• milk"
