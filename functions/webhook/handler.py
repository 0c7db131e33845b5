"""Webhook Lambda: API Gateway HTTP API (GET/POST /webhook) and the SQS FIFO turn path.

Wiring only. The HTTP routes and the turn path are imported on first use, so each path pays only
for its own imports at cold start. The turn path is traced with X-Ray subsegments; the ingress
path is not (Lambda's own segment covers it), so Meta's 200 never waits for the X-Ray SDK import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memo.observability import get_tracer, logger, metrics
from memo.wiring.webhook import WebhookRuntime

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = WebhookRuntime.current()
    records = event.get("Records")
    if isinstance(records, list) and records and records[0].get("eventSource") == "aws:sqs":
        traced = get_tracer().capture_lambda_handler(runtime.turns.batch)
        return traced(event, context)
    return runtime.http_app.resolve(event, context)
