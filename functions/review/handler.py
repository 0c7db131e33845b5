"""Review Lambda: the operator review API, the reviewer web page and MCP over Streamable HTTP,
behind API Gateway (HTTP API, payload v2, JWT authorizer on every route but the page).

Wiring only: the runtime's resolver (`caseplatform.review.api`: routes, validation, OpenAPI, error
mapping) answers the event.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, tracer
from memo.wiring.review import ReviewRuntime


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP, clear_state=True)
@tracer.capture_lambda_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return ReviewRuntime.current().app.resolve(event, context)
