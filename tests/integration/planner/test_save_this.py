""" "Save this as a note": what "this" is, through the webhook, in English and Hebrew.

People send the thing first and the request after ("Parking level -2, spot 38" -> "save this"), or
the request with nothing after it, or under a picture or a file. "Save this as a note" was saved as
a note reading "as a note", and "save that as a note: gate 12" as "as a note: gate 12". Now "this"
is the text after a colon, or the message Memo just asked about ("what would you like me to do?"),
or else it is asked ("What should the note say?"); a file under the request cannot be kept, and
Memo says so before it asks.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at

START = datetime.fromisoformat("2026-03-02T10:00:00+02:00")


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


def _file(chat: Conversation, caption: str) -> dict[str, Any]:
    document = {"id": "d-1", "filename": "invoice.pdf", "mime_type": "application/pdf", "caption": caption}
    return chat.user.message("document", {"document": document})


@pytest.mark.parametrize("request_", ["save this as a note", "save this", "remember this", "write that down"])
def test_this_is_the_message_memo_just_asked_about(chat: Conversation, request_: str) -> None:
    assert chat.say("Parking level -2, spot 38").startswith("I'm not sure I understood")
    assert chat.say(request_) == "📝 Saved your note “Parking level -2, spot 38”."
    assert chat.say("what notes do I have?") == "Found 1 note:\n• Parking level -2, spot 38"


def test_hebrew_this_is_the_message_memo_just_asked_about(chat: Conversation) -> None:
    assert chat.say("הקוד לשער 7788").startswith("לא בטוח שהבנתי")
    assert chat.say("תשמור את זה בפתקים") == "📝 שמרתי את הפתק „הקוד לשער 7788”."


def test_with_nothing_before_it_what_the_note_says_is_asked(chat: Conversation) -> None:
    assert chat.say("save this as a note") == "What should the note say?"
    assert chat.say("gate code is 4411") == "📝 Saved your note “gate code is 4411”."
    assert chat.say("תזכור את זה") == "מה לרשום בפתק?"
    assert chat.say("הקוד של הלוקר 5521") == "📝 שמרתי את הפתק „הקוד של הלוקר 5521”."
    assert chat.say("what notes do I have?").count("•") == 2


def test_a_new_request_instead_of_the_notes_text_is_its_own(chat: Conversation) -> None:
    assert chat.say("remember this") == "What should the note say?"
    assert chat.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")
    assert chat.say("what notes do I have?") == "I found no notes."


@pytest.mark.parametrize(
    ("request_", "note"),
    [
        ("save that as a note: gate code 1234", "gate code 1234"),
        ("put this in my notes - wifi is sunshine42", "wifi is sunshine42"),
        ("תשמור את זה כפתק: קוד 1234", "קוד 1234"),
    ],
)
def test_this_after_a_colon_is_the_note(chat: Conversation, request_: str, note: str) -> None:
    saved = chat.say(request_)
    assert note in saved and "as a note" not in saved and "כפתק" not in saved


def test_this_as_a_note_with_other_words_is_not_a_note_of_those_words(chat: Conversation) -> None:
    # Was a note reading "as a note for tomorrow".
    assert chat.say("save this as a note for tomorrow").startswith("I'm not sure I understood")


def test_a_file_asked_to_be_saved_cannot_be_kept_and_its_words_are_asked(chat: Conversation) -> None:
    # Was "For now I can only read text messages", and the typed answer was not understood.
    assert chat.deliver(_file(chat, "save this as a note")) == [
        "I can't keep files or pictures yet 🙏 What should the note say?"
    ]
    assert chat.say("invoice 4432 from the plumber") == "📝 Saved your note “invoice 4432 from the plumber”."


def test_a_link_sent_alone_is_offered_as_a_note(chat: Conversation) -> None:
    # Were "I'm not sure I understood".
    assert chat.say("save https://example.com/recipe") == "📝 Saved your note “https://example.com/recipe”."
    # A link has no language: the reply is in the person's (English, from the message before).
    assert chat.say("https://example.com/article").startswith(
        "Just to check — you want me to save the note “https://example.com/article”?"
    )
    assert chat.say("yes") == "📝 Saved your note “https://example.com/article”."
    assert chat.say("תשמור את הקישור https://example.com/a") == "📝 שמרתי את הפתק „https://example.com/a”."
    # A link inside a request stays with it.
    assert chat.say("remind me to read https://example.com/b tomorrow at 9").startswith(
        "⏰ Reminder set: “read https://example.com/b”"
    )
