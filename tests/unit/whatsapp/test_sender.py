"""The sender tells a message Meta certainly did not take from one it may have delivered.

Not accepted (never sent, 429, other 4xx): 429 and never-sent are retried with backoff, other 4xx
are final. Outcome unknown (a 5xx, or no answer after the request went out): never sent again,
`WhatsAppSendOutcomeUnknown`, logged with the message's tracking tag. Every body carries its tag.
"""

from __future__ import annotations

import http.client
import json
import urllib.error

import pytest

from memo.replies import Reply
from memo.whatsapp.outbound import TEXT_LIMIT
from memo.whatsapp.sender import (
    GraphApiSender,
    RequestNotSent,
    WhatsAppSendError,
    WhatsAppSendOutcomeUnknown,
)
from memo.whatsapp.tracking import OutboundTag
from tests.support.conversation import LogEvents


class ScriptedTransport:
    def __init__(self, answers: list[tuple[int, dict] | BaseException]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict, dict]] = []

    def __call__(self, url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        self.calls.append((url, json.loads(body), headers))
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        status, document = answer
        return status, json.dumps(document).encode()


def _sender(transport: ScriptedTransport, delays: list[float]) -> GraphApiSender:
    return GraphApiSender(
        base_url="https://graph.example/v21.0/",
        access_token="tok",
        max_attempts=4,
        transport=transport,
        sleep=delays.append,
    )


OK = (200, {"messages": [{"id": "wamid.out"}]})
UNKNOWN_ERROR = {"error": {"code": 1, "message": "An unknown error has occurred."}}


def test_sends_to_the_phone_number_id_with_the_bearer_token_and_a_tracking_tag() -> None:
    transport = ScriptedTransport([OK])
    sent = _sender(transport, []).send("555", "972501234567", Reply.plain("hello"))
    url, body, headers = transport.calls[0]
    assert url == "https://graph.example/v21.0/555/messages"
    assert headers["Authorization"] == "Bearer tok"
    tag = OutboundTag.decode(body.pop("biz_opaque_callback_data"))
    assert body == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": "972501234567",
        "type": "text",
        "text": {"body": "hello"},
    }
    assert tag is not None and (tag.kind, tag.thread_id) == ("reply", "972501234567")
    assert sent.message_ids == ["wamid.out"]


def test_every_part_of_a_long_reply_carries_the_callers_tag_with_its_index() -> None:
    transport = ScriptedTransport([OK, OK, OK])
    question = OutboundTag.new("hitl_question", "972501234567", seed="wamid.IN")
    _sender(transport, []).send("555", "972501234567", Reply.plain("word " * TEXT_LIMIT), tag=question)
    tags = [OutboundTag.decode(body["biz_opaque_callback_data"]) for _, body, _ in transport.calls]
    assert [t.part for t in tags if t] == [0, 1, 2]
    assert {(t.kind, t.token) for t in tags if t} == {("hitl_question", question.token)}


def test_429_and_requests_that_never_left_are_retried_with_growing_backoff() -> None:
    rate_limited = {"error": {"code": 130429, "message": "Rate limit hit"}}
    transport = ScriptedTransport(
        [
            (429, rate_limited),
            urllib.error.URLError(ConnectionRefusedError("refused")),
            RequestNotSent("dns"),
            (200, {"messages": [{"id": "w"}]}),
        ]
    )
    delays: list[float] = []
    assert _sender(transport, delays).send("555", "1", Reply.plain("hi")).message_ids == ["w"]
    assert len(transport.calls) == 4
    assert len(delays) == 3 and delays[0] < delays[2]


@pytest.mark.parametrize(
    "answer",
    [
        (500, UNKNOWN_ERROR),
        (502, {}),
        (503, {"error": {"code": 2, "message": "Service temporarily unavailable"}}),
        (504, {}),
        TimeoutError("The read operation timed out"),
        http.client.RemoteDisconnected("Remote end closed connection without response"),
        ConnectionResetError("reset after sending"),
    ],
    ids=["500", "502", "503", "504", "read-timeout", "disconnected", "reset"],
)
def test_an_ambiguous_answer_is_never_sent_again(
    answer: tuple[int, dict] | BaseException, log_events: LogEvents
) -> None:
    transport = ScriptedTransport([answer, OK])
    tag = OutboundTag.new("reminder", "972501234567", seed="claim-1", reminder_id="r1", mode="text")
    delays: list[float] = []
    with pytest.raises(WhatsAppSendOutcomeUnknown) as caught:
        _sender(transport, delays).send("555", "972501234567", Reply.plain("⏰ Reminder: call mom"), tag=tag)
    assert len(transport.calls) == 1 and delays == []
    assert caught.value.may_have_reached_user and caught.value.message_ids == []
    [logged] = log_events.named("SEND_OUTCOME_UNKNOWN")
    assert (logged["carried"], logged["sendToken"], logged["reminderId"]) == ("reminder", tag.token, "r1")


def test_a_later_part_failing_keeps_the_ids_meta_accepted_so_the_reply_is_not_offered_to_a_retry() -> None:
    transport = ScriptedTransport([OK, (400, {"error": {"code": 100, "message": "Invalid parameter"}})])
    with pytest.raises(WhatsAppSendError) as caught:
        _sender(transport, []).send("555", "1", Reply.plain("word " * TEXT_LIMIT))
    assert not caught.value.outcome_unknown
    assert caught.value.message_ids == ["wamid.out"] and caught.value.may_have_reached_user


def test_other_client_errors_are_final_and_carry_metas_code() -> None:
    transport = ScriptedTransport(
        [(400, {"error": {"code": 131030, "message": "Recipient not in allowed list"}})]
    )
    delays: list[float] = []
    with pytest.raises(WhatsAppSendError) as caught:
        _sender(transport, delays).send("555", "1", Reply.plain("hi"))
    assert (caught.value.status, caught.value.meta_code, caught.value.attempts) == (400, 131030, 1)
    assert not caught.value.may_have_reached_user
    assert delays == []


def test_retries_are_bounded() -> None:
    transport = ScriptedTransport([(429, {"error": {"code": 130429, "message": "x"}})] * 4)
    with pytest.raises(WhatsAppSendError) as caught:
        _sender(transport, []).send("555", "1", Reply.plain("hi"))
    assert caught.value.attempts == 4 and len(transport.calls) == 4
    assert not caught.value.outcome_unknown


def test_a_read_receipt_is_idempotent_so_a_5xx_or_timeout_is_retried() -> None:
    transport = ScriptedTransport([(500, UNKNOWN_ERROR), TimeoutError("read"), (200, {"success": True})])
    _sender(transport, []).mark_read("555", "wamid.IN")
    assert len(transport.calls) == 3
    assert all("biz_opaque_callback_data" not in body for _, body, _ in transport.calls)
