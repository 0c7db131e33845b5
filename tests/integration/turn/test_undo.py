"""A bare "cancel" / "בטל" / "ביטול" with no question open, through the webhook: with a change that can
still be undone Memo asks "Undo what I just did — …?" and undoes only on yes; with nothing to undo it
says so; a new request after the question is its own and undoes nothing; with a question open the
word cancels that question."""

from __future__ import annotations

import pytest

from tests.support.conversation import Conversation

NOTHING = "There's nothing to cancel or undo right now."
NOTHING_HE = "אין כרגע מה לבטל או להחזיר."


def _moved(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    assert "19:00" in chat.say("move call mom to 7pm")


@pytest.mark.parametrize("word", ["cancel", "Cancel.", "בטל", "ביטול"])
def test_nothing_to_undo_says_so(chat: Conversation, word: str) -> None:
    said = chat.say(word)
    assert said == (NOTHING if word.lower().startswith("cancel") else NOTHING_HE)
    assert not chat.choices


def test_cancel_asks_and_only_yes_undoes(chat: Conversation) -> None:
    _moved(chat)
    asked = chat.say("cancel")
    assert asked.startswith("Undo what I just did — updated reminder “call mom”")
    assert [c.title for c in chat.choices] == ["Yes", "No"]
    undone = chat.say("yes")
    assert undone.startswith("↩️ Undone: “call mom” is back at ") and "17:00" in undone
    listed = chat.say("show my reminders")
    assert "17:00" in listed and "19:00" not in listed


def test_a_tap_on_yes_undoes(chat: Conversation) -> None:
    _moved(chat)
    chat.say("cancel")
    assert chat.tap(1).startswith("↩️ Undone:")
    assert "17:00" in chat.say("show my reminders")


@pytest.mark.parametrize("answer", ["no", "tap No", "בטל", "cancel"])
def test_no_or_cancel_again_keeps_the_change(chat: Conversation, answer: str) -> None:
    _moved(chat)
    chat.say("cancel")
    said = chat.tap(2) if answer == "tap No" else chat.say(answer)
    assert said in ("OK, I left everything as it is.", "בסדר, השארתי הכול כמו שזה.")
    assert "19:00" in chat.say("show my reminders")


def test_an_unclear_answer_is_asked_again(chat: Conversation) -> None:
    _moved(chat)
    chat.say("cancel")
    again = chat.say("3")
    assert "Undo what I just did" in again
    assert "19:00" in chat.say("show my reminders")


def test_hebrew_asks_in_hebrew_and_yes_undoes(chat: Conversation) -> None:
    chat.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    assert "19:00" in chat.say("תזיז את התזכורת להתקשר לאמא ל-19:00")
    asked = chat.say("בטל")
    assert asked.startswith("לבטל את מה שעשיתי עכשיו — ")
    assert [c.title for c in chat.choices] == ["כן", "לא"]
    assert chat.say("כן").startswith("↩️ ביטלתי:")
    assert "17:00" in chat.say("מה התזכורות שלי")


def test_a_new_request_after_the_ask_is_its_own_and_undoes_nothing(chat: Conversation) -> None:
    _moved(chat)
    chat.say("cancel")
    # Asking changed nothing, and a new request is its own: the question goes.
    assert "08:00" in chat.say("remind me to buy milk tomorrow at 8am")
    listed = chat.say("show my reminders")
    assert "19:00" in listed and "buy milk" in listed
    # The question is gone with the new request: a "yes" now is no answer to it.
    assert "Undone" not in chat.say("yes")
    assert "19:00" in chat.say("show my reminders")


def test_with_a_question_open_the_word_cancels_that_question(chat: Conversation) -> None:
    _moved(chat)
    chat.say("remind me to buy milk tomorrow at 8am")
    asked = chat.say("delete all my reminders")
    assert [c.title for c in chat.choices][:2] == ["Yes", "No"] or "?" in asked
    said = chat.say("בטל")
    assert "Undo what I just did" not in said and "לבטל את מה שעשיתי" not in said
    listed = chat.say("show my reminders")
    assert "19:00" in listed and "buy milk" in listed


@pytest.mark.parametrize(
    ("delete", "kept", "word", "said"),
    [
        ("delete all my reminders", "only 1 and 3", "cancel", "Undo what I just did — deleted 2 reminders?"),
        ("תמחק את כל התזכורות", "רק 2", "בטל", "לבטל את מה שעשיתי עכשיו — מחקתי תזכורת אחת?"),
    ],
)
def test_a_delete_all_kept_short_is_named_by_its_count_not_as_all(
    chat: Conversation, delete: str, kept: str, word: str, said: str
) -> None:
    # It asked "Undo what I just did — deleted all reminders (2)?" though one was kept.
    for title, hour in (("call mom", 5), ("call bob", 6), ("call dan", 7)):
        chat.say(f"remind me to {title} tomorrow at {hour}pm")
    assert "(3)" in chat.say(delete)
    chat.say(kept)
    assert chat.say(word).startswith(said)
    chat.say("כן" if word == "בטל" else "yes")
    assert all(title in chat.say("show my reminders") for title in ("call mom", "call bob", "call dan"))


@pytest.mark.parametrize(
    ("add", "remove", "back", "undone", "listed"),
    [
        (
            "add milk, eggs and bread to the shopping list",
            "remove the bread",
            "actually put it back",
            "↩️ Undone: “bread” is back.",
            "Your shopping list:\n• milk\n• eggs\n• bread",
        ),
        (
            "תוסיף לרשימת הקניות חלב, ביצים ולחם",
            "תוריד את הלחם",
            "בעצם תחזיר אותו",
            "↩️ ביטלתי את המחיקה ושחזרתי את „לחם”.",
            "רשימת הקניות:\n• חלב\n• ביצים\n• לחם",
        ),
    ],
)
def test_put_it_back_after_a_second_thought_word(
    chat: Conversation, add: str, remove: str, back: str, undone: str, listed: str
) -> None:
    # "בעצם תחזיר אותו" was "לא בטוח שהבנתי"; the bread stayed off the list.
    chat.say(add)
    chat.say(remove)
    assert chat.say(back) == undone
    assert chat.say("מה ברשימת הקניות" if add.startswith("ת") else "show my shopping list") == listed
