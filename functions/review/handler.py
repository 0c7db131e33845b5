"""Review Lambda: the operator review API, the reviewer web page and MCP over Streamable HTTP,
behind API Gateway (HTTP API, payload v2, JWT authorizer on every route but the page); and the
withdrawals queue (SQS), on which the turn hands over a request the user withdrew.

Wiring only: the runtime's resolver (`caseplatform.review.api`: routes, validation, OpenAPI, error
mapping) answers an HTTP event; a batch of the withdrawals queue ends each withdrawn step's wait
(`memo.operator_review.withdraw.end_withdrawn_waits`).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, tracer
from memo.operator_review.withdraw import end_withdrawn_waits
from memo.wiring.review import ReviewRuntime


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP, clear_state=True)
@tracer.capture_lambda_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    records = event.get("Records")
    if isinstance(records, list) and records and records[0].get("eventSource") == "aws:sqs":
        return end_withdrawn_waits(event, context, ReviewRuntime.current().withdrawn_steps)
    return ReviewRuntime.current().app.resolve(event, context)
