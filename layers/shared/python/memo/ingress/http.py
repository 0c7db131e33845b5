"""The webhook's HTTP routes (API Gateway HTTP API, payload v2) on Powertools' event handler.

GET /webhook answers Meta's verification handshake; POST /webhook hands the raw body to
`memo.ingress.webhook.accept_webhook`. Domain errors become JSON answers here, by type, in one place.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types

from memo.errors import MalformedPayload, MemoError, PayloadTooLarge
from memo.ingress.webhook import TurnQueue, accept_webhook, verify_handshake
from memo.observability import logger
from memo.settings import WhatsAppSettings


def _error(exc: MemoError) -> Response[str]:
    return Response(
        status_code=exc.http_status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps({"error": {"code": exc.code, "message": exc.message}}),
    )


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


def build_app(
    *,
    whatsapp: Callable[[], WhatsAppSettings],
    queue: Callable[[], TurnQueue],
    max_body_bytes: int,
) -> APIGatewayHttpResolver:
    """The routes over their adapters; `whatsapp` and `queue` are asked for on first use, so the
    secrets are looked up and the queue client built only when a request needs them."""
    app = APIGatewayHttpResolver()

    @app.get("/webhook")
    def verify() -> Response[str]:
        params = app.current_event.query_string_parameters or {}
        challenge = verify_handshake(params, whatsapp().verify_token.get_secret_value())
        return Response(status_code=200, content_type=content_types.TEXT_PLAIN, body=challenge)

    @app.post("/webhook")
    def receive() -> Response[str]:
        event = app.current_event
        headers = {k.lower(): v for k, v in (event.headers or {}).items()}
        body = raw_body(event.body, bool(event.is_base64_encoded), max_body_bytes)
        result = accept_webhook(
            body,
            headers.get("x-hub-signature-256"),
            app_secret=whatsapp().app_secret.get_secret_value(),
            max_body_bytes=max_body_bytes,
            queue=queue(),
        )
        return Response(
            status_code=200,
            content_type=content_types.APPLICATION_JSON,
            body=json.dumps({"status": "ok", "enqueued": result.enqueued, "statuses": result.statuses}),
        )

    @app.exception_handler(MemoError)
    def domain_error(exc: MemoError) -> Response[str]:
        logger.warning("WEBHOOK_REJECTED", extra={"code": exc.code, "status": exc.http_status})
        return _error(exc)

    return app
