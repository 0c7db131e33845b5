"""The terminal chat shows buttons and lists as numbered choices and answers them by number."""

from __future__ import annotations

import io

from memo.local.chat import Chat, render
from memo.local.sink import GraphSink
from memo.local.whatsapp_user import WhatsAppUser
from memo.replies import Choice, Reply
from memo.whatsapp.outbound import message_bodies


def test_buttons_are_numbered() -> None:
    reply = Reply.with_choices(
        "Delete all 3 reminders?",
        [
            Choice(id="approve", title="Approve"),
            Choice(id="edit", title="Edit"),
            Choice(id="reject", title="Reject"),
        ],
    )
    (body,) = message_bodies("1", reply)
    text, choices = render(body)
    assert text.splitlines()[:4] == ["Delete all 3 reminders?", "   1) Approve", "   2) Edit", "   3) Reject"]
    assert [c.id for c in choices] == ["approve", "edit", "reject"]


def test_the_hint_is_in_the_question_s_language() -> None:
    choices = [Choice(id="approve", title="אישור"), Choice(id="reject", title="דחייה")]
    (hebrew,) = message_bodies("1", Reply.with_choices("למחוק את כל 3 התזכורות?", choices))
    (english,) = message_bodies("1", Reply.with_choices("Delete all 3 reminders?", choices))
    assert render(hebrew)[0].splitlines()[-1] == "   (ענו במספר)"
    assert render(english)[0].splitlines()[-1] == "   (answer with a number)"


def test_list_rows_are_numbered_with_descriptions() -> None:
    reply = Reply.with_choices(
        "Which one?",
        [Choice(id=f"r{i}", title=f"Call mom #{i}", description="tomorrow 17:00") for i in range(4)],
    )
    (body,) = message_bodies("1", reply)
    text, choices = render(body)
    assert "   4) Call mom #3 — tomorrow 17:00" in text
    assert {c.kind for c in choices} == {"list"}


def test_a_number_answers_the_last_choices_as_an_interactive_reply() -> None:
    chat = Chat(
        base_url="http://unused", app_secret="s", sink=GraphSink(), user=WhatsAppUser(), out=io.StringIO()
    )
    reply = Reply.with_choices(
        "Sure?", [Choice(id="approve", title="Approve"), Choice(id="reject", title="Reject")]
    )
    text, choices = render(message_bodies("1", reply)[0])
    chat._live = [(text, choices)]
    message = chat._message_for("2")
    assert message is not None and message["interactive"] == {
        "type": "button_reply",
        "button_reply": {"id": "reject", "title": "Reject"},
    }
    again = chat._message_for("2")
    assert again is not None and again["type"] == "text"  # the choices were answered


def _shown(sink: GraphSink, chat: Chat, *replies: Reply) -> None:
    for reply in replies:
        for body in message_bodies("972501234567", reply):
            sink.record("100000000000001", body)
    chat._show(sink.messages(to="972501234567", after=chat._seen))


APPROVAL = Reply.with_choices(
    "Delete all 3 reminders?",
    [
        Choice(id="approve", title="Approve"),
        Choice(id="edit", title="Edit"),
        Choice(id="reject", title="Reject"),
    ],
)
DELIVERED = Reply.with_choices(
    "⏰ Reminder: call mom",
    [Choice(id="reminder:done:r1", title="Done ✅"), Choice(id="reminder:snooze:60:r1", title="In an hour")],
)


def test_a_number_with_two_messages_of_choices_live_presses_nothing_and_asks_which() -> None:
    sink, out = GraphSink(), io.StringIO()
    chat = Chat(base_url="http://unused", app_secret="s", sink=sink, user=WhatsAppUser(), out=out)
    _shown(sink, chat, APPROVAL, DELIVERED)  # a question, then a reminder arrives with its buttons
    for number in ("1", "2"):
        assert chat._message_for(number) is None  # nothing is sent
    assert chat._which_message() == (
        "[2 messages have choices: a) “Delete all 3 reminders?”; b) “⏰ Reminder: call mom”. "
        "Answer with its letter and the number, e.g. a1]"
    )
    pressed = chat._message_for("a3")
    assert pressed is not None and pressed["interactive"]["button_reply"]["id"] == "reject"


def test_a_lettered_number_presses_that_messages_choice() -> None:
    sink = GraphSink()
    chat = Chat(base_url="http://unused", app_secret="s", sink=sink, user=WhatsAppUser(), out=io.StringIO())
    _shown(sink, chat, APPROVAL, DELIVERED)
    pressed = chat._message_for("B 2")
    assert pressed is not None and pressed["interactive"]["button_reply"]["id"] == "reminder:snooze:60:r1"
    # a number past every message's choices, or a letter of no message, is text
    _shown(sink, chat, APPROVAL, DELIVERED)
    assert (chat._message_for("7") or {})["type"] == "text"
    _shown(sink, chat, APPROVAL, DELIVERED)
    assert (chat._message_for("c1") or {})["type"] == "text"


def test_one_message_of_choices_is_answered_by_a_bare_number() -> None:
    sink = GraphSink()
    chat = Chat(base_url="http://unused", app_secret="s", sink=sink, user=WhatsAppUser(), out=io.StringIO())
    _shown(sink, chat, DELIVERED)
    pressed = chat._message_for("1")
    assert pressed is not None and pressed["interactive"]["button_reply"]["id"] == "reminder:done:r1"


def test_a_message_that_arrives_on_its_own_is_printed_at_the_prompt() -> None:
    sink, out = GraphSink(), io.StringIO()
    chat = Chat(base_url="http://unused", app_secret="s", sink=sink, user=WhatsAppUser(), out=out)
    chat.start_printer()
    try:
        reminder = {
            "messaging_product": "whatsapp",
            "to": "972501234567",
            "type": "text",
            "text": {"body": "⏰ Reminder: stretch"},
        }
        sink.record("100000000000001", reminder)
        with chat._printed:
            assert chat._printed.wait_for(lambda: chat._seen >= 0, timeout=5)
    finally:
        chat.stop_printer()
    assert out.getvalue() == "\nmemo> ⏰ Reminder: stretch\nyou> "
