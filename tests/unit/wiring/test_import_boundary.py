"""What a webhook cold start imports: the handler module brings only the settings (pydantic) and a few
small memo modules beyond boto3 + Powertools; the first request imports its own path and nothing of
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
import json, sys
from types import SimpleNamespace

import boto3, aws_lambda_powertools  # the floor make bench compares the cold import with

floor = set(sys.modules)
import importlib.util as u
spec = u.spec_from_file_location("h", "functions/webhook/handler.py")
handler = u.module_from_spec(spec)
spec.loader.exec_module(handler)
imported = set(sys.modules) - floor

import memo.settings as settings
built = {
    model.__name__: model.__pydantic_complete__
    for model in (settings.WebhookSettings, settings.AwsSettings, settings.WhatsAppSettings,
                  settings.LlmSettings, settings.ExecutorSettings, settings.ReviewSettings)
}

before = set(sys.modules)
context = SimpleNamespace(function_name="webhook", memory_limit_in_mb=512, aws_request_id="r-1",
                          invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:webhook")
event = {
    "version": "2.0", "routeKey": "GET /webhook", "rawPath": "/webhook",
    "rawQueryString": "hub.mode=subscribe&hub.verify_token=tok&hub.challenge=42",
    "queryStringParameters": {"hub.mode": "subscribe", "hub.verify_token": "tok", "hub.challenge": "42"},
    "headers": {}, "isBase64Encoded": False,
    "requestContext": {"http": {"method": "GET", "path": "/webhook", "sourceIp": "127.0.0.1"},
                       "requestId": "r-1", "stage": "$default"},
}
answer = handler.handler(event, context)
first_request = set(sys.modules) - before
print(json.dumps({"imported": sorted(imported), "built": built, "answer": answer,
                  "first_request": sorted(first_request)}))
"""

# Third-party packages the handler module may import beyond the floor: the settings' pydantic.
ALLOWED_PACKAGES = {
    "memo",
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "typing_inspection",
    "typing_extensions",
}
# Heavy packages only some turns need (dates, fuzzy matching, phone numbers, schemas, the LLM client,
# the case platform, the X-Ray SDK): never at import, never on the ingress path.
TURN_ONLY_PACKAGES = {
    "dateparser",
    "rapidfuzz",
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


def test_the_handler_module_imports_only_the_settings_beyond_the_floor(cold_start: dict[str, Any]) -> None:
    imported = cold_start["imported"]
    assert _packages(imported) <= ALLOWED_PACKAGES
    assert _under(imported, TURN_ONLY_MEMO | {"memo.ingress", "memo.whatsapp", "memo.text"}) == []
    # Powertools' parts the handler does not run at import (the event handler, idempotency, the tracer).
    assert [name for name in imported if name.startswith("aws_lambda_powertools")] == []


def test_only_the_webhook_settings_are_built_at_import(cold_start: dict[str, Any]) -> None:
    """The webhook's settings validator is built at import (init), not by the first request; the other
    Lambdas' settings models in the same module are never built in this Lambda."""
    assert cold_start["built"] == {
        "WebhookSettings": True,
        "AwsSettings": True,
        "WhatsAppSettings": True,
        "LlmSettings": True,
        "ExecutorSettings": False,
        "ReviewSettings": False,
    }


def test_the_first_ingress_request_imports_nothing_of_the_turn_path(cold_start: dict[str, Any]) -> None:
    assert cold_start["answer"]["statusCode"] == 200
    assert cold_start["answer"]["body"] == "42"
    first_request = cold_start["first_request"]
    assert "memo.ingress.http" in first_request  # the ingress path is imported by its first request
    assert _packages(first_request) & TURN_ONLY_PACKAGES == set()
    assert _under(first_request, TURN_ONLY_MEMO) == []
