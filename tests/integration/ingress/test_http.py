"""POST/GET /webhook through the Lambda handler on moto: what is enqueued, what is refused."""

from __future__ import annotations

import json

import boto3
import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser, envelope, status_payload
from tests.support.webhook import error_code, get, post


def _queued(stack: LocalStack) -> list[dict]:
    assert stack.resources is not None
    sqs = boto3.client("sqs", region_name="us-east-1")
    messages: list[dict] = []
    while True:
        batch = sqs.receive_message(
            QueueUrl=stack.resources.queue_url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"]
        ).get("Messages", [])
        if not batch:
            return messages
        messages.extend(batch)
        for message in batch:
            sqs.delete_message(QueueUrl=stack.resources.queue_url, ReceiptHandle=message["ReceiptHandle"])


def test_handshake_answers_the_challenge_as_plain_text(stack: LocalStack) -> None:
    response = get("hub.mode=subscribe&hub.verify_token=local-verify-token&hub.challenge=1158201444")
    assert response["statusCode"] == 200
    assert response["body"] == "1158201444"
    assert response["headers"]["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize(
    "query",
    [
        "hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1",
        "hub.mode=other&hub.verify_token=local-verify-token&hub.challenge=1",
        "",
    ],
)
def test_handshake_refuses_anything_else(stack: LocalStack, query: str) -> None:
    assert get(query)["statusCode"] == 403


def test_a_signed_batch_enqueues_every_message_grouped_by_thread(stack: LocalStack) -> None:
    dana, noa = WhatsAppUser(wa_id="972500000001"), WhatsAppUser(wa_id="972500000002")
    sent = [dana.text("one"), dana.text("two")]
    document = envelope([dana.value(sent), noa.value([noa.text("three")])])
    response = post(document)
    assert response["statusCode"] == 200
    assert json.loads(response["body"]) == {"status": "ok", "enqueued": 3, "statuses": 0}
    queued = _queued(stack)
    bodies = [json.loads(m["Body"]) for m in queued]
    assert sorted(b["text"] for b in bodies) == ["one", "three", "two"]
    dedup = {m["Attributes"]["MessageDeduplicationId"] for m in queued}
    assert {sent[0]["id"], sent[1]["id"]} <= dedup
    groups = {json.loads(m["Body"])["thread_id"]: m["Attributes"]["MessageGroupId"] for m in queued}
    assert groups["972500000001"] != groups["972500000002"]
    assert "972500000001" not in groups["972500000001"]  # the phone number is not in SQS metadata


def test_a_base64_encoded_body_is_verified_on_its_decoded_bytes(
    stack: LocalStack, user: WhatsAppUser
) -> None:
    response = post(user.payload(user.text("שלום")), base64_body=True)
    assert response["statusCode"] == 200
    assert len(_queued(stack)) == 1


def test_invalid_base64_is_a_400(stack: LocalStack) -> None:
    from memo.local.context import LocalLambdaContext
    from memo.local.events import http_api_event
    from memo.local.functions import load_handler

    event = http_api_event("POST", "/webhook", headers={"X-Hub-Signature-256": "sha256=00"}, body=b"x")
    event["body"], event["isBase64Encoded"] = "***not base64***", True
    response = load_handler("webhook")(event, LocalLambdaContext())
    assert response["statusCode"] == 400


@pytest.mark.parametrize(
    ("kwargs", "status", "code"),
    [
        ({"secret": None}, 401, "SIGNATURE_MISSING"),
        ({"secret": "another-apps-secret"}, 403, "SIGNATURE_INVALID"),
        ({"signature": "sha256=" + "0" * 64}, 403, "SIGNATURE_INVALID"),
    ],
)
def test_unsigned_or_wrongly_signed_posts_write_nothing(
    stack: LocalStack, user: WhatsAppUser, kwargs: dict, status: int, code: str
) -> None:
    response = post(user.payload(user.text("hi")), **kwargs)
    assert (response["statusCode"], error_code(response)) == (status, code)
    assert _queued(stack) == []


def test_a_tampered_body_is_refused(stack: LocalStack, user: WhatsAppUser) -> None:
    from memo.ingress.webhook import sign

    original = json.dumps(user.payload(user.text("pay 10"))).encode()
    response = post(original.replace(b"pay 10", b"pay 99"), signature=sign(original, "local-app-secret"))
    assert response["statusCode"] == 403
    assert _queued(stack) == []


def test_oversized_bodies_are_413(stack: LocalStack, user: WhatsAppUser) -> None:
    huge = user.payload(user.text("x" * (300 * 1024)))
    response = post(huge)
    assert (response["statusCode"], error_code(response)) == (413, "PAYLOAD_TOO_LARGE")
    assert _queued(stack) == []


def test_malformed_json_is_400_with_a_json_error(stack: LocalStack) -> None:
    response = post(b'{"object": "whatsapp_business_account", "entry": [')
    assert response["statusCode"] == 400
    assert error_code(response) == "MALFORMED_JSON"


@pytest.mark.parametrize(
    "document",
    [
        {"object": "page", "entry": [{"id": "1"}]},
        {"object": "whatsapp_business_account", "entry": []},
        [1, 2, 3],
        {"hello": "world"},
    ],
)
def test_bodies_that_are_not_whatsapp_payloads_are_400(stack: LocalStack, document: object) -> None:
    response = post(json.dumps(document).encode())
    assert (response["statusCode"], error_code(response)) == (400, "NOT_A_WHATSAPP_PAYLOAD")
    assert _queued(stack) == []


def test_status_callbacks_are_acknowledged_and_ignored(stack: LocalStack) -> None:
    response = post(status_payload("wamid.out.1", "delivered", "972501234567"))
    assert json.loads(response["body"]) == {"status": "ok", "enqueued": 0, "statuses": 1}
    assert _queued(stack) == []


def test_the_same_message_posted_twice_is_enqueued_once(stack: LocalStack, user: WhatsAppUser) -> None:
    payload = user.payload(user.text("hi"))
    assert post(payload)["statusCode"] == 200
    assert post(payload)["statusCode"] == 200
    assert len(_queued(stack)) == 1
