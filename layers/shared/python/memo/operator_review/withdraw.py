"""The user withdraws a request that waits for an operator ("cancel that", "בטל").

When a turn starts an execution with steps the review policy sends to an operator, it remembers the
wait on the user's thread (`ReviewWaits`: the turn's traceId, the waiting steps, until when the
operator may decide). A cancel word with no question of Memo's open then withdraws the newest wait:

- each waiting step's case (found by its `memo_step` ref, `memo.operator_review.cases.step_ref`) gets
  a `rejected` decision recorded by Memo as the requester ("Withdrawn by the user"), idempotent per
  step (request id `memo:withdraw:<traceId>:<stepId>`);
- the step's task token (`TokenStore`) is failed with `REVIEW_WITHDRAWN`: the state machine ends the
  step as withdrawn (never run) and the responder tells the user, in their language;
- an operator who already decided wins: the user hears the request can no longer be withdrawn;
- a case not submitted yet (the submit Lambda still starting) is not withdrawn and the wait is kept:
  the user is asked to try again in a moment.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from memo.capabilities.common import say
from memo.observability import logger
from memo.operator_review.cases import STEP_REF_KEY, STEP_REF_TYPE
from memo.operator_review.tokens import TaskAnswers, TaskGone, TokenStore
from memo.operator_review.waits import ReviewWait, ReviewWaits
from memo.text.language import Language

if TYPE_CHECKING:
    from caseplatform.service import CaseService

REVIEW_WITHDRAWN = "REVIEW_WITHDRAWN"
WITHDRAWN_NOTES = "Withdrawn by the user before a decision."

WithdrawResult = Literal["withdrawn", "already_decided", "not_submitted_yet"]


class Withdrawals:
    def __init__(
        self,
        *,
        waits: ReviewWaits,
        cases: Callable[[], CaseService],
        tokens: Callable[[], TokenStore],
        tasks: Callable[[], TaskAnswers],
    ) -> None:
        self._waits = waits
        self._cases = cases  # built on first use: only a withdrawal needs them
        self._tokens = tokens
        self._tasks = tasks

    def remember(self, thread_id: str, wait: ReviewWait) -> None:
        self._waits.remember(thread_id, wait)

    def waiting(self, thread_id: str, *, now: datetime) -> ReviewWait | None:
        live = self._waits.live(thread_id, now=now)
        return live[0] if live else None

    def withdraw(self, thread_id: str, wait: ReviewWait) -> WithdrawResult:
        results = [self._withdraw_step(wait.trace_id, step_id) for step_id in wait.step_ids]
        if "not_submitted_yet" in results:
            return "not_submitted_yet"  # keep the wait: the user may try again in a moment
        self._waits.forget(thread_id, wait.trace_id)
        return "withdrawn" if "withdrawn" in results else "already_decided"

    def _withdraw_step(self, trace_id: str, step_id: str) -> WithdrawResult:
        from caseplatform.errors import AlreadyTerminal  # only a withdrawal needs the case platform

        cases = self._cases()
        operation = f"{trace_id}:{step_id}"
        found = cases.cases_by_ref(STEP_REF_TYPE, STEP_REF_KEY, operation, limit=1).items
        if not found:
            logger.info("REVIEW_WITHDRAW_NOT_SUBMITTED", extra={"stepId": step_id})
            return "not_submitted_yet"
        case_id = found[0]
        try:
            cases.record_decision(
                case_id=case_id,
                decision="rejected",
                notes=WITHDRAWN_NOTES,
                actor={
                    "kind": "agent",
                    "name": "Memo",
                    "role": "requester",
                    "id": f"memo:requester:{trace_id}",
                },
                request_id=f"memo:withdraw:{operation}",
            )
        except AlreadyTerminal:
            logger.info("REVIEW_WITHDRAW_TOO_LATE", extra={"caseId": case_id, "stepId": step_id})
            return "already_decided"
        tokens = self._tokens()
        waiting = tokens.get(case_id)
        if waiting is not None:
            try:
                self._tasks().fail(waiting.task_token, error=REVIEW_WITHDRAWN, cause=WITHDRAWN_NOTES)
            except TaskGone as exc:
                logger.warning("REVIEW_TOKEN_GONE", extra={"caseId": case_id, "error": exc.reason})
            tokens.delete(case_id)
        logger.info("REVIEW_WITHDRAWN", extra={"caseId": case_id, "stepId": step_id})
        return "withdrawn"


def withdraw_reply(result: WithdrawResult, language: Language) -> str | None:
    """What the turn says at once; None when the responder tells (the withdrawn step's outcome)."""
    if result == "withdrawn":
        return None
    if result == "already_decided":
        return say(
            language,
            "An operator already decided on that request, so it can't be withdrawn anymore.",
            "מפעיל כבר החליט על הבקשה הזאת, אז כבר אי אפשר לבטל אותה.",
        )
    return say(
        language,
        "I'm still handing that request to an operator — send “cancel” again in a moment.",
        "אני עדיין מעביר את הבקשה למפעיל — כתוב „בטל” שוב בעוד רגע.",
    )
