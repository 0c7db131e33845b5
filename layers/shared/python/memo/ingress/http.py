"""The webhook's two HTTP routes on the API Gateway HTTP API (payload format 2.0).

GET /webhook answers Meta's verification handshake; POST /webhook hands the raw body to
`memo.ingress.webhook.accept_webhook`. Domain errors become JSON answers here, by type, in one place;
any other route is a JSON 404. The answer has the shape Powertools' `APIGatewayHttpResolver` gives
(status, body, `Content-Type`, no cookies); two fixed routes need no resolver, and importing
Powertools' event handler package (every resolver and every event class) would be most of a cold
start's first request, which Meta waits on.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from typing import Any

from memo.errors import MalformedPayload, MemoError, PayloadTooLarge
from memo.ingress.ids import DEFAULT_MAX_ID_BYTES
from memo.ingress.webhook import TurnQueue, accept_webhook, verify_handshake
from memo.observability import logger

WEBHOOK_PATH = "/webhook"
APPLICATION_JSON = "application/json"
TEXT_PLAIN = "text/plain"


def response(status: int, body: str, content_type: str) -> dict[str, Any]:
    """An HTTP API (payload 2.0) answer."""
    return {
        "statusCode": status,
        "body": body,
        "isBase64Encoded": False,
        "headers": {"Content-Type": content_type},
        "cookies": [],
    }


def _error(exc: MemoError) -> dict[str, Any]:
    body = json.dumps({"error": {"code": exc.code, "message": exc.message}})
    return response(exc.http_status, body, APPLICATION_JSON)


def raw_body(body: str | None, is_base64: bool, max_bytes: int) -> bytes:
    """The exact bytes Meta signed: base64 bodies are decoded first."""
    if not body:
        return b""
    # A base64 body is 4/3 of its bytes; refuse before decoding anything far too big.
    if len(body) > max_bytes * 4 // 3 + 4:
        raise PayloadTooLarge(f"body exceeds {max_bytes} bytes")
    if not is_base64:
        return body.encode("utf-8")
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise MalformedPayload("body is marked base64 but is not valid base64") from exc


class WebhookHttp:
    """The routes over their adapters; `secrets` (app secret, verify token) and `queue` are asked for
    on first use, so the secrets are looked up and the queue client built only when a request needs
    them."""

    def __init__(
        self,
        *,
        app_secret: Callable[[], str],
        verify_token: Callable[[], str],
        queue: Callable[[], TurnQueue],
        max_body_bytes: int,
        max_id_bytes: int = DEFAULT_MAX_ID_BYTES,
    ) -> None:
        self._app_secret = app_secret
        self._verify_token = verify_token
        self._queue = queue
        self._max_body_bytes = max_body_bytes
        self._max_id_bytes = max_id_bytes

    def __call__(self, event: Mapping[str, Any]) -> dict[str, Any]:
        http = (event.get("requestContext") or {}).get("http") or {}
        route = (str(http.get("method", "")).upper(), event.get("rawPath") or http.get("path"))
        try:
            if route == ("GET", WEBHOOK_PATH):
                return self.verify(event)
            if route == ("POST", WEBHOOK_PATH):
                return self.receive(event)
        except MemoError as exc:
            logger.warning("WEBHOOK_REJECTED", extra={"code": exc.code, "status": exc.http_status})
            return _error(exc)
        return response(404, json.dumps({"statusCode": 404, "message": "Not found"}), APPLICATION_JSON)

    def verify(self, event: Mapping[str, Any]) -> dict[str, Any]:
        params = event.get("queryStringParameters") or {}
        challenge = verify_handshake(params, self._verify_token())
        return response(200, challenge, TEXT_PLAIN)

    def receive(self, event: Mapping[str, Any]) -> dict[str, Any]:
        headers = {str(k).lower(): v for k, v in (event.get("headers") or {}).items()}
        body = raw_body(event.get("body"), bool(event.get("isBase64Encoded")), self._max_body_bytes)
        result = accept_webhook(
            body,
            headers.get("x-hub-signature-256"),
            app_secret=self._app_secret(),
            max_body_bytes=self._max_body_bytes,
            queue=self._queue(),
            max_id_bytes=self._max_id_bytes,
        )
        answer = {"status": "ok", "enqueued": result.enqueued, "statuses": result.statuses}
        return response(200, json.dumps(answer), APPLICATION_JSON)
