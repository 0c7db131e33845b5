"""Webhook Lambda: API Gateway HTTP API (GET/POST /webhook) and the SQS FIFO turn path.

Wiring only. The HTTP routes and the turn path are imported on first use, so each path pays only
for its own imports at cold start.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, metrics, tracer
from memo.runtime import WebhookRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = WebhookRuntime.current()
    records = event.get("Records")
    if isinstance(records, list) and records and records[0].get("eventSource") == "aws:sqs":
        from memo.turn_path import processor_for

        return processor_for(runtime).batch(event, context)

    from memo.http_webhook import app_for

    return app_for(runtime).resolve(event, context)
