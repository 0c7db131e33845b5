"""The local Graph API sink records what Memo sends and answers like Meta: a message id per message,
a bare success for a read receipt, and on request a 500 or no answer after the message was delivered."""

from __future__ import annotations

import threading

from memo.local.sink import SERVER_ERROR, GraphSink

PHONE = "100000000000001"


def _text(to: str, body: str, **extra: object) -> dict[str, object]:
    return {"messaging_product": "whatsapp", "to": to, "type": "text", "text": {"body": body}, **extra}


def test_a_message_is_recorded_and_answered_with_its_id() -> None:
    sink = GraphSink()
    answer = sink.post(PHONE, _text("972501234567", "hi", biz_opaque_callback_data="r:1"))
    [record] = sink.messages(to="972501234567")
    assert answer.status == 200 and answer.body is not None
    assert answer.body["messages"] == [{"id": record.message_id}]
    assert answer.body["contacts"] == [{"input": "972501234567", "wa_id": "972501234567"}]
    assert (record.phone_number_id, record.tag, record.index) == (PHONE, "r:1", 0)


def test_read_receipts_are_recorded_but_not_listed_as_messages() -> None:
    sink = GraphSink()
    answer = sink.post(PHONE, {"messaging_product": "whatsapp", "status": "read", "message_id": "wamid.A"})
    assert (answer.status, answer.body) == (200, {"success": True})
    assert sink.messages() == [] and sink.last_index == 0


def test_messages_are_listed_per_recipient_after_an_index() -> None:
    sink = GraphSink()
    for n, to in enumerate(["a", "b", "a", "a"]):
        sink.post(PHONE, _text(to, str(n)))
    assert [r.body["text"] for r in sink.messages(to="a", after=0)] == [{"body": "2"}, {"body": "3"}]
    assert len({r.message_id for r in sink.messages()}) == 4


def test_faults_after_delivery_are_answered_in_turn_and_read_receipts_skip_them() -> None:
    sink = GraphSink()
    sink.fail_after_delivery("500")
    sink.fail_after_delivery("timeout", hold=3.0)
    assert sink.post(PHONE, {"status": "read", "message_id": "x"}).status == 200
    failed = sink.post(PHONE, _text("a", "one"))
    silent = sink.post(PHONE, _text("a", "two"))
    fine = sink.post(PHONE, _text("a", "three"))
    assert (failed.status, failed.body) == (500, SERVER_ERROR)
    assert (silent.status, silent.body, silent.hold) == (500, None, 3.0)
    assert fine.status == 200
    assert [r.body["text"]["body"] for r in sink.messages(to="a")] == ["one", "two", "three"]  # all delivered


def test_media_is_held_under_its_own_id() -> None:
    sink = GraphSink()
    first, second = sink.add_media(b"ogg-1", "audio/ogg"), sink.add_media(b"ogg-2", "audio/ogg")
    assert first != second and first.isdigit()
    stored = sink.media(second)
    assert stored is not None and (stored.data, stored.mime_type) == (b"ogg-2", "audio/ogg")
    assert sink.media("999") is None


def test_a_reader_waits_for_the_reply_to_its_recipient() -> None:
    sink = GraphSink()
    sink.post(PHONE, _text("other", "not for you"))
    after = sink.last_index
    later = threading.Timer(0.05, lambda: sink.post(PHONE, _text("a", "hello")))
    later.start()
    [reply] = sink.wait_for(to="a", after=after, timeout=5, quiet=0.05)
    later.join()
    assert reply.body["text"] == {"body": "hello"}
    assert sink.wait_for(to="nobody", after=after, timeout=0.01) == []
