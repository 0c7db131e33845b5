"""Escalation Lambda: run by an EventBridge schedule, it escalates needs_clarification cases past
their adapter's SLA on the DynamoDB case store. Wiring only."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, tracer
from memo.operator_review.escalation import escalate_overdue
from memo.wiring.escalation import EscalationRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = EscalationRuntime.current()
    return escalate_overdue(runtime.cases, max_cases=runtime.settings.max_cases)
