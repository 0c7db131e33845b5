"""The user withdraws a request that waits for an operator ("cancel that", "בטל").

When a turn starts an execution with steps the review policy sends to an operator, it remembers the
wait on the user's thread (`ReviewWaits`: the turn's traceId, the waiting steps, until when the
operator may decide). A cancel word with no question of Memo's open then withdraws the newest wait,
in two halves:

- the turn (`Withdrawals`, in the webhook Lambda): each waiting step's case (found by its `memo_step`
  ref, `memo.operator_review.cases.step_ref`) gets a `rejected` decision recorded by Memo as the
  requester ("Withdrawn by the user"), idempotent per step (request id
  `memo:withdraw:<traceId>:<stepId>`), and the case is handed to the review Lambda
  (`WithdrawalNotices`: the withdrawals queue). The webhook never sees a task token and may answer none;
- the review Lambda (`WithdrawnSteps`, the only function allowed to answer task tokens): the step's
  task token (`TokenStore`) is failed with `REVIEW_WITHDRAWN`, once the case's history shows the
  withdrawal: the state machine ends the step as withdrawn (never run) and the responder tells the
  user, in their language;
- an operator who already decided wins: the user hears the request can no longer be withdrawn;
- a case not submitted yet (the submit Lambda still starting) is not withdrawn and the wait is kept:
  the user is asked to try again in a moment.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

from memo.capabilities.common import say
from memo.observability import logger
from memo.operator_review.cases import STEP_REF_KEY, STEP_REF_TYPE
from memo.operator_review.tokens import TaskAnswers, TaskGone, TokenStore
from memo.operator_review.waits import ReviewWait, ReviewWaits
from memo.text.language import Language

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
    from aws_lambda_powertools.utilities.typing import LambdaContext

    from caseplatform.model import Event
    from caseplatform.service import CaseService

REVIEW_WITHDRAWN = "REVIEW_WITHDRAWN"
WITHDRAWN_NOTES = "Withdrawn by the user before a decision."
WITHDRAW_REQUEST_PREFIX = "memo:withdraw:"

WithdrawResult = Literal["withdrawn", "already_decided", "not_submitted_yet"]
WaitEnded = Literal["ended", "token_gone", "no_token", "not_withdrawn"]


class WithdrawalNotices(Protocol):
    """Hands a withdrawn case to the review Lambda (`memo.aws.queue.SqsWithdrawalNotices`)."""

    def withdrawn(self, case_id: str) -> None: ...


class CaseHistory(Protocol):
    """What `WithdrawnSteps` reads of the case platform (`caseplatform.service.CaseService`)."""

    def get_case_history(self, case_id: str) -> list[Event]: ...


class Withdrawals:
    """The turn's half: the wait's cases rejected as the requester, then handed to the review Lambda."""

    def __init__(
        self,
        *,
        waits: ReviewWaits,
        cases: Callable[[], CaseService],
        notices: Callable[[], WithdrawalNotices],
    ) -> None:
        self._waits = waits
        self._cases = cases  # built on first use: only a withdrawal needs them
        self._notices = notices

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
        case_id, notices = found[0], self._notices()  # unconfigured: refused before the case changes
        try:
            # A redelivered turn records the same request again: the platform replays it.
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
                request_id=WITHDRAW_REQUEST_PREFIX + operation,
            )
        except AlreadyTerminal:
            logger.info("REVIEW_WITHDRAW_TOO_LATE", extra={"caseId": case_id, "stepId": step_id})
            return "already_decided"
        # A failed hand-over fails the turn before its write: the redelivery records (replays) and
        # hands it over again.
        notices.withdrawn(case_id)
        logger.info("REVIEW_WITHDRAWN", extra={"caseId": case_id, "stepId": step_id})
        return "withdrawn"


class WithdrawnSteps:
    """The review Lambda's half: the waiting step of a case the user withdrew fails as REVIEW_WITHDRAWN.

    Idempotent: the token is deleted once answered, so a notice delivered twice finds none; a token
    Step Functions no longer knows (`TaskGone`) is logged and deleted. A case whose history holds no
    withdrawal is left alone (a notice answers only what the case platform recorded)."""

    def __init__(self, *, cases: CaseHistory, tokens: TokenStore, tasks: TaskAnswers) -> None:
        self._cases = cases
        self._tokens = tokens
        self._tasks = tasks

    def end_wait(self, case_id: str) -> WaitEnded:
        fields: dict[str, object] = {"caseId": case_id}
        if not any(_is_withdrawal(event) for event in self._cases.get_case_history(case_id)):
            logger.warning("REVIEW_WITHDRAWAL_NOT_RECORDED", extra=fields)
            return "not_withdrawn"
        waiting = self._tokens.get(case_id)
        if waiting is None:
            logger.info("REVIEW_WITHDRAWN_NO_TOKEN", extra=fields)
            return "no_token"
        ended: WaitEnded = "ended"
        try:
            self._tasks.fail(waiting.task_token, error=REVIEW_WITHDRAWN, cause=WITHDRAWN_NOTES)
        except TaskGone as exc:
            logger.warning("REVIEW_TOKEN_GONE", extra={**fields, "error": exc.reason})
            ended = "token_gone"
        self._tokens.delete(case_id)
        logger.info("REVIEW_WAIT_WITHDRAWN", extra={**fields, "stepId": waiting.task.step_id})
        return ended


def end_withdrawn_waits(
    event: dict[str, Any], context: LambdaContext, steps: WithdrawnSteps
) -> dict[str, Any]:
    """A batch of the withdrawals queue (`{"case_id": ...}` each, `SqsWithdrawalNotices`): each case's
    waiting step ended; a record that failed is reported for another receive (partial batch response)."""
    from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response

    def end(record: SQSRecord) -> None:
        steps.end_wait(notice_case_id(record.body))

    return dict(
        process_partial_response(
            event=event,
            record_handler=end,
            processor=BatchProcessor(event_type=EventType.SQS),
            context=context,
        )
    )


def notice_case_id(body: str) -> str:
    """The case id a withdrawal notice names; `ValueError` when it names none."""
    notice = json.loads(body)
    case_id = notice.get("case_id") if isinstance(notice, dict) else None
    if not isinstance(case_id, str) or not case_id:
        raise ValueError("a withdrawal notice names no case")
    return case_id


def _is_withdrawal(event: Event) -> bool:
    return (
        event.event_type == "decision_recorded"
        and event.decision_outcome == "rejected"
        and (event.request_id or "").startswith(WITHDRAW_REQUEST_PREFIX)
    )


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
