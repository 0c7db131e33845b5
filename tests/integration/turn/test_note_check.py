"""The "just to check" of a guessed note update shows the note's own text and exactly what it would
read, and a "yes" writes that. Signed payloads through the webhook, in English and Hebrew, on the
frozen clock; the notes are read back after.

It showed the words said ("change the note “gate code” to “5678”") and then wrote "gate code is
5678": more than it showed. A note not found, or several that fit, are asked about from the words
said, as before.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import TEST_NOW, FakeClock
from tests.support.conversation import Conversation, chat_at


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(TEST_NOW)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    ("save", "said", "asked", "yes", "written", "show"),
    [
        (
            "save a note: gate code is 1234",
            "the gate code changed to 5678",
            "Just to check — you want me to change the note “gate code is 1234” to “gate code is 5678”?",
            "yes",
            "📝 Updated your note: “gate code is 5678”.",
            "what are my notes?",
        ),
        (
            "תשמור פתק: הקוד של השער הוא 1234",
            "הקוד של השער השתנה ל-5678",
            "רק מוודא — לעדכן את הפתק „הקוד של השער הוא 1234” ל„הקוד של השער הוא 5678”?",
            "כן",
            "📝 עדכנתי את הפתק: „הקוד של השער הוא 5678”.",
            "מה הפתקים שלי?",
        ),
    ],
)
def test_the_question_shows_the_note_before_and_after_and_the_yes_writes_that(
    chat: Conversation, save: str, said: str, asked: str, yes: str, written: str, show: str
) -> None:
    chat.say(save)
    assert chat.say(said).startswith(asked)
    assert chat.say(yes) == written
    assert chat.say(show).endswith("• " + written.split("“")[-1].split("„")[-1].rstrip("”."))


def test_a_no_leaves_the_note_as_it_was(chat: Conversation) -> None:
    chat.say("save a note: gate code is 1234")
    chat.say("the gate code changed to 5678")
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("what are my notes?") == "Found 1 note:\n• gate code is 1234"


def test_a_note_not_found_is_asked_from_the_words_said(chat: Conversation) -> None:
    asked = chat.say("the bike lock code changed to 9999")
    assert asked.startswith("Just to check — you want me to change the note “bike lock code” to “9999”?")
    assert chat.say("no") == "OK, cancelled. Nothing was changed."


def test_several_notes_that_fit_are_asked_from_the_words_said_then_which(chat: Conversation) -> None:
    chat.say("save a note: gate code is 1234")
    chat.say("save a note: back gate code is 4444")
    asked = chat.say("the gate code changed to 5678")
    assert asked.startswith("Just to check — you want me to change the note “gate code” to “5678”?")
    assert chat.say("yes").startswith("Which one do you mean?")  # never a guess between the two
    shown = chat.say("what are my notes?")
    assert "gate code is 1234" in shown and "back gate code is 4444" in shown


@pytest.mark.parametrize(
    ("save", "update", "written", "undo", "undone"),
    [
        (
            "תשמור פתק: מספר הלקוח בחברת החשמל 445566",
            "תעדכן את הפתק של חברת החשמל, המספר החדש 778899",
            "📝 עדכנתי את הפתק: „מספר הלקוח בחברת החשמל 778899”.",
            "אופס תחזיר",
            "הפתק חזר ל„מספר הלקוח בחברת החשמל 445566”",
        ),
        (
            "save a note: wifi password is hunter2",
            "update the wifi note, new password blue42",
            "📝 Updated your note: “wifi password is blue42”.",
            "undo",
            "is back to “wifi password is hunter2”",
        ),
    ],
)
def test_a_new_value_said_of_a_named_note_replaces_only_its_value(
    chat: Conversation, save: str, update: str, written: str, undo: str, undone: str
) -> None:
    chat.say(save)
    assert chat.say(update) == written
    assert undone in chat.say(undo)


@pytest.mark.parametrize(
    ("setup", "said", "answered"),
    [
        (
            "remind me to call mom tomorrow at 5pm",
            "delete the gym one",
            "I couldn't find a reminder matching “gym”.",
        ),
        (None, "delete the gym one", "You don't have any upcoming reminders."),
        (
            "תזכיר לי להתקשר לאמא מחר ב-5",
            "תמחק את התזכורת של הרופא",
            "לא מצאתי תזכורת שמתאימה ל„הרופא”.",
        ),
    ],
)
def test_a_guessed_delete_of_nothing_there_is_answered_at_once(
    chat: Conversation, setup: str | None, said: str, answered: str
) -> None:
    """It asked "Just to check — delete the reminder “gym”?" (the words said, no item), and a "yes"
    then found nothing. Now nothing is asked, nothing changes, and a "yes" after is no approval."""
    if setup is not None:
        chat.say(setup)
    assert chat.say(said) == answered
    assert chat.choices == []
    assert chat.say("yes") == "I'm not waiting on a question right now — what would you like to do?"
    listed = chat.say("show my reminders")
    assert ("call mom" in listed or "להתקשר לאמא" in listed) if setup else "no upcoming" in listed


def test_a_guessed_delete_of_something_there_still_shows_it_first(chat: Conversation) -> None:
    chat.say("remind me to go to the gym tomorrow at 7am")
    asked = chat.say("delete the gym one")
    assert "go to the gym" in asked and "Deleted" not in asked  # the item is named, not the word
    assert "go to the gym" in chat.say("show my reminders")


@pytest.mark.parametrize(
    ("setup", "said", "named", "yes"),
    [
        (
            [
                "remind me tomorrow at 8:45 to call the bank",
                "remind me in 90 minutes to check the oven",
                "remind me at quarter past 6 to feed the cat",
                "remind me at 6.30pm to go running",
                "remind me every weekday at 7:15 to take the bus",
            ],
            "cancel the oven one",
            "“check the oven”",
            "yes",
        ),
        (
            ["תזכיר לי בעוד שעה לבדוק את התנור", "תזכיר לי מחר ב-8:45 להתקשר לבנק"],
            "תבטל את זה של התנור",
            "„לבדוק את התנור”",
            "כן",
        ),
    ],
)
def test_a_guessed_delete_is_approved_over_the_item_it_found_never_the_words_said(
    chat: Conversation, setup: list[str], said: str, named: str, yes: str
) -> None:
    """With a few reminders set (one moved), "cancel the oven one" asked "Just to check — you want
    me to delete the reminder “oven”?", and a "yes" deleted an item it never showed."""
    for line in setup:
        chat.say(line)
    chat.say("move the bank call to 9:15" if said.isascii() else "תעביר את הבנק ל-9:15")
    asked = chat.say(said)
    assert named in asked and "“oven”" not in asked and "„התנור”" not in asked, asked
    assert chat.say(yes).startswith(
        ("Deleted the reminder “check the oven”", "מחקתי את התזכורת „לבדוק את התנור”")
    )
    listed = chat.say("show my reminders" if said.isascii() else "מה התזכורות שלי")
    assert "oven" not in listed and "התנור" not in listed and ("bank" in listed or "לבנק" in listed)
