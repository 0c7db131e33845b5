"""Edit on the approval of a skip, through the webhook: what Edit asks speaks of the skip (it spoke of
deleting: "don't delete dad"), and "reject" once Edit was chosen rejects (it was "I couldn't tell what
to change")."""

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


def test_edit_of_a_skip_asks_which_to_skip_and_approve_still_skips(chat: Conversation) -> None:
    chat.say("remind me to take my pills every day at 8am")
    assert chat.say("skip tomorrow").startswith("Before I go ahead: I'm about to skip “take my pills” once")
    assert chat.say("edit") == (
        'What should I change? A skip can only skip fewer: for example "only 1" or "not 2". '
        "You can also approve it, or cancel."
    )
    assert chat.say("approve") == (
        f"✅ Skipped “take my pills” on {shown(1, 8)}; the next one is {shown(2, 8)}."
    )


@pytest.mark.parametrize("answer", ["reject", "cancel", "never mind"])
def test_reject_after_edit_changes_nothing(chat: Conversation, answer: str) -> None:
    chat.say("remind me to take my pills every day at 8am")
    chat.say("skip tomorrow")
    chat.say("edit")
    assert chat.say(answer) == "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders") == (
        f"Your reminders:\n• “take my pills” — every day at 08:00 (next: {shown(1, 8)})"
    )


def test_hebrew_edit_of_a_skip(chat: Conversation) -> None:
    chat.say("תזכיר לי כל יום ב-8 בבוקר לקחת כדורים")
    chat.say("תדלג על מחר")
    assert chat.say("עריכה") == (
        "מה לשנות? בדילוג אפשר רק לדלג על פחות: למשל „רק 1” או „חוץ מ-2”. אפשר גם לאשר, או לבטל."
    )
    assert chat.say("דחייה") == "בסדר, ביטלתי. לא שיניתי כלום."
