"""Webhook ingress: verify Meta's handshake and signature, validate, enqueue every message.

Order of checks on POST (each failure is final and writes nothing):
size bound (413) -> signature present (401) and valid (403) -> JSON (400) -> WhatsApp shape (400)
-> enqueue every message of every entry/change on the FIFO queue -> 200.
Status callbacks (sent/delivered/read/failed) are acknowledged and ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Protocol

from pydantic import BaseModel, ValidationError

from memo.errors import (
    MalformedPayload,
    NotAWhatsAppPayload,
    PayloadTooLarge,
    SignatureInvalid,
    SignatureMissing,
    VerificationFailed,
)
from memo.ingress.inbound import InboundMessage, parse_webhook
from memo.observability import count, logger
from memo.whatsapp.models import WebhookPayload

SIGNATURE_PREFIX = "sha256="


class TurnQueue(Protocol):
    def enqueue(self, messages: list[InboundMessage]) -> None:
        """Put each message on the FIFO queue (group = thread, dedup id = wamid); raise on failure."""


class IngressResult(BaseModel):
    enqueued: int
    statuses: int


def sign(body: bytes, app_secret: str) -> str:
    """The `X-Hub-Signature-256` header value Meta sends for `body`."""
    return SIGNATURE_PREFIX + hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()


def verify_signature(body: bytes, header: str | None, app_secret: str) -> None:
    if not header:
        raise SignatureMissing("X-Hub-Signature-256 header is missing")
    if not app_secret:
        # A deployment without its secret must not accept anything.
        raise SignatureInvalid("the webhook has no app secret configured")
    if not hmac.compare_digest(header.strip().encode(), sign(body, app_secret).encode()):
        raise SignatureInvalid("X-Hub-Signature-256 does not match the body")


def verify_handshake(params: Mapping[str, str], verify_token: str) -> str:
    """GET /webhook: return `hub.challenge` when mode is subscribe and the token matches."""
    mode = params.get("hub.mode", "")
    token = params.get("hub.verify_token", "")
    challenge = params.get("hub.challenge", "")
    token_ok = bool(verify_token) and hmac.compare_digest(token.encode(), verify_token.encode())
    if mode != "subscribe" or not token_ok or not challenge:
        logger.warning("WEBHOOK_VERIFY_REJECTED", extra={"mode": mode, "hasChallenge": bool(challenge)})
        raise VerificationFailed("verification failed")
    return challenge


def accept_webhook(
    body: bytes,
    signature: str | None,
    *,
    app_secret: str,
    max_body_bytes: int,
    queue: TurnQueue,
) -> IngressResult:
    if len(body) > max_body_bytes:
        raise PayloadTooLarge(f"body is {len(body)} bytes; the limit is {max_body_bytes}")
    verify_signature(body, signature, app_secret)
    try:
        document = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MalformedPayload(f"body is not valid JSON: {exc}") from exc
    try:
        payload = WebhookPayload.model_validate(document)
    except ValidationError as exc:
        fields = sorted({".".join(str(p) for p in err["loc"]) or "body" for err in exc.errors()})
        raise NotAWhatsAppPayload(f"not a WhatsApp webhook payload: invalid {', '.join(fields[:5])}") from exc
    parsed = parse_webhook(payload)
    if parsed.messages:
        queue.enqueue(parsed.messages)
    count("MessagesReceived", len(parsed.messages))
    if parsed.statuses:
        count("StatusCallbacksIgnored", parsed.statuses)
    logger.info("WEBHOOK_ACCEPTED", extra={"messages": len(parsed.messages), "statuses": parsed.statuses})
    return IngressResult(enqueued=len(parsed.messages), statuses=parsed.statuses)
