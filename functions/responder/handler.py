"""Responder Lambda: the executor state machine's last task. Wiring only.

Event: a `ResponderInput` (trace_id, thread_id, phone_number_id, language, timezone, outcomes) whose
`outcomes` (`StepOutcome`s: step_id, result, replayed) are flat or nested per dependency group,
optionally wrapped in `{"Payload": ...}`.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import logger, metrics, tracer
from memo.reply.join import responder_input
from memo.reply.respond import respond
from memo.wiring.reply import ReplyRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    runtime = ReplyRuntime.current()
    request = responder_input(event)
    result = respond(request, sender=runtime.sender, memory=runtime.memory, clock=runtime.clock)
    return result.model_dump(mode="json")
