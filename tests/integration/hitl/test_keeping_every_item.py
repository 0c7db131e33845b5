"""An answer to an approval that keeps every item it shows, through the webhook: "keep grandma" after
Edit when grandma's is the only reminder, "not 1 2 3", "תשאיר את כולם". Nothing is left to do, so the
question is closed as a no. It was asked again, and the "yes" a person says next ("yes", to "What
should I change?") deleted the very reminders they had just kept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, chat_at
from tests.support.week import START, shown

_KEPT_ALL = "That leaves nothing to do, so I've cancelled it. Nothing was changed."
_KEPT_ALL_HE = "זה לא משאיר אף פריט, אז ביטלתי. לא שיניתי כלום."


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Conversation]:
    with chat_at(monkeypatch, FakeClock(START)) as conversation:
        yield conversation


def test_keeping_the_only_reminder_after_edit_deletes_nothing_and_a_yes_after_it_neither(
    chat: Conversation,
) -> None:
    chat.say("remind me to call grandma friday at 6pm")
    assert chat.say("delete all my reminders").startswith("Before I go ahead: I'm about to delete")
    assert chat.say("2").startswith("What should I change?")
    assert chat.say("keep grandma") == _KEPT_ALL
    assert chat.say("yes") == "I'm not waiting on a question right now — what would you like to do?"
    assert chat.say("show my reminders") == f"Your reminders:\n• “call grandma” — {shown(4, 18)}"


@pytest.mark.parametrize(
    "answer", ["not 1 2 3", "keep all of them", "yes except all of them", "don't delete any"]
)
def test_every_item_kept_in_the_answer_itself(chat: Conversation, answer: str) -> None:
    for said in ("remind me to call mom tomorrow at 5pm", "remind me to buy bread friday at 9am"):
        chat.say(said)
    chat.say("remind me to call grandma friday at 6pm")
    chat.say("delete all my reminders")
    assert chat.say(answer) == _KEPT_ALL
    assert chat.say("approve") == "I'm not waiting on a question right now — what would you like to do?"
    assert chat.say("show my reminders").count("•") == 3


def test_hebrew_keeping_them_all(chat: Conversation) -> None:
    chat.say("תזכיר לי מחר בחמש אחרי הצהריים להתקשר לאמא")
    chat.say("תזכיר לי ביום שישי בתשע בבוקר לקנות לחם")
    assert chat.say("תמחק את כל התזכורות שלי").startswith("רגע לפני: אני עומד למחוק")
    assert chat.say("תשאיר את כולם") == _KEPT_ALL_HE
    assert chat.say("כן") == "אני לא מחכה לתשובה כרגע — במה אפשר לעזור?"
    assert chat.say("מה התזכורות שלי").count("•") == 2
