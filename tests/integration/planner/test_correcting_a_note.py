"""Correcting a note the way people do, through the webhook, in English and Hebrew.

"Save a note: wifi password is sunshine42" -> "actually it's sunshine43" was "I'm not sure I
understood"; notes could not be changed at all. The value said again now replaces the value; a note
that is not "something is its value" is asked about first, showing what it would then read; "change
the wifi note to ..." changes the note named.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Iterator[Conversation]:
    with chat_at(monkeypatch, clock) as conversation:
        yield conversation


@pytest.mark.parametrize(
    "correction", ["actually it's sunshine43", "sorry, it's sunshine43", "No, it is sunshine43."]
)
def test_the_value_said_again_replaces_the_value(chat: Conversation, correction: str) -> None:
    chat.say("save a note: wifi password is sunshine42")
    assert chat.say(correction) == "📝 Updated your note: “wifi password is sunshine43”."
    assert (
        chat.say("what's my wifi password?")
        == "Found 1 note for “wifi password”:\n• wifi password is sunshine43"
    )


def test_hebrew_correction_and_change_by_name(chat: Conversation) -> None:
    chat.say("תשמור פתק: הקוד של השער הוא 1234")
    assert chat.say("בעצם זה 1243") == "📝 עדכנתי את הפתק: „הקוד של השער הוא 1243”."
    assert chat.say("תשנה את הפתק של השער ל-9999") == "📝 עדכנתי את הפתק: „הקוד של השער הוא 9999”."
    assert chat.say("מה הקוד של השער?").endswith("• הקוד של השער הוא 9999")


def test_a_note_without_a_value_is_asked_about_first(chat: Conversation) -> None:
    chat.say("save a note: buy a gift for dana")
    assert chat.say("actually it's for noa").startswith(
        "Just to check — you want me to change the note “buy a gift for dana” to “for noa”?"
    )
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("what are my notes?") == "Found 1 note:\n• buy a gift for dana"


def test_change_the_named_note(chat: Conversation) -> None:
    chat.say("save a note: wifi password is sunshine42")
    chat.say("save a note: locker: 118")
    assert chat.say("change the wifi note to moon7") == "📝 Updated your note: “wifi password is moon7”."
    assert chat.say("update my note about the locker to 121") == "📝 Updated your note: “locker: 121”."
    assert chat.say("what's my locker?").endswith("• locker: 121")


def test_a_correction_long_after_the_note_is_not_taken_as_one(chat: Conversation, clock: FakeClock) -> None:
    chat.say("save a note: wifi password is sunshine42")
    clock.advance(hours=13)
    assert "Updated" not in chat.say("actually it's sunshine43")
    assert chat.say("what's my wifi password?").endswith("• wifi password is sunshine42")


def test_what_a_guessed_correction_shows_is_what_it_writes(chat: Conversation) -> None:
    # It used to show "to “moon7”" and then write "... router is moon7": more than it showed. What
    # it shows is now exactly what is written, and the note it changes is shown whole.
    chat.say("save a note: the password for the office wifi router is sunshine42abc")
    asked = chat.say("actually it's moon7")
    assert asked.startswith(
        "Just to check — you want me to change the note “the password for the office wifi router is sunshine42abc” "
        "to “moon7”?"
    )
    assert chat.say("yes") == "📝 Updated your note: “moon7”."


def test_a_hedged_value_is_the_value(chat: Conversation) -> None:
    chat.say("save a note: gate code is 4321")
    assert chat.say("no it's actually 4312") == "📝 Updated your note: “gate code is 4312”."


def test_a_part_of_a_note_changed_keeps_the_rest(chat: Conversation) -> None:
    # It wrote "the car is level 4": the words said replaced the whole value.
    chat.say("save a note that the car is parked on level 3")
    assert (
        chat.say("update the car note to level 4") == "📝 Updated your note: “the car is parked on level 4”."
    )
    chat.say("תשמור פתק: החניה בקומה 3")
    assert chat.say("תעדכן את הפתק של החניה לקומה 4") == "📝 עדכנתי את הפתק: „החניה בקומה 4”."


@pytest.mark.parametrize(
    ("save", "said", "asked", "yes", "updated"),
    [
        (
            "save a note: the school play is on the 20th",
            "actually the school play is on the 21st",
            "Just to check — you want me to change the note “the school play is on the 20th” to "
            "“the school play is on the 21st”?",
            "yes",
            "📝 Updated your note: “the school play is on the 21st”.",
        ),
        (
            "תשמור פתק: ההצגה בעשרים",
            "בעצם ההצגה בעשרים ואחד",
            "רק מוודא — לעדכן את הפתק „ההצגה בעשרים” ל„ההצגה בעשרים ואחד”?",
            "כן",
            "📝 עדכנתי את הפתק: „ההצגה בעשרים ואחד”.",
        ),
        (
            "תשמור פתק: ההצגה ב-20",
            "בעצם ההצגה ב-21",
            "רק מוודא — לעדכן את הפתק „ההצגה ב-20” ל„ההצגה ב-21”?",
            "כן",
            "📝 עדכנתי את הפתק: „ההצגה ב-21”.",
        ),
    ],
)
def test_the_subject_said_again_offers_to_update_the_note(
    chat: Conversation, save: str, said: str, asked: str, yes: str, updated: str
) -> None:
    # Was "save the note “the school play is on the 21st”?": a second note beside the first.
    chat.say(save)
    assert chat.say(said).startswith(asked)
    assert chat.say(yes) == updated
    notes = chat.say("what are my notes?")
    assert notes.count("•") == 1 and updated.split("“")[-1].split("„")[-1].rstrip("”.") in notes


def test_a_note_is_found_by_another_form_of_its_words(chat: Conversation) -> None:
    # "parking" did not find "parked": "I couldn't find a note matching “parking”".
    chat.say("note that the car is parked on level 3")
    assert (
        chat.say("search notes for parking") == "Found 1 note for “parking”:\n• the car is parked on level 3"
    )
    assert (
        chat.say("update the parking note to level 4")
        == "📝 Updated your note: “the car is parked on level 4”."
    )


@pytest.mark.parametrize(
    ("saved", "looked", "correction", "updated"),
    [
        (
            "save a note: parking spot is B4 level 2",
            "where did i park",
            "actually it's level 3",
            "📝 Updated your note: “parking spot is B4 level 3”.",
        ),
        (
            "save a note: wifi password is sunshine42",
            "what's my wifi password?",
            "sorry, it's sunshine43",
            "📝 Updated your note: “wifi password is sunshine43”.",
        ),
    ],
)
def test_the_value_said_again_after_looking_the_note_up(
    chat: Conversation, saved: str, looked: str, correction: str, updated: str
) -> None:
    # Looking the note up first made the correction "I'm not sure I understood".
    chat.say(saved)
    assert chat.say(looked).startswith("Found 1 note")
    assert chat.say(correction) == updated
