"""Escalation Lambda: run by an EventBridge schedule, it escalates needs_clarification cases past
their adapter's SLA on the DynamoDB case store and notifies the escalation topic; with
`{"job": "drift"}` (a daily schedule) it checks the case projection for drift. Wiring only."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, metrics, tracer
from memo.operator_review.escalation import check_projection, escalate_overdue
from memo.wiring.escalation import EscalationRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = EscalationRuntime.current()
    if event.get("job") == "drift":
        return check_projection(runtime.cases)
    return escalate_overdue(
        runtime.cases,
        max_cases=runtime.settings.max_cases,
        notifier=runtime.notifier,
        link=runtime.link,
    )
