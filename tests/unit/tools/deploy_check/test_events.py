"""The events the deploy check sends are the ones the template's triggers would send."""

from __future__ import annotations

import json

import pytest

from tools.deploy_check.events import (
    Route,
    redirect_path,
    request_event,
    responder_event,
    review_submit_event,
    route_for,
    routes,
    rule_events,
)


def _route(key: str, function: str = "ReviewFn", auth: str = "NONE") -> dict[str, object]:
    return {
        "Type": "AWS::ApiGatewayV2::Route",
        "Properties": {
            "RouteKey": key,
            "AuthorizationType": auth,
            "Target": {"Fn::Join": ["", ["integrations/", {"Ref": f"Integration{function}"}]]},
        },
    }


def _integration(function: str) -> dict[str, object]:
    return {
        "Type": "AWS::ApiGatewayV2::Integration",
        "Properties": {"IntegrationUri": {"Fn::GetAtt": [function, "Arn"]}},
    }


TEMPLATE = {
    "Resources": {
        "IntegrationWebhookFn": _integration("WebhookFn"),
        "IntegrationReviewFn": _integration("ReviewFn"),
        "R1": _route("GET /webhook", "WebhookFn"),
        "R2": _route("POST /webhook", "WebhookFn"),
        "R3": _route("GET /review"),
        "R4": _route("GET /review/cases", auth="JWT"),
        "R5": _route("GET /review/cases/{case_id}", auth="JWT"),
        "R6": _route("ANY /files/{proxy+}"),
        "Hourly": {
            "Type": "AWS::Events::Rule",
            "Properties": {"Targets": [{"Arn": {"Fn::GetAtt": ["EscalationFn", "Arn"]}, "Id": "T"}]},
        },
        "Daily": {
            "Type": "AWS::Events::Rule",
            "Properties": {
                "Targets": [
                    {"Arn": {"Fn::GetAtt": ["EscalationFn", "Arn"]}, "Id": "T", "Input": '{"job":"drift"}'}
                ]
            },
        },
        "Other": {
            "Type": "AWS::Events::Rule",
            "Properties": {"Targets": [{"Arn": {"Fn::GetAtt": ["OtherFn", "Arn"]}, "Id": "T"}]},
        },
    }
}
FOUND = routes(TEMPLATE)


def test_each_route_knows_the_function_its_integration_invokes_and_its_authorizer() -> None:
    by_key = {r.key: r for r in FOUND}
    assert by_key["POST /webhook"] == Route("POST /webhook", "WebhookFn", authorized=False)
    assert by_key["GET /review/cases"].authorized and by_key["GET /review/cases"].function == "ReviewFn"


@pytest.mark.parametrize(
    ("method", "path", "key"),
    [
        ("GET", "/webhook", "GET /webhook"),
        ("POST", "/webhook", "POST /webhook"),
        ("GET", "/review/", "GET /review"),  # API Gateway matches with or without the trailing slash
        ("GET", "/review/cases", "GET /review/cases"),  # the literal route beats the variable one
        ("GET", "/review/cases/c-1", "GET /review/cases/{case_id}"),
        ("DELETE", "/files/a/b/c", "ANY /files/{proxy+}"),
    ],
)
def test_a_request_takes_the_route_api_gateway_would_pick(method: str, path: str, key: str) -> None:
    route = route_for(FOUND, method, path)
    assert route is not None and route.key == key


@pytest.mark.parametrize(
    ("method", "path"), [("PUT", "/webhook"), ("GET", "/review/cases/c-1/more"), ("GET", "/reviews")]
)
def test_a_request_no_route_takes_has_none(method: str, path: str) -> None:
    assert route_for(FOUND, method, path) is None


def test_the_authorizers_claims_reach_only_guarded_routes() -> None:
    claims = {"sub": "s-1", "cognito:groups": "[reviewers:memo_operation]"}
    guarded = request_event(route_for(FOUND, "GET", "/review/cases"), "GET", "/review/cases", claims=claims)  # type: ignore[arg-type]
    open_page = request_event(route_for(FOUND, "GET", "/review/"), "GET", "/review/", claims=claims)  # type: ignore[arg-type]
    assert guarded["requestContext"]["authorizer"]["jwt"]["claims"] == claims
    assert guarded["routeKey"] == guarded["requestContext"]["routeKey"] == "GET /review/cases"
    assert "authorizer" not in open_page["requestContext"]
    assert open_page["rawPath"] == "/review/" and open_page["routeKey"] == "GET /review"


def test_each_rule_delivers_its_input_or_the_scheduled_event() -> None:
    delivered = rule_events(TEMPLATE, "EscalationFn", "123456789012", "us-east-1")
    assert len(delivered) == 2
    scheduled = next(e for e in delivered if "detail-type" in e)
    assert scheduled["source"] == "aws.events" and scheduled["resources"] == [
        "arn:aws:events:us-east-1:123456789012:rule/Hourly"
    ]
    assert {"job": "drift"} in delivered


def test_the_responder_gets_the_turns_addressing_and_every_outcome() -> None:
    execution = {
        "trace_id": "t",
        "thread_id": "th",
        "phone_number_id": "p",
        "language": "he",
        "timezone": "Asia/Jerusalem",
        "groups": [[{"step_id": "s1"}]],
    }
    event = responder_event(execution, [{"step_id": "s1"}])
    assert event == {k: v for k, v in execution.items() if k != "groups"} | {"outcomes": [{"step_id": "s1"}]}


def test_the_review_wait_task_carries_the_step_its_ticket_and_a_token() -> None:
    event = review_submit_event({"step_id": "s1"}, 3600)
    assert event["task"]["review"]["timeout_seconds"] == 3600 and event["task"]["step_id"] == "s1"
    assert len(event["task_token"]) > 100
    json.dumps(event)


@pytest.mark.parametrize(
    ("response", "path"),
    [
        ({"statusCode": 301, "headers": {"Location": "/review/"}}, "/review/"),
        (
            {"statusCode": 308, "headers": {"location": "https://a.execute-api.x.amazonaws.com/review/"}},
            "/review/",
        ),
        ({"statusCode": 200, "headers": {"Location": "/review/"}}, None),
        ({"statusCode": 302}, None),
    ],
)
def test_a_redirect_names_the_path_a_browser_follows(response: dict[str, object], path: str | None) -> None:
    assert redirect_path(response) == path
