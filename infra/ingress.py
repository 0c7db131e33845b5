"""The public webhook: an API Gateway HTTP API whose two routes go to the webhook function.

Meta calls `GET /webhook` (verification handshake) and `POST /webhook` (signed notifications). The
routes cannot use an API Gateway authorizer: Meta sends no token we could check there. Requests are
authenticated in the function instead (verify token on GET, X-Hub-Signature-256 HMAC on POST).
"""

from __future__ import annotations

import json

import jsii
from aws_cdk import Acknowledgment, Validations
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

WEBHOOK_PATH = "/webhook"

# HTTP API access log, one JSON object per request. No query string: it carries hub.verify_token.
ACCESS_LOG_FORMAT = json.dumps(
    {
        "requestId": "$context.requestId",
        "requestTime": "$context.requestTime",
        "sourceIp": "$context.identity.sourceIp",
        "userAgent": "$context.identity.userAgent",
        "routeKey": "$context.routeKey",
        "status": "$context.status",
        "protocol": "$context.protocol",
        "responseLength": "$context.responseLength",
        "responseLatency": "$context.responseLatency",
        "integrationLatency": "$context.integrationLatency",
        "integrationStatus": "$context.integrationStatus",
        "integrationError": "$context.integrationErrorMessage",
        "error": "$context.error.message",
    }
)


@jsii.implements(apigwv2.IAccessLogSettings)
class JsonAccessLog:
    """Access logs of a stage: `ACCESS_LOG_FORMAT` into a CloudWatch log group."""

    def __init__(self, log_group: logs.ILogGroup) -> None:
        self._destination = apigwv2.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigwv2.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigw.AccessLogFormat:
        return apigw.AccessLogFormat.custom(ACCESS_LOG_FORMAT)


class WebhookIngress(Construct):
    """HTTP API (payload format 2.0) with GET and POST /webhook, access logging and throttling."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        handler: lambda_.IFunction,
        log_retention: logs.RetentionDays,
        throttle_rate_limit: int,
        throttle_burst_limit: int,
    ) -> None:
        super().__init__(scope, construct_id)
        self.api = apigwv2.HttpApi(
            self,
            "Api",
            description="Memo WhatsApp webhook",
            create_default_stage=False,
        )
        self.access_logs = logs.LogGroup(self, "AccessLogs", retention=log_retention)
        self.stage = apigwv2.HttpStage(
            self,
            "DefaultStage",
            http_api=self.api,
            auto_deploy=True,
            throttle=apigwv2.ThrottleSettings(
                rate_limit=throttle_rate_limit, burst_limit=throttle_burst_limit
            ),
            access_log_settings=JsonAccessLog(self.access_logs),
        )
        integration = integrations.HttpLambdaIntegration(
            "Webhook",
            handler,
            payload_format_version=apigwv2.PayloadFormatVersion.VERSION_2_0,
        )
        self.routes = self.api.add_routes(
            path=WEBHOOK_PATH,
            methods=[apigwv2.HttpMethod.GET, apigwv2.HttpMethod.POST],
            integration=integration,
        )
        for route in self.routes:
            Validations.of(route).acknowledge(
                Acknowledgment(
                    id="AwsSolutions-APIG4",
                    reason="Meta's webhook calls carry no credential an authorizer could check; the function "
                    "authenticates them (verify token on GET, X-Hub-Signature-256 HMAC on POST).",
                )
            )

    @property
    def webhook_url(self) -> str:
        """The callback URL to register with Meta (the `$default` stage URL ends with '/')."""
        return self.stage.url + WEBHOOK_PATH.lstrip("/")
