"""Test harness of the review API: the resolver in-process over a chosen store, dev tokens, API
Gateway v2 events, and a small local HTTP server that turns real HTTP requests into those events
(for the MCP SDK's HTTP client and the browser test)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from caseplatform.review import devtokens
from caseplatform.review.api import ApiConfig, build_app
from caseplatform.review.approvals import ReviewService, ensure_review_adapters
from caseplatform.service import CaseService
from memo.local.events import http_api_event
from tests.support.lambda_http import api_gateway_server

DEV_SECRET = "dev-secret-for-tests-0123456789abcdef"
OTHER_SECRET = "another-secret-nobody-configured-0123456789"

OPS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["action", "count"],
    "properties": {
        "action": {"enum": ["delete_notes", "delete_reminders"]},
        "count": {"type": "integer", "minimum": 1, "maximum": 100},
        "note": {"type": "string"},
    },
}
TWO_PERSON_SCHEMA: dict[str, Any] = {**OPS_SCHEMA, "x-hitl": {"required_approvers": 2}}


def seed_adapters(cases: CaseService) -> None:
    cases.ensure_default_adapters()
    ensure_review_adapters(cases)
    for adapter_id, schema in (("ops_change", OPS_SCHEMA), ("two_person", TWO_PERSON_SCHEMA)):
        cases.register_adapter_schema(adapter_id, 1, schema)
        cases.activate_adapter_schema(adapter_id, 1)


def token(sub: str, *groups: str, name: str | None = None, secret: str = DEV_SECRET, ttl: int = 3600) -> str:
    return devtokens.issue(secret, sub=sub, name=name or sub.title(), groups=list(groups), ttl_seconds=ttl)


class LambdaContext:
    function_name = "review"
    memory_limit_in_mb = 256
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:review"
    aws_request_id = "test-request"


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str]


class ReviewClient:
    """Calls the resolver with API Gateway HTTP API (payload v2) events, as API Gateway would."""

    def __init__(self, review: ReviewService, *, dev_secret: str | None = DEV_SECRET) -> None:
        self.review = review
        self.app: APIGatewayHttpResolver = build_app(lambda: review, ApiConfig(dev_secret=dev_secret))

    def event(
        self,
        method: str,
        path: str,
        *,
        bearer: str | None = None,
        body: Any = None,
        query: str = "",
        claims: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        all_headers = {"content-type": "application/json", **(headers or {})}
        if bearer is not None:
            all_headers["authorization"] = f"Bearer {bearer}"
        raw = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        event = http_api_event(method, path, query=query, headers=all_headers, body=raw)
        if claims is not None:
            event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
        return event

    def send(self, event: dict[str, Any]) -> Answer:
        result = self.app.resolve(event, LambdaContext())  # type: ignore[arg-type]
        text = result.get("body") or ""
        content_type = str((result.get("headers") or {}).get("Content-Type", ""))
        body: Any = json.loads(text) if text and "json" in content_type else text
        return Answer(result["statusCode"], body, result.get("headers") or {})

    def call(self, method: str, path: str, **kwargs: Any) -> Answer:
        return self.send(self.event(method, path, **kwargs))


@contextmanager
def local_server(client: ReviewClient) -> Iterator[str]:
    """A local HTTP server on 127.0.0.1 (ephemeral port) whose requests become API Gateway v2 events
    for the review resolver; yields the base URL."""
    with api_gateway_server(lambda event: client.app.resolve(event, LambdaContext())) as url:  # type: ignore[arg-type]
        yield url


ServiceFactory = Callable[[], ReviewService]
