"""Signature, handshake and payload rules of webhook ingress, below the handler."""

from __future__ import annotations

import json

import pytest

from memo.errors import (
    MalformedPayload,
    NotAWhatsAppPayload,
    PayloadTooLarge,
    SignatureInvalid,
    SignatureMissing,
    VerificationFailed,
)
from memo.ingress.inbound import InboundMessage
from memo.ingress.messages import QueuedMessage
from memo.ingress.webhook import accept_webhook, sign, verify_handshake, verify_signature
from memo.local.whatsapp_user import WhatsAppUser, status_payload

SECRET = "s3cret"


class RecordingQueue:
    def __init__(self) -> None:
        self.messages: list[QueuedMessage] = []

    def enqueue(self, messages: list[QueuedMessage]) -> None:
        self.messages.extend(messages)


def _accept(body: bytes, signature: str | None, queue: RecordingQueue, limit: int = 10_000):
    return accept_webhook(body, signature, app_secret=SECRET, max_body_bytes=limit, queue=queue)


def test_signature_is_hex_hmac_sha256_of_the_raw_body() -> None:
    assert sign(b"{}", "key").startswith("sha256=") and len(sign(b"{}", "key")) == 7 + 64
    verify_signature(b"{}", sign(b"{}", "key"), "key")


@pytest.mark.parametrize(
    ("header", "error"),
    [
        (None, SignatureMissing),
        ("", SignatureMissing),
        ("sha256=" + "0" * 64, SignatureInvalid),
        ("sha1=abc", SignatureInvalid),
        (sign(b"{}", "another-key"), SignatureInvalid),
    ],
)
def test_bad_signatures_are_refused(header: str | None, error: type[Exception]) -> None:
    with pytest.raises(error):
        verify_signature(b"{}", header, "key")


def test_a_webhook_without_a_configured_secret_accepts_nothing() -> None:
    with pytest.raises(SignatureInvalid):
        verify_signature(b"{}", sign(b"{}", ""), "")


def test_tampered_body_fails_the_signature_and_enqueues_nothing() -> None:
    queue = RecordingQueue()
    body = json.dumps(WhatsAppUser().payload(WhatsAppUser().text("hi"))).encode()
    signature = sign(body, SECRET)
    with pytest.raises(SignatureInvalid):
        _accept(body.replace(b"hi", b"ho"), signature, queue)
    assert queue.messages == []


def test_size_bound_is_checked_before_anything_else() -> None:
    queue = RecordingQueue()
    with pytest.raises(PayloadTooLarge):
        _accept(b"x" * 10_001, None, queue)


def test_malformed_json_and_non_whatsapp_bodies_are_400s() -> None:
    queue = RecordingQueue()
    with pytest.raises(MalformedPayload):
        _accept(b"{not json", sign(b"{not json", SECRET), queue)
    other = json.dumps({"object": "page", "entry": [{"id": "1"}]}).encode()
    with pytest.raises(NotAWhatsAppPayload):
        _accept(other, sign(other, SECRET), queue)
    assert queue.messages == []


def test_status_callbacks_are_acknowledged_and_only_failures_are_followed_up() -> None:
    queue = RecordingQueue()
    for status in ("sent", "delivered", "read"):
        body = json.dumps(status_payload("wamid.X", status, "972501234567")).encode()
        result = _accept(body, sign(body, SECRET), queue)
        assert (result.enqueued, result.statuses) == (0, 1)
    assert queue.messages == []
    body = json.dumps(status_payload("wamid.X", "failed", "972501234567")).encode()
    result = _accept(body, sign(body, SECRET), queue)
    assert (result.enqueued, result.statuses) == (1, 1)
    [follow_up] = queue.messages
    assert (follow_up.wamid, follow_up.event, follow_up.target_id) == (
        "status.failed.wamid.X",
        "status.failed",
        "wamid.X",
    )


def test_handshake_returns_the_challenge_only_for_the_right_token() -> None:
    params = {"hub.mode": "subscribe", "hub.verify_token": "tok", "hub.challenge": "1158201444"}
    assert verify_handshake(params, "tok") == "1158201444"
    for bad in (
        {**params, "hub.verify_token": "nope"},
        {**params, "hub.mode": "unsubscribe"},
        {k: v for k, v in params.items() if k != "hub.challenge"},
    ):
        with pytest.raises(VerificationFailed):
            verify_handshake(bad, "tok")
    with pytest.raises(VerificationFailed):
        verify_handshake(params, "")  # no token configured: never verify


def test_json_nested_past_the_parser_or_with_a_giant_integer_is_a_400_not_a_500() -> None:
    queue = RecordingQueue()
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(MalformedPayload, match="nested"):
        _accept(deep, sign(deep, SECRET), queue, limit=1_000_000)
    giant = b'{"object": "whatsapp_business_account", "n": ' + b"9" * 5000 + b"}"
    with pytest.raises(MalformedPayload):
        _accept(giant, sign(giant, SECRET), queue)
    assert queue.messages == []


def test_a_lone_surrogate_is_replaced_and_the_other_messages_of_the_body_still_go_through() -> None:
    user = WhatsAppUser(name="Dana")
    payload = user.payload(user.text("remind me to call mom PLACEHOLDER"), user.text("hi"))
    payload["entry"][0]["changes"][0]["value"]["contacts"][0]["profile"]["name"] = "PROFILE"
    text = json.dumps(payload).replace("PLACEHOLDER", "\\ud800").replace("PROFILE", "Dana \\udfff")
    body = text.encode()
    queue = RecordingQueue()

    result = _accept(body, sign(body, SECRET), queue)

    assert result.enqueued == 2
    first, second = queue.messages
    assert first.text == "remind me to call mom \ufffd" and first.profile_name == "Dana \ufffd"
    assert second.text == "hi"
    for message in queue.messages:
        InboundMessage.model_validate_json(message.to_json())  # what SQS carries


def test_a_valid_surrogate_pair_escape_stays_the_character_it_names() -> None:
    user = WhatsAppUser()
    body = json.dumps(user.payload(user.text("thanks \U0001f600")), ensure_ascii=True).encode()
    assert b"\\ud83d\\ude00" in body
    queue = RecordingQueue()
    _accept(body, sign(body, SECRET), queue)
    assert queue.messages[0].text == "thanks \U0001f600"


def test_a_profile_name_of_150_kb_is_cut_to_a_display_name() -> None:
    user = WhatsAppUser(name="N" * 150_000)
    body = json.dumps(user.payload(user.text("hi"))).encode()
    queue = RecordingQueue()
    _accept(body, sign(body, SECRET), queue, limit=1_000_000)
    name = queue.messages[0].profile_name
    assert name is not None and len(name) <= 64
