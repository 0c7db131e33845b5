"""The events each function's trigger sends, built from the synthesized template where it says what
they are: API Gateway's route (and whether its JWT authorizer runs) for a request, the EventBridge
rule's target input for a scheduled run, the state machine's task payloads for the executor, the
responder and the review submit function.

API Gateway HTTP API matches a request path with or without its trailing slash (`/review/` takes
the `GET /review` route) and hands the function the path as requested.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memo.local.events import http_api_event

ROUTE_TYPE = "AWS::ApiGatewayV2::Route"
INTEGRATION_TYPE = "AWS::ApiGatewayV2::Integration"
RULE_TYPE = "AWS::Events::Rule"
REDIRECTS = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True)
class Route:
    key: str  # "GET /review/cases/{case_id}"
    function: str  # the logical id of the function its integration invokes
    authorized: bool  # a JWT authorizer runs before the function

    @property
    def method(self) -> str:
        return self.key.split(" ", 1)[0]

    @property
    def path(self) -> str:
        return self.key.split(" ", 1)[1] if " " in self.key else self.key

    def matches(self, method: str, path: str) -> bool:
        if self.method not in (method, "ANY"):
            return False
        wanted = [part for part in path.split("/") if part]
        pattern = [part for part in self.path.split("/") if part]
        if pattern and pattern[-1].endswith("+}"):
            return len(wanted) >= len(pattern) and _same(wanted[: len(pattern) - 1], pattern[:-1])
        return len(wanted) == len(pattern) and _same(wanted, pattern)


def _same(parts: list[str], pattern: list[str]) -> bool:
    return all(p.startswith("{") or p == w for w, p in zip(parts, pattern, strict=True))


def _integration_function(integration: Mapping[str, Any]) -> str:
    uri = integration["Properties"].get("IntegrationUri")
    if isinstance(uri, dict) and "Fn::GetAtt" in uri:
        return str(uri["Fn::GetAtt"][0])
    return ""


def routes(template: Mapping[str, Any]) -> list[Route]:
    """The HTTP API's routes, each with the function its integration invokes."""
    resources: Mapping[str, Any] = template["Resources"]
    found = []
    for resource in resources.values():
        if resource.get("Type") != ROUTE_TYPE:
            continue
        properties = resource["Properties"]
        target = json.dumps(properties.get("Target"))
        integration = next(
            (
                lid
                for lid, r in resources.items()
                if r.get("Type") == INTEGRATION_TYPE and f'"{lid}"' in target
            ),
            None,
        )
        function = _integration_function(resources[integration]) if integration else ""
        authorized = properties.get("AuthorizationType", "NONE") != "NONE"
        found.append(Route(str(properties["RouteKey"]), function, authorized))
    return found


def route_for(found: list[Route], method: str, path: str) -> Route | None:
    """The route API Gateway picks: the most specific match (fewest path variables), else `$default`."""
    matching = [r for r in found if r.key != "$default" and r.matches(method, path.rstrip("/") or "/")]
    if matching:
        return min(matching, key=lambda r: (r.path.count("{"), r.method == "ANY"))
    return next((r for r in found if r.key == "$default"), None)


def request_event(
    route: Route,
    method: str,
    path: str,
    *,
    query: str = "",
    headers: Mapping[str, str] | None = None,
    body: bytes = b"",
    claims: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The HTTP API (payload 2.0) event of a request on `route`, with the authorizer's claims when a
    JWT authorizer guards it."""
    event = http_api_event(method, path, query=query, headers=dict(headers or {}), body=body)
    event["routeKey"] = event["requestContext"]["routeKey"] = route.key
    if route.authorized:
        event["requestContext"]["authorizer"] = {"jwt": {"claims": dict(claims or {}), "scopes": None}}
    return event


def reviewer_claims(group: str) -> dict[str, str]:
    """An operator's Cognito ID token claims as API Gateway's JWT authorizer passes them (strings;
    groups flattened as `[a b]`)."""
    now = int(time.time())
    return {
        "sub": str(uuid.uuid4()),
        "email": "reviewer@example.com",
        "name": "Deploy Check",
        "cognito:groups": f"[{group}]",
        "token_use": "id",
        "iat": str(now),
        "exp": str(now + 3600),
    }


def rule_events(
    template: Mapping[str, Any], function: str, account: str, region: str
) -> list[dict[str, Any]]:
    """What each EventBridge rule targeting `function` delivers: its target's Input, else the
    scheduled event."""
    events = []
    for logical_id, resource in template["Resources"].items():
        if resource.get("Type") != RULE_TYPE:
            continue
        for target in resource["Properties"].get("Targets", []):
            arn = target.get("Arn")
            if not (isinstance(arn, dict) and arn.get("Fn::GetAtt", [None])[0] == function):
                continue
            if isinstance(target.get("Input"), str):
                events.append(json.loads(target["Input"]))
            else:
                events.append(
                    scheduled_event(f"arn:aws:events:{region}:{account}:rule/{logical_id}", account, region)
                )
    return events


def scheduled_event(rule_arn: str, account: str, region: str) -> dict[str, Any]:
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": account,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "region": region,
        "resources": [rule_arn],
        "detail": {},
    }


def sqs_records(messages: list[Mapping[str, Any]], queue_arn: str, region: str) -> dict[str, Any]:
    """The batch Lambda's SQS event source mapping delivers from `ReceiveMessage` results."""
    from memo.local.events import sqs_event

    return sqs_event([dict(m) for m in messages], queue_arn, region)


def responder_event(execution_input: Mapping[str, Any], outcomes: list[Any]) -> dict[str, Any]:
    """The Respond task's payload (the ASL's Parameters): the turn's addressing and every outcome."""
    keys = ("trace_id", "thread_id", "phone_number_id", "language", "timezone")
    return {**{key: execution_input[key] for key in keys}, "outcomes": outcomes}


def review_submit_event(task: Mapping[str, Any], timeout_seconds: int) -> dict[str, Any]:
    """The AwaitReview task's payload: the step (with the review ticket the policy put on it) and the
    task token Step Functions issued."""
    ticket = {"rule": "deploy-check", "priority": "normal", "timeout_seconds": timeout_seconds}
    return {"task": {**task, "review": ticket}, "task_token": "AQCEAAAAKgAAAA" + uuid.uuid4().hex * 8}


def redirect_path(response: Mapping[str, Any]) -> str | None:
    """The path a redirect answer sends the browser to, if it is one."""
    if response.get("statusCode") not in REDIRECTS:
        return None
    headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
    location = str(headers.get("location", ""))
    if location.startswith("https://"):
        location = "/" + location.split("/", 3)[3] if location.count("/") >= 3 else "/"
    return location or None
