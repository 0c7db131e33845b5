"""Webhook Lambda: API Gateway HTTP API (GET/POST /webhook) and the SQS FIFO turn path.

Wiring only. The ingress path (`memo.wiring.ingress`: settings, signature, parse, enqueue) runs on
the standard library, boto3 and Powertools' Logger and Metrics: a cold start that Meta waits on
imports nothing more. The turn path (its pydantic settings and models, the planner, the X-Ray SDK) is
imported by the first SQS batch and traced with X-Ray subsegments; the ingress path is not traced
(Lambda's own segment covers it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memo.observability import logger, metrics
from memo.wiring.ingress import IngressRuntime

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext


@logger.inject_lambda_context(clear_state=True)
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    records = event.get("Records")
    if isinstance(records, list) and records and records[0].get("eventSource") == "aws:sqs":
        from memo.observability import get_tracer
        from memo.wiring.webhook import WebhookRuntime

        traced = get_tracer().capture_lambda_handler(WebhookRuntime.current().turns.batch)
        return traced(event, context)
    return IngressRuntime.current().http(event)
