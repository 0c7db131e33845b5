"""Invoke the webhook Lambda handler in-process with the events AWS would send."""

from __future__ import annotations

import base64
import json
from typing import Any

from memo.ingress.webhook import sign
from memo.local.context import LocalLambdaContext
from memo.local.events import http_api_event
from memo.local.functions import load_handler

APP_SECRET = "local-app-secret"


def post(
    payload: dict[str, Any] | bytes,
    *,
    secret: str | None = APP_SECRET,
    base64_body: bool = False,
    signature: str | None = None,
) -> dict[str, Any]:
    body = payload if isinstance(payload, bytes) else json.dumps(payload, ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json"}
    if signature is not None:
        headers["X-Hub-Signature-256"] = signature
    elif secret is not None:
        headers["X-Hub-Signature-256"] = sign(body, secret)
    event = http_api_event("POST", "/webhook", headers=headers, body=body)
    if base64_body:
        event["body"] = base64.b64encode(body).decode()
        event["isBase64Encoded"] = True
    return load_handler("webhook")(event, LocalLambdaContext())


def get(query: str) -> dict[str, Any]:
    return load_handler("webhook")(http_api_event("GET", "/webhook", query=query), LocalLambdaContext())


def error_code(response: dict[str, Any]) -> str:
    return str(json.loads(response["body"])["error"]["code"])
