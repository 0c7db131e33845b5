"""Review submit Lambda: the `.waitForTaskToken` task of a step that policy sends to an operator.

Wiring only: parse `{task, task_token}`, bind the turn's log keys, submit the case and keep the
token server-side (`memo.operator_review.submit`). The state machine then waits for the operator's decision,
which the review Lambda's listener turns into SendTaskSuccess / SendTaskFailure.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from memo.observability import bind_turn, count, logger, metrics, tracer, unbind_turn
from memo.operator_review.submit import SubmitRequest, submit_for_review
from memo.wiring.review_submit import ReviewSubmitRuntime


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request, runtime = SubmitRequest.model_validate(event), ReviewSubmitRuntime.current()
    task = request.task
    bind_turn(task.trace_id, task.thread_id, stepId=task.step_id)
    try:
        result = submit_for_review(request, cases=runtime.cases, tokens=runtime.tokens, clock=runtime.clock)
    finally:
        unbind_turn()
    count("ReviewCasesSubmitted")
    return result.model_dump(mode="json")
