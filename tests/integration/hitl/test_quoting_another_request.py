"""A reply to one of the user's own earlier requests while a question is open, through the webhook:
"move this to 6pm" quoting "remind me to call mom ..." while "When should I remind you?" waits on the
bank. It answered the open question: the bank was set for 18:00 and mom's reminder did not move. Now
the quoted request is what the words are about (planned as its own request), and the question stays
open for the answer said next. A reply that quotes the question's own request, or an answer to it,
is still that answer."""

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


def _said(chat: Conversation, text: str, quoting: str | None = None) -> tuple[str, str]:
    """Send `text` (a reply to the user's own message `quoting`, when given): (its id, the reply)."""
    message = chat.user.text(text)
    if quoting is not None:
        message["context"] = {"from": chat.user.wa_id, "id": quoting}
    (reply,) = chat.deliver(message)
    return str(message["id"]), reply


@pytest.mark.parametrize(
    ("change", "moved"),
    [("move this to 6pm", (1, 18)), ("make it 7pm", (1, 19)), ("change it to 8pm", (1, 20))],
)
def test_a_reply_to_an_older_request_changes_that_one_and_the_question_stays(
    chat: Conversation, change: str, moved: tuple[int, int]
) -> None:
    mom, _ = _said(chat, "remind me to call mom tomorrow at 5pm")
    assert _said(chat, "remind me to call the bank")[1].startswith("When should I remind you?")
    assert (
        _said(chat, change, quoting=mom)[1] == f"Updated the reminder “call mom” — now for {shown(*moved)}."
    )
    assert chat.say("at 4pm") == f"⏰ Reminder set: “call the bank” for {shown(0, 16)}."
    assert chat.say("show my reminders") == (
        f"Your reminders:\n• “call the bank” — {shown(0, 16)}\n• “call mom” — {shown(*moved)}"
    )


def test_hebrew_a_reply_to_an_older_request(chat: Conversation) -> None:
    mom, _ = _said(chat, "תזכיר לי מחר בחמש אחרי הצהריים להתקשר לאמא")
    assert _said(chat, "תזכיר לי להתקשר לבנק")[1].startswith("מתי להזכיר לך?")
    assert _said(chat, "תעביר את זה לשש", quoting=mom)[1] == (
        f"עדכנתי את התזכורת „להתקשר לאמא” — עכשיו ל{shown(1, 18, 0, 'he')}."
    )
    assert chat.say("בארבע אחרי הצהריים") == f"⏰ קבעתי תזכורת „להתקשר לבנק” ל{shown(0, 16, 0, 'he')}."


def test_a_reply_to_the_question_s_own_request_or_answer_answers_it(chat: Conversation) -> None:
    bank, _ = _said(chat, "remind me to call the bank")
    assert _said(chat, "6pm", quoting=bank)[1] == f"⏰ Reminder set: “call the bank” for {shown(0, 18)}."
    dentist, _ = _said(chat, "remind me to call the dentist")
    day, asked = _said(chat, "tomorrow", quoting=dentist)
    assert asked.startswith("What time on ")
    assert _said(chat, "at 9am", quoting=day)[1] == f"⏰ Reminder set: “call the dentist” for {shown(1, 9)}."


def test_a_reply_to_an_older_request_while_a_delete_waits_leaves_the_delete_asked(chat: Conversation) -> None:
    mom, _ = _said(chat, "remind me to call mom tomorrow at 5pm")
    chat.say("remind me to water the plants friday at 8am")
    assert chat.say("delete all my reminders").startswith("Before I go ahead:")
    assert (
        _said(chat, "make it 7pm", quoting=mom)[1]
        == f"Updated the reminder “call mom” — now for {shown(1, 19)}."
    )
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders").count("•") == 2


def _confirmation_of(chat: Conversation, title: str) -> str:
    """The WhatsApp id of Memo's confirmation that named `title`."""
    sent = chat.stack.sink.messages(to=chat.user.wa_id)
    return next(
        r.message_id for r in reversed(sent) if f"“{title}”" in str(r.body) and "Reminder set" in str(r.body)
    )


def _replying_to_memo(chat: Conversation, message_id: str, text: str) -> str:
    message = chat.user.text(text)
    message["context"] = {"from": "15550000000", "id": message_id}
    (reply,) = chat.deliver(message)
    return reply


def test_a_change_quoting_a_confirmation_while_a_delete_waits_changes_that_item(chat: Conversation) -> None:
    # It was "I can't tell which of my messages you answered" and the delete asked again.
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("remind me to buy milk friday at 10am")
    assert chat.say("delete all my reminders").startswith("Before I go ahead:")
    milk = _confirmation_of(chat, "buy milk")
    assert (
        _replying_to_memo(chat, milk, "move this to 11")
        == f"Updated the reminder “buy milk” — now for {shown(4, 11)}."
    )
    assert chat.say("no") == "OK, cancelled. Nothing was changed."
    assert chat.say("show my reminders") == (
        f"Your reminders:\n• “call mom” — {shown(1, 17)}\n• “buy milk” — {shown(4, 11)}"
    )


def test_a_bare_yes_quoting_a_confirmation_approves_nothing(chat: Conversation) -> None:
    chat.say("remind me to call mom tomorrow at 5pm")
    chat.say("delete all my reminders")
    reply = _replying_to_memo(chat, _confirmation_of(chat, "call mom"), "yes")
    assert reply.startswith("I can't tell which of my messages you answered, so I didn't act on it.")
    assert chat.say("show my reminders") == f"Your reminders:\n• “call mom” — {shown(1, 17)}"
