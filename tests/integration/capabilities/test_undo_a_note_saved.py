"""'Undo' right after a note is saved deletes it again ("remember the wifi password is moon7", then
"undo"); a note changed since is left; "bring it back" takes nothing away. Signed payloads through
the webhook on the local stack, the fake clock (a Monday at 10:00, Jerusalem), in English and Hebrew."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support import week
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(week.START)) as running:
        yield Conversation(stack=running, user=WhatsAppUser())


@pytest.mark.parametrize(
    ("save", "undo", "answer", "search", "none"),
    [
        (
            "remember the wifi password is moon7",
            "undo",
            "↩️ Undone: the note “the wifi password” is deleted.",
            "what is the wifi password?",
            "I found no notes matching “wifi password”.",
        ),
        (
            "תשמור פתק: קוד השער 4321",
            "תבטל מה שעשית",
            "↩️ ביטלתי: הפתק „קוד השער 4321” נמחק.",
            "מה קוד השער",
            "לא מצאתי פתקים שמתאימים ל„קוד השער”.",
        ),
    ],
)
def test_undo_right_after_a_note_is_saved_deletes_it_again(
    chat: Conversation, save: str, undo: str, answer: str, search: str, none: str
) -> None:
    # "undo" after a note was saved answered "There's nothing to undo", and the note stayed.
    chat.say(save)
    assert chat.say(undo) == answer
    assert chat.say(search) == none


def test_only_the_latest_note_goes_and_bring_it_back_takes_nothing(chat: Conversation) -> None:
    chat.say("remember my locker is 42")
    chat.say("remember the gate code is 1234")
    assert chat.say("bring it back").startswith("There's nothing to undo")
    assert chat.say("undo") == "↩️ Undone: the note “the gate code” is deleted."
    assert chat.say("show my notes") == "Found 1 note:\n• my locker is 42"


def test_a_note_changed_since_is_not_deleted_by_an_older_undo(chat: Conversation) -> None:
    chat.say("save a note: gate code 1234")
    chat.say("change the gate code note to gate code 5678")
    assert chat.say("undo") == "↩️ Undone: the note is back to “gate code 1234”."
    assert chat.say("undo").startswith("There's nothing to undo")  # the undo is the latest request
    assert chat.say("show my notes") == "Found 1 note:\n• gate code 1234"
