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
    _, chat._choices = render(message_bodies("1", reply)[0])
    message = chat._message_for("2")
    assert message["interactive"] == {
        "type": "button_reply",
        "button_reply": {"id": "reject", "title": "Reject"},
    }
    assert chat._message_for("2")["type"] == "text"


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
