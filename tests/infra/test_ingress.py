"""The webhook's HTTP API: routes, access logs, throttling and the URL output."""

from __future__ import annotations

import json

from infra.review import AUTHORIZED_ROUTES, PUBLIC_ROUTES

from .conftest import Synthesized
from .template_queries import arn, only, ref


def test_http_api_routes_get_and_post_webhook_to_the_webhook_function(synthesized: Synthesized) -> None:
    function_id = synthesized.logical_id(synthesized.stack.webhook.function)
    synthesized.template.resource_count_is("AWS::ApiGatewayV2::Api", 1)
    synthesized.template.has_resource_properties("AWS::ApiGatewayV2::Api", {"ProtocolType": "HTTP"})
    integrations = synthesized.resources("AWS::ApiGatewayV2::Integration")
    # One integration per function behind the API: the webhook's and the review function's.
    assert {json.dumps(i["Properties"]["IntegrationUri"], sort_keys=True) for i in integrations.values()} == {
        json.dumps(arn(function_id), sort_keys=True),
        json.dumps(arn(synthesized.logical_id(synthesized.stack.review.function.function)), sort_keys=True),
    }
    integration_id, integration = only(
        {k: i for k, i in integrations.items() if i["Properties"]["IntegrationUri"] == arn(function_id)}
    )
    assert integration["Properties"]["IntegrationType"] == "AWS_PROXY"
    assert integration["Properties"]["PayloadFormatVersion"] == "2.0"

    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in synthesized.resources("AWS::ApiGatewayV2::Route").values()
    }
    review_routes = {f"{method} {path}" for method, path in (*PUBLIC_ROUTES, *AUTHORIZED_ROUTES)}
    assert set(routes) == {"GET /webhook", "POST /webhook", *review_routes}
    webhook_target = {"Fn::Join": ["", ["integrations/", ref(integration_id)]]}
    assert {key for key, route in routes.items() if route["Target"] == webhook_target} == {
        "GET /webhook",
        "POST /webhook",
    }
    for key in ("GET /webhook", "POST /webhook"):
        assert routes[key].get("AuthorizationType", "NONE") == "NONE"  # Meta sends no token

    permissions = [
        p
        for p in synthesized.resources("AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == arn(function_id)
    ]
    assert permissions
    assert {p["Properties"]["Principal"] for p in permissions} == {"apigateway.amazonaws.com"}


def test_http_api_stage_logs_access_as_json_and_throttles(synthesized: Synthesized) -> None:
    _, stage = only(synthesized.resources("AWS::ApiGatewayV2::Stage"))
    props = stage["Properties"]
    assert props["StageName"] == "$default"
    assert props["AutoDeploy"] is True
    log_format = json.loads(props["AccessLogSettings"]["Format"])
    assert log_format["requestId"] == "$context.requestId"
    assert log_format["routeKey"] == "$context.routeKey"
    assert not any("querystring" in v.lower() for v in log_format.values()), (
        "hub.verify_token would be logged"
    )
    log_group_id = props["AccessLogSettings"]["DestinationArn"]["Fn::GetAtt"][0]
    assert synthesized.template_json["Resources"][log_group_id]["Properties"]["RetentionInDays"] == 30
    assert props["DefaultRouteSettings"] == {"ThrottlingBurstLimit": 100, "ThrottlingRateLimit": 50}


def test_webhook_url_output_points_at_the_webhook_route(synthesized: Synthesized) -> None:
    api_id = synthesized.logical_id(synthesized.stack.ingress.api)
    output = synthesized.template_json["Outputs"]["WebhookUrl"]["Value"]
    assert output == {
        "Fn::Join": [
            "",
            [
                "https://",
                ref(api_id),
                ".execute-api.",
                ref("AWS::Region"),
                ".",
                ref("AWS::URLSuffix"),
                "/webhook",
            ],
        ]
    }
