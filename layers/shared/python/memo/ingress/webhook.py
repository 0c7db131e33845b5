"""Webhook ingress: verify Meta's handshake and signature, validate, enqueue every message.

Order of checks on POST (each failure is final and writes nothing):
size bound (413) -> signature present (401) and valid (403) -> JSON (400) -> WhatsApp shape (400)
-> every id within `max_id_bytes` (`memo.ingress.ids`: an over-long one is absent, never a failure)
-> enqueue every message of every entry/change on the FIFO queue -> 200.
Statuses and account-level errors are logged with Meta's codes (`memo.ingress.statuses`); a `failed`
status is also enqueued, for the turn path's follow-up (a reminder's retry).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import NamedTuple, Protocol

from memo.errors import (
    MalformedPayload,
    NotAWhatsAppPayload,
    PayloadTooLarge,
    SignatureInvalid,
    SignatureMissing,
    VerificationFailed,
)
from memo.ingress.ids import DEFAULT_MAX_ID_BYTES
from memo.ingress.messages import QueuedMessage, parse_webhook
from memo.ingress.statuses import report
from memo.ingress.surrogates import clean_body
from memo.ingress.wire import WireError, parse_payload
from memo.observability import count, logger
from memo.text.wording import shorten

SIGNATURE_PREFIX = "sha256="


class TurnQueue(Protocol):
    def enqueue(self, messages: list[QueuedMessage]) -> None:
        """Put each message on the FIFO queue (group = thread, dedup id = wamid); raise on failure."""


class IngressResult(NamedTuple):
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
    max_id_bytes: int = DEFAULT_MAX_ID_BYTES,
) -> IngressResult:
    if len(body) > max_body_bytes:
        raise PayloadTooLarge(f"body is {len(body)} bytes; the limit is {max_body_bytes}")
    verify_signature(body, signature, app_secret)
    try:
        document = json.loads(body)
    except (UnicodeDecodeError, ValueError) as exc:  # ValueError: also an integer of 4,300+ digits
        raise MalformedPayload(f"body is not valid JSON: {shorten(str(exc), 200)}") from exc
    except RecursionError as exc:
        raise MalformedPayload(f"body is nested deeper than JSON parsing allows ({len(body)} bytes)") from exc
    document = clean_body(body, document)  # lone surrogates become U+FFFD, at any depth
    try:
        payload = parse_payload(document)
    except WireError as exc:
        raise NotAWhatsAppPayload(
            f"not a WhatsApp webhook payload: invalid {', '.join(exc.fields[:5])}"
        ) from exc
    parsed = parse_webhook(payload, max_id_bytes=max_id_bytes)
    follow_ups = report(payload, max_id_bytes=max_id_bytes)
    if parsed.messages or follow_ups:
        queue.enqueue(parsed.messages + follow_ups)
    count("MessagesReceived", len(parsed.messages))
    if parsed.statuses:
        count("StatusCallbacks", parsed.statuses)
    enqueued = len(parsed.messages) + len(follow_ups)
    logger.info(
        "WEBHOOK_ACCEPTED",
        extra={"messages": len(parsed.messages), "statuses": parsed.statuses, "enqueued": enqueued},
    )
    return IngressResult(enqueued=enqueued, statuses=parsed.statuses)
