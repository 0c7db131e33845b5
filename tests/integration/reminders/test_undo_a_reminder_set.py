"""'Undo' right after a reminder is set takes it away: "remind me to call mom at 5pm", then "undo"
(or a bare "cancel", asked "Undo what I just did?" and answered yes). Words that ask for something
back ("bring it back", "תחזיר את זה") or name a delete ("undo the delete") take nothing away: they
speak of a delete or a change, and nothing was deleted. Signed payloads through the webhook, the
ticker on moto, the fake clock (a Monday at 10:00, Jerusalem): what was undone never fires."""

from __future__ import annotations

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.week import fired, shown

SET = {
    "en": ("remind me to call mom at 5pm today", "call mom", "“call mom”"),
    "he": ("תזכיר לי להתקשר לאמא היום ב-5 אחה״צ", "להתקשר לאמא", "„להתקשר לאמא”"),
}
NOTHING = {
    "en": "There's nothing to undo: Undo brings back what I deleted or changed in the last 10 minutes.",
    "he": "אין מה לבטל: ביטול מחזיר את מה שמחקתי או שיניתי ב-10 הדקות האחרונות.",
}


def _first_lines(texts: list[str]) -> list[str]:
    return [text.split("\n")[0] for text in texts]


@pytest.mark.parametrize(
    ("lang", "undo"),
    [("en", "undo"), ("en", "oops, undo that"), ("he", "בטל את הפעולה האחרונה"), ("he", "תבטל מה שעשית")],
)
def test_undo_takes_away_the_reminder_just_set(
    chat: Conversation, clock: FakeClock, lang: str, undo: str
) -> None:
    said, title, quoted = SET[lang]
    chat.say(said)
    undone = chat.say(undo)
    assert (
        undone.startswith(("↩️ Undone: " + quoted, "↩️ ביטלתי: " + quoted)) and shown(0, 17, 0, lang) in undone
    )
    assert title not in chat.say("show my reminders" if lang == "en" else "הראה לי את התזכורות")
    assert fired(chat, clock, 0, 17) == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "bring it back"),
        ("en", "restore it"),
        ("en", "undo the delete"),
        ("he", "תחזיר את זה"),
        ("he", "בטל את המחיקה"),
    ],
)
def test_words_asking_for_something_back_take_nothing_away(
    chat: Conversation, clock: FakeClock, lang: str, words: str
) -> None:
    said, _title, _quoted = SET[lang]
    chat.say(said)
    assert chat.say(words) == NOTHING[lang]
    assert _first_lines(fired(chat, clock, 0, 17)) == [
        "⏰ Reminder: call mom" if lang == "en" else "⏰ תזכורת: להתקשר לאמא"
    ]


@pytest.mark.parametrize(("lang", "yes", "no"), [("en", "yes", "no"), ("he", "כן", "לא")])
def test_a_bare_cancel_asks_first_and_only_yes_takes_it_away(
    chat: Conversation, clock: FakeClock, lang: str, yes: str, no: str
) -> None:
    said, title, _quoted = SET[lang]
    chat.say(said)
    cancel = "cancel" if lang == "en" else "בטל"
    asked = chat.say(cancel)
    assert asked.startswith(("Undo what I just did — reminder", "לבטל את מה שעשיתי עכשיו — תזכורת"))
    assert title in asked
    assert chat.say(no) in ("OK, I left everything as it is.", "בסדר, השארתי הכול כמו שזה.")
    chat.say(cancel)
    chat.say(yes)
    assert fired(chat, clock, 0, 17) == []


def test_a_series_just_set_is_taken_away_whole(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to take vitamins every day at 8am")
    assert chat.say("undo").startswith("↩️ Undone: “take vitamins”")
    assert [fired(chat, clock, day, 8) for day in (1, 2, 3)] == [[], [], []]


def test_undo_takes_away_only_the_latest_request(chat: Conversation, clock: FakeClock) -> None:
    chat.say("remind me to pay rent at 3pm")
    chat.say("remind me to water the plants at 8pm")
    assert chat.say("undo").startswith("↩️ Undone: “water the plants”")
    # The undo is now the latest request: a second "undo" does not reach back to the rent.
    assert chat.say("undo") == NOTHING["en"]
    assert _first_lines(fired(chat, clock, 0, 15)) == ["⏰ Reminder: pay rent"]
    assert fired(chat, clock, 0, 20) == []


def test_after_ten_minutes_it_is_too_late_and_the_reminder_stays(
    chat: Conversation, clock: FakeClock
) -> None:
    chat.say("remind me to call mom at 5pm today")
    clock.advance(minutes=11)
    assert chat.say("undo") == "That can't be undone anymore: Undo works for 10 minutes after a change."
    assert _first_lines(fired(chat, clock, 0, 17)) == ["⏰ Reminder: call mom"]


@pytest.mark.parametrize("undo", ["undo", "undo that", "Undo!"])
@pytest.mark.parametrize(
    "asks",
    ["delete the call reminder", "delete all my reminders", "skip call mom today"],
)
def test_undo_said_to_a_question_before_anything_ran_cancels_it(
    chat: Conversation, clock: FakeClock, asks: str, undo: str
) -> None:
    # It was "Sorry, I didn't catch that — please reply with a number": nothing ran yet, so "undo"
    # is the way out of the question, and everything stays as it is.
    chat.say("remind me to call mom at 5pm today")
    chat.say("remind me to call dad at 6pm today")
    asked = chat.say(asks)
    assert asked.startswith(("Which one", "Before I go ahead", "I couldn't")), asked
    assert chat.say(undo) == "OK, cancelled. Nothing was changed."
    assert _first_lines(fired(chat, clock, 0, 17)) == ["⏰ Reminder: call mom"]
    assert _first_lines(fired(chat, clock, 0, 18)) == ["⏰ Reminder: call dad"]


CANNOT_REDO = {
    "en": "I can't undo an undo, so what I undid stays undone. To have it again, just ask me for it again.",
    "he": "אני לא יכול לבטל ביטול, אז מה שביטלתי נשאר מבוטל. כדי שזה יחזור, פשוט תבקשו את זה שוב.",
}


@pytest.mark.parametrize(
    ("lang", "undo", "redo"),
    [
        ("en", "undo", "redo"),
        ("en", "undo", "undo the undo"),
        ("en", "oops, undo that", "can you redo that?"),
        ("he", "תבטל מה שעשית", "בטל את הביטול"),
        ("he", "תבטל מה שעשית", "תחזיר את מה שביטלת"),
        ("he", "בטל את הפעולה האחרונה", "תבטל את הביטול בבקשה"),
    ],
)
def test_an_undo_is_not_undone_and_says_to_ask_again(
    chat: Conversation, clock: FakeClock, lang: str, undo: str, redo: str
) -> None:
    # "redo" was "I'm not sure I understood". A second "undo" (or "תחזיר", the Hebrew undo) still
    # says there is nothing to undo (`test_undo_takes_away_only_the_latest_request`).
    said, title, _ = SET[lang]
    chat.say(said)
    chat.say(undo)
    assert chat.say(redo) == CANNOT_REDO[lang]
    assert chat.say(said).startswith("⏰")  # asked again, it is set again
    # Once: what was undone stays undone.
    assert [title in text for text in fired(chat, clock, 0, 17)] == [True]


@pytest.mark.parametrize(("lang", "redo"), [("en", "redo"), ("he", "בטל את הביטול")])
def test_redo_with_nothing_undone_changes_nothing(
    chat: Conversation, clock: FakeClock, lang: str, redo: str
) -> None:
    said, title, _ = SET[lang]
    chat.say(said)
    assert (
        chat.say(redo)
        == {
            "en": "There's nothing to redo: I haven't undone anything.",
            "he": "אין מה לשחזר: לא ביטלתי כלום.",
        }[lang]
    )
    assert [title in text for text in fired(chat, clock, 0, 17)] == [True]
