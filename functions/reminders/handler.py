"""Reminders Lambda: the EventBridge Scheduler target of every reminder. Wiring only.

Event: the schedule's target input, `{"threadId": "...", "reminderId": "..."}`.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, metrics, tracer
from memo.reminders.deliver import deliver
from memo.wiring.reminders import RemindersRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = RemindersRuntime.current()
    settings = runtime.settings
    result = deliver(
        event,
        items=runtime.items,
        conversation=runtime.conversation,
        sender=runtime.sender,
        clock=runtime.clock,
        template_name=settings.template_name,
        template_language=settings.template_languages,
        default_phone_number_id=settings.default_phone_number_id,
        unconfirmed=runtime.unconfirmed,
        leftovers=runtime.leftovers,
    )
    return result.model_dump(mode="json")
