"""Reminders Lambda: the EventBridge Scheduler target of every reminder. Wiring only.

Event: the schedule's target input, `{"threadId": "...", "reminderId": "..."}`.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, metrics, tracer
from memo.reminders.deliver import deliver
from memo.wiring.reminders import runtime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    wiring = runtime()
    settings = wiring.settings
    result = deliver(
        event,
        items=wiring.items,
        conversation=wiring.conversation,
        sender=wiring.sender,
        clock=wiring.clock,
        template_name=settings.template_name,
        template_language=settings.template_languages,
        default_phone_number_id=settings.default_phone_number_id,
    )
    return result.model_dump(mode="json")
