"""Telling Memo something rather than commanding it, through the webhook: where the car is parked
is kept (and found by "where did I park?"), a fact ("my passport number is ...") is kept once the
person says yes (and nothing when the answer is "no"), a remark ("the weather is nice") is not
taken as a note, and "forget the X
note" deletes that note after approval instead of listing every note."""

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
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


def test_where_i_parked_is_kept_and_found(chat: Conversation) -> None:
    assert chat.say("I parked on level 3, spot 42") == "📝 Saved your note “I parked on level 3, spot 42”."
    assert chat.say("where did I park?") == "Found 1 note for “park”:\n• I parked on level 3, spot 42"
    assert chat.say("החניתי בקומה 2 ליד המעלית") == "📝 שמרתי את הפתק „החניתי בקומה 2 ליד המעלית”."
    assert "החניתי בקומה 2 ליד המעלית" in chat.say("איפה החניתי?")


def test_a_fact_is_kept_once_the_person_says_yes_and_a_remark_is_not(chat: Conversation) -> None:
    asked = chat.say("my passport number is 12345678")
    assert asked.startswith("Just to check — you want me to save the note “my passport number is 12345678”?")
    assert chat.say("yes") == "📝 Saved your note “my passport number is 12345678”."
    assert "12345678" in chat.say("what's my passport number?")
    assert chat.say("Noa's shoe size is 31").startswith("Just to check")
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    # A remark is no fact to keep: not taken as a note at all.
    assert chat.say("the weather is nice").startswith("I'm not sure I understood")
    assert chat.say("show my notes") == "Found 1 note:\n• my passport number is 12345678"


def test_hebrew_fact_asked_then_kept(chat: Conversation) -> None:
    assert chat.say("הקוד של השער הוא 4321").startswith("רק מוודא — לשמור את הפתק „הקוד של השער הוא 4321”?")
    assert chat.say("כן") == "📝 שמרתי את הפתק „הקוד של השער הוא 4321”."


def test_forget_the_x_note_deletes_that_note_after_approval(chat: Conversation) -> None:
    chat.say("note: wifi password is hunter2")
    chat.say("note: locker code is 1234")
    question = chat.say("forget the wifi note")
    assert question.startswith(
        "Before I go ahead: I'm about to delete 1 note:\n1. “wifi password is hunter2”"
    )
    assert chat.say("yes") == "Deleted the note “wifi password is hunter2”."
    assert chat.say("what notes do I have?") == "Found 1 note:\n• locker code is 1234"


def test_what_time_is_it_is_answered_in_the_persons_timezone(chat: Conversation) -> None:
    assert chat.say("what time is it?") == "It's 10:00 on Mon 2 Mar."
    assert chat.say("מה השעה?") == "עכשיו 10:00, יום ב׳ 2.3."
    # A question about the time of something is not the clock.
    assert not chat.say("what time is the meeting?").startswith("It's 10:00")


def test_when_is_someones_day_finds_the_note_that_says_it(chat: Conversation) -> None:
    # Was "I'm not sure I understood".
    chat.say("remember that mom's birthday is on june 5")
    assert (
        chat.say("when is mom's birthday?")
        == "Found 1 note for “mom's birthday”:\n• mom's birthday is on june 5"
    )
    chat.say("תזכור שיום ההולדת של אבא ב-3 במרץ")
    assert chat.say("מתי יום ההולדת של אבא?").endswith("• יום ההולדת של אבא ב-3 במרץ")


@pytest.mark.parametrize(
    "noted",
    [
        "תרשום שהחניה בעבודה בקומה 2- מקום 38",
        "תרשום שהחנייה בקניון בקומה 3",
        "החניתי בקומה 2 ליד המעלית",
        "חניתי ליד הסופר",
    ],
)
@pytest.mark.parametrize("asked", ["איפה החניתי?", "איפה חניתי", "איפה החנתי?"])
def test_where_did_i_park_finds_the_parking_however_it_was_noted(
    chat: Conversation, noted: str, asked: str
) -> None:
    # "איפה החניתי?" answered "לא מצאתי פתקים" for a note about „החניה בעבודה”.
    chat.say(noted)
    assert chat.say(asked).startswith("מצאתי פתק אחד")


@pytest.mark.parametrize(
    "added",
    ["add to the wifi note that the router is in the closet", "add router is in the closet to the wifi note"],
)
def test_words_added_to_a_note_are_that_note(chat: Conversation, added: str) -> None:
    # It saved a second note “the router is in the closet” (and "undo" had nothing to undo).
    chat.say("save a note: wifi password is banana123")
    chat.say(added)
    shown = chat.say("show my notes")
    assert shown.count("•") == 1 and "banana123" in shown and "router is in the closet" in shown, shown


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember the flight is at 6am from gate B4", "gate B4"),
        ("remember my seat is row R, seat 12", "row R"),
        ("save a note: locker u2 at the gym", "locker u2"),
        ("save a note: take vitamin b4 with food", "vitamin b4"),
    ],
)
def test_a_code_in_a_note_is_saved_as_written(chat: Conversation, said: str, kept: str) -> None:
    # "gate B4" was saved as "gate BEFORE": a chat spelling read into the person's own words.
    saved = chat.say(said)
    assert kept in saved, saved
    assert kept in chat.say("show my notes")


@pytest.mark.parametrize(
    "said",
    [
        "remember {}",
        "please remember {}",
        "Remember: {}",
        "remember, {}",
        "remember that {}",
    ],
)
@pytest.mark.parametrize(
    ("kept", "asked", "found"),
    [
        ("the dose: 5ml twice a day", "what's the dose?", "5ml twice a day"),
        ("wifi password: Blue2024!", "what's the wifi password?", "Blue2024!"),
        ("my passport number 12345678", "what's my passport number?", "12345678"),
        ("John's number 054-1234567", "what's John's number?", "054-1234567"),
    ],
)
def test_remember_with_something_to_keep_saves_it_and_finds_it(
    chat: Conversation, said: str, kept: str, asked: str, found: str
) -> None:
    # "remember the dose: 5ml twice a day" answered "I found no notes matching ..." and kept
    # nothing; "remember wifi password: Blue2024!" was not understood.
    assert chat.say(said.format(kept)) == f"📝 Saved your note “{kept}”."
    assert found in chat.say(asked)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remember my keys r in the blue bag, thx", "my keys r in the blue bag"),
        ("remember ur charger is in the drawer", "ur charger is in the drawer"),
        ("note: bake 40 min at 180 thx", "bake 40 min at 180"),
        ("save a note: pick up the kids b4 5 from gate B4", "pick up the kids b4 5 from gate B4"),
        ("note to self: appt w/ dr Levi tmrw 4pm", "appt w/ dr Levi tmrw 4pm"),
        ("תרשום: ביום ששי ב 5 אצל סבתא", "ביום ששי ב 5 אצל סבתא"),
    ],
)
def test_a_note_is_saved_in_the_words_typed(chat: Conversation, said: str, kept: str) -> None:
    # "my keys r in the blue bag" was saved as "my keys are in the blue bag", "40 min" as
    # "40 minutes": how Memo read the chat spellings was written into the person's note.
    saved = chat.say(said)
    assert f"“{kept}”" in saved or f"„{kept}”" in saved, saved
    assert kept in chat.say("show my notes" if said.isascii() else "תראה לי את הפתקים")


def test_remember_a_thing_alone_finds_it_and_keeps_nothing(chat: Conversation) -> None:
    assert chat.say("remember my wifi password") == "I found no notes matching “wifi password”."
    assert chat.say("show my notes") == "I found no notes."


def test_remember_a_thing_at_a_time_sets_a_reminder(chat: Conversation) -> None:
    # It asked the calendar Memo cannot reach.
    reply = chat.say("remember the meeting at 5pm tomorrow")
    assert reply.startswith("⏰ Reminder set: “the meeting” for ") and reply.endswith("17:00."), reply
    assert "the meeting" in chat.say("show my reminders")


def test_hebrew_a_note_to_me_with_a_colon_is_kept(chat: Conversation) -> None:
    # "תרשום לי: מספר הפוליסה 88213" was not understood.
    assert chat.say("תרשום לי: מספר הפוליסה 88213") == "📝 שמרתי את הפתק „מספר הפוליסה 88213”."
    assert "88213" in chat.say("מה מספר הפוליסה?")
