"""The sender's bounded retry: 429/5xx and connection errors retry with backoff, other 4xx do not."""

from __future__ import annotations

import json
import urllib.error

import pytest

from memo.replies import Reply
from memo.whatsapp.sender import GraphApiSender, WhatsAppSendError


class ScriptedTransport:
    def __init__(self, answers: list[tuple[int, dict] | Exception]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict, dict]] = []

    def __call__(self, url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, bytes]:
        self.calls.append((url, json.loads(body), headers))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
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


def test_sends_to_the_phone_number_id_with_the_bearer_token() -> None:
    transport = ScriptedTransport([(200, {"messages": [{"id": "wamid.out"}]})])
    sent = _sender(transport, []).send("555", "972501234567", Reply.plain("hello"))
    url, body, headers = transport.calls[0]
    assert url == "https://graph.example/v21.0/555/messages"
    assert headers["Authorization"] == "Bearer tok"
    assert body == {
        "messaging_product": "whatsapp",
        "recipient_type": "individual",
        "to": "972501234567",
        "type": "text",
        "text": {"body": "hello"},
    }
    assert sent.message_ids == ["wamid.out"]


def test_429_and_5xx_are_retried_with_growing_backoff() -> None:
    rate_limited = {"error": {"code": 130429, "message": "Rate limit hit"}}
    transport = ScriptedTransport(
        [(429, rate_limited), (503, {}), urllib.error.URLError("reset"), (200, {"messages": [{"id": "w"}]})]
    )
    delays: list[float] = []
    _sender(transport, delays).send("555", "1", Reply.plain("hi"))
    assert len(transport.calls) == 4
    assert len(delays) == 3 and delays[0] < delays[2]


def test_other_client_errors_are_final_and_carry_metas_code() -> None:
    transport = ScriptedTransport(
        [(400, {"error": {"code": 131030, "message": "Recipient not in allowed list"}})]
    )
    delays: list[float] = []
    with pytest.raises(WhatsAppSendError) as caught:
        _sender(transport, delays).send("555", "1", Reply.plain("hi"))
    assert (caught.value.status, caught.value.meta_code, caught.value.attempts) == (400, 131030, 1)
    assert delays == []


def test_retries_are_bounded() -> None:
    transport = ScriptedTransport([(500, {"error": {"code": 1, "message": "x"}})] * 4)
    with pytest.raises(WhatsAppSendError) as caught:
        _sender(transport, []).send("555", "1", Reply.plain("hi"))
    assert caught.value.attempts == 4 and len(transport.calls) == 4
