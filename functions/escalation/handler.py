"""Escalation Lambda: run by an EventBridge schedule, it escalates needs_clarification cases past
their adapter's SLA on the DynamoDB case store and notifies the escalation topic. With
`{"job": "drift"}` (a daily schedule) it checks the case projection for drift, with
`{"job": "rebuild"}` (run by hand) it repairs it, with `{"job": "retention"}` (a daily schedule) it
applies the adapters' retention to decided cases; each resumes from the `cursor` a run answered
(the scheduled retention run, without one, from where the last run stopped).
Wiring only."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, metrics, tracer
from memo.operator_review.escalation import escalate_overdue, run_job
from memo.wiring.escalation import EscalationRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = EscalationRuntime.current()
    settings = runtime.settings
    if "job" in event:
        return run_job(
            runtime.cases,
            event,
            archive=runtime.archive,
            projection_max_cases=settings.projection_max_cases,
            retention_max_cases=settings.retention_max_cases,
            time_left=lambda: context.get_remaining_time_in_millis() > settings.projection_time_margin_ms,
            cursors=runtime.job_cursors,
        )
    return escalate_overdue(
        runtime.cases, max_cases=settings.max_cases, notifier=runtime.notifier, link=runtime.link
    )
