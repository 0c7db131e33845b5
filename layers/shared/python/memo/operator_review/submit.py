"""The review submit Lambda's logic: a step that policy sends to an operator becomes a case, and its
Step Functions task token is kept server-side until the operator decides.

The state machine invokes the Lambda with `.waitForTaskToken` and waits (TimeoutSecondsPath =
`$.review.timeout_seconds`); the decision listener (`memo.operator_review.listener`, in the review Lambda)
answers the token. The user was already told by the turn that the request went to review.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from caseplatform.service import CaseService
from memo.executor.contracts import StepTask
from memo.observability import logger
from memo.operator_review.cases import submit_case
from memo.operator_review.tokens import TokenStore, WaitingStep


class SubmitRequest(BaseModel):
    """The wait task's payload: the StepTask and the token Step Functions issued for it."""

    model_config = ConfigDict(frozen=True)

    task: StepTask
    task_token: str = Field(min_length=1)


class SubmitResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    case_id: str


def submit_for_review(
    request: SubmitRequest, *, cases: CaseService, tokens: TokenStore, clock: Callable[[], datetime]
) -> SubmitResult:
    task = request.task
    case_id = submit_case(cases, task)
    timeout = task.review.timeout_seconds if task.review is not None else 0
    tokens.put(
        WaitingStep(case_id=case_id, task_token=request.task_token, task=task),
        expires_at=clock() + timedelta(seconds=timeout),
    )
    logger.info(
        "REVIEW_SUBMITTED",
        extra={
            "caseId": case_id,
            "stepId": task.step_id,
            "capability": task.capability,
            "action": task.action,
            "rule": task.review.rule if task.review is not None else None,
            "reason": task.review.reason if task.review is not None else None,
            "policySource": task.review.policy_source if task.review is not None else None,
        },
    )
    return SubmitResult(case_id=case_id)
