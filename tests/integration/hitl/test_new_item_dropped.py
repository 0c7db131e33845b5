"""A new reminder dropped while Memo asks what it still needs, through the webhook: "actually delete
that", "scratch that", "בעצם תמחק את זה" to "When should I remind you?". They were "Sorry, I didn't
catch that" and the question again; now nothing is set, and what the person says next is a request
of its own, never the answer to a question they dropped."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


@pytest.mark.parametrize(
    "dropped",
    ["actually delete that", "scratch that", "delete it", "nah don't bother", "no, remove the reminder"],
)
def test_a_new_reminder_dropped_while_its_time_is_asked_sets_nothing(
    chat: Conversation, dropped: str
) -> None:
    assert chat.say("remind me to renew the car insurance").startswith("When should I remind you?")
    assert chat.say(dropped) == "OK, cancelled. Nothing was changed."
    # The time said next is not the dropped reminder's.
    assert chat.say("tomorrow at 10") != f"⏰ Reminder set: “renew the car insurance” for {shown(1, 10)}."
    assert chat.say("show my reminders") == "You have no upcoming reminders."


def test_hebrew_a_new_reminder_dropped(chat: Conversation) -> None:
    assert chat.say("תזכיר לי להתקשר לבנק").startswith("מתי להזכיר לך?")
    assert chat.say("בעצם תמחק את זה") == "בסדר, ביטלתי. לא שיניתי כלום."
    assert chat.say("מה התזכורות שלי") == "אין לך תזכורות קרובות."


def test_delete_it_to_which_one_of_a_delete_is_no_drop(chat: Conversation) -> None:
    # Said to a delete's own question, the words are read as that question's answer (asked again).
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to call mom friday at 6pm")
    assert chat.say("delete the call mom reminder").startswith("Which one do you mean?")
    assert chat.say("delete it") != "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders").count("•") == 2
