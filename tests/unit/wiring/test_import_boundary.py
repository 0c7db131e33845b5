"""What a webhook cold start imports: the handler module brings only memo's own ingress modules beyond
boto3 + Powertools (the floor `make bench` compares with), and its first requests (the handshake, a
signed POST, a refused one) import nothing more: no pydantic, no Powertools event handler, nothing of
the turn path. A fresh interpreter loads the handler file the way Lambda (and `make bench`) does and
reports which modules each step added. Set membership, never a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = r"""
import hashlib, hmac, json, sys
from types import SimpleNamespace

import boto3, aws_lambda_powertools  # the floor make bench compares the cold import with

floor = set(sys.modules)
import importlib.util as u
spec = u.spec_from_file_location("h", "functions/webhook/handler.py")
handler = u.module_from_spec(spec)
spec.loader.exec_module(handler)
imported = set(sys.modules) - floor

# The queue is the one adapter not run here (no SQS): what would be sent is kept.
from memo.wiring.ingress import IngressRuntime
queued = []
IngressRuntime.current().__dict__["queue"] = SimpleNamespace(enqueue=queued.extend)

before = set(sys.modules)
context = SimpleNamespace(function_name="webhook", memory_limit_in_mb=512, aws_request_id="r-1",
                          invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:webhook")
def event(method, query="", headers=None, body=None):
    return {
        "version": "2.0", "routeKey": f"{method} /webhook", "rawPath": "/webhook", "rawQueryString": query,
        "queryStringParameters": dict(p.split("=") for p in query.split("&")) if query else None,
        "headers": headers or {}, "body": body, "isBase64Encoded": False,
        "requestContext": {"http": {"method": method, "path": "/webhook", "sourceIp": "127.0.0.1"},
                           "requestId": "r-1", "stage": "$default"},
    }
body = json.dumps({"object": "whatsapp_business_account", "entry": [{"id": "1", "changes": [{"field": "messages",
    "value": {"metadata": {"phone_number_id": "1"}, "contacts": [{"wa_id": "972501234567"}],
              "messages": [{"from": "972501234567", "id": "wamid.1", "timestamp": "1", "type": "text",
                            "text": {"body": "hi"}}]}}]}]})
def sign(text):
    return "sha256=" + hmac.new(b"secret", text.encode(), hashlib.sha256).hexdigest()
signed = sign(body)
page = json.dumps({"object": "page", "entry": [{"id": "1"}]})  # signed, but not a WhatsApp payload
answers = [
    handler.handler(event("GET", "hub.mode=subscribe&hub.verify_token=tok&hub.challenge=42"), context),
    handler.handler(event("POST", headers={"x-hub-signature-256": signed}, body=body), context),
    handler.handler(event("POST", headers={"x-hub-signature-256": "sha256=00"}, body=body), context),
    handler.handler(event("POST", headers={"x-hub-signature-256": sign(page)}, body=page), context),
]
first_requests = set(sys.modules) - before
print(json.dumps({"imported": sorted(imported), "answers": [[a["statusCode"], a["body"]] for a in answers],
                  "queued": [m.to_dict() for m in queued], "first_requests": sorted(first_requests),
                  "pydantic": "pydantic" in sys.modules}))
"""

# Heavy packages only some turns need (dates, fuzzy matching, phone numbers, schemas, the LLM client,
# the case platform, the X-Ray SDK) and the turn path's pydantic models: never on the ingress path.
TURN_ONLY_PACKAGES = {
    "pydantic",
    "pydantic_core",
    "dateparser",
    "rapidfuzz",
    "snowballstemmer",
    "phonenumbers",
    "jsonschema",
    "openai",
    "httpx",
    "mcp",
    "jwt",
    "caseplatform",
    "aws_xray_sdk",
}
# memo's turn path (and everything below it): imported when the turn path first needs it.
TURN_ONLY_MEMO = {
    "memo.turn",
    "memo.hitl",
    "memo.planner",
    "memo.resolution",
    "memo.executor",
    "memo.capabilities",
    "memo.operator_review",
    "memo.conversation",
    "memo.reply",
    "memo.reminders",
    "memo.local",
}


@pytest.fixture(scope="module")
def cold_start() -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WHATSAPP_", "AWS_ENDPOINT"))}
    env.update(
        WHATSAPP_VERIFY_TOKEN="tok",
        WHATSAPP_APP_SECRET="secret",
        TURN_QUEUE_URL="https://sqs.us-east-1.amazonaws.com/123456789012/turns.fifo",
        POWERTOOLS_METRICS_DISABLED="true",
        POWERTOOLS_LOG_LEVEL="ERROR",
        AWS_DEFAULT_REGION="us-east-1",
    )
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def _packages(modules: list[str]) -> set[str]:
    top = {name.split(".")[0] for name in modules}
    return {name for name in top if not name.startswith("_sysconfigdata")} - set(sys.stdlib_module_names)


def _under(modules: list[str], packages: set[str]) -> list[str]:
    return [name for name in modules if any(name == p or name.startswith(p + ".") for p in packages)]


def test_the_handler_module_imports_only_memos_ingress_beyond_the_floor(cold_start: dict[str, Any]) -> None:
    imported = cold_start["imported"]
    assert _packages(imported) == {"memo"}
    assert "memo.ingress.http" in imported  # the ingress path is imported at init, not by Meta's first POST
    assert (
        _under(imported, TURN_ONLY_MEMO | {"memo.settings", "memo.wiring.webhook", "memo.ingress.inbound"})
        == []
    )
    # Powertools' parts the ingress does not run (the event handler, idempotency, the tracer).
    assert [name for name in imported if name.startswith("aws_lambda_powertools")] == []


def test_the_first_requests_import_nothing_more_and_never_pydantic(cold_start: dict[str, Any]) -> None:
    assert cold_start["answers"][0] == [200, "42"]
    assert cold_start["answers"][1][0] == 200
    assert json.loads(cold_start["answers"][1][1]) == {"status": "ok", "enqueued": 1, "statuses": 0}
    assert cold_start["answers"][2][0] == 403  # a wrong signature: refused, nothing queued
    assert cold_start["answers"][3][0] == 400  # not a WhatsApp payload: refused, nothing queued
    assert [m["text"] for m in cold_start["queued"]] == ["hi"]
    first_requests = cold_start["first_requests"]
    assert _packages(first_requests) & TURN_ONLY_PACKAGES == set()
    assert _under(first_requests, TURN_ONLY_MEMO | {"memo.settings", "memo.wiring.webhook"}) == []
    assert [name for name in first_requests if name.startswith("aws_lambda_powertools.event_handler")] == []
    assert cold_start["pydantic"] is False
