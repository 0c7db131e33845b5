"""Review Lambda: the operator review API, the reviewer web page and MCP over Streamable HTTP,
behind API Gateway (HTTP API, payload v2, JWT authorizer on every route but the page).

Wiring only: settings read once, the service built on first use, Powertools' resolver from
`caseplatform.review.api` (routes, validation, OpenAPI, error mapping).
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

import boto3
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from caseplatform.review.api import ApiConfig, build_app
from caseplatform.review.approvals import ReviewService
from caseplatform.review.settings import ReviewSettings, build_review
from memo.observability import logger, tracer
from memo.wiring.operator_review import ReviewBridgeSettings, decision_listeners


@lru_cache(maxsize=1)
def settings() -> ReviewSettings:
    return ReviewSettings.from_env(os.environ)


@lru_cache(maxsize=1)
def review() -> ReviewService:
    config = settings()
    client = boto3.client("dynamodb") if config.store == "dynamodb" else None
    # Memo's decision listener: a decided memo_operation case answers its waiting step's task token.
    return build_review(config, client, decision_listeners(ReviewBridgeSettings.from_env(os.environ)))


@lru_cache(maxsize=1)
def app() -> APIGatewayHttpResolver:
    config = settings()
    return build_app(review, ApiConfig(dev_secret=config.dev_jwt_secret, login_url=config.login_url))


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP, clear_state=True)
@tracer.capture_lambda_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app().resolve(event, context)
