"""The bridge from "case decided" to Step Functions: a `CaseListener` of the case platform.

Runs in the review Lambda (the only function allowed to answer task tokens). On a
`decision_recorded` event of a `memo_operation` case it looks up the waiting step's token by case id:

- approved -> SendTaskSuccess with the StepTask to run: the approved args (the operator's edited
  `args`, or the submitted ones), their hash, and an `Approval` bound to that hash, approved by the
  operator principal, valid for the policy's approval TTL. The executor then runs the step once
  (ledger) and its drift check holds against exactly what the operator approved;
- rejected -> SendTaskFailure(error REVIEW_REJECTED, cause = the operator's reason);
- the token is deleted once answered. A token Step Functions no longer knows (the wait timed out,
  the execution ended: `TaskGone`) is logged and deleted, never retried; a missing token item is
  logged. Other errors propagate: the decision is recorded, and the reviewer's retry (same
  request_id) replays it and notifies again. The Step Functions adapter is
  `memo.aws.stepfunctions.StepFunctionsTasks`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from caseplatform.model import Case, Event
from memo.executor.contracts import Approval, StepTask, args_hash
from memo.observability import logger
from memo.operator_review.cases import ADAPTER_ID
from memo.operator_review.policy import item_count
from memo.operator_review.tokens import TaskAnswers, TaskGone, TokenStore
from memo.replies import Reply
from memo.whatsapp.sender import Sender, WhatsAppSendError

REVIEW_REJECTED = "REVIEW_REJECTED"
MAX_CAUSE_CHARS = 32_000


def operator_principal(event: Event) -> str:
    return f"operator:{event.actor.id or event.actor.name}"


def approved_task(
    waiting: StepTask, case: Case, event: Event, *, now: datetime, approval_ttl_seconds: int
) -> StepTask:
    payload = event.approved_payload or case.payload
    args = payload.get("args")
    approved_args: dict[str, Any] = dict(args) if isinstance(args, dict) else dict(waiting.args)
    digest = args_hash(approved_args)
    approval = Approval(
        hitl_id=case.case_id,
        args_hash=digest,
        expires_at=now + timedelta(seconds=approval_ttl_seconds),
        approved_by=operator_principal(event),
        # The person's question still pins the items: one they changed since is left alone.
        asked_at=waiting.approval.asked_at if waiting.approval is not None else None,
    )
    return waiting.model_copy(
        update={"args": approved_args, "args_hash": digest, "approval": approval, "review": None}
    )


def changed_by_operator_text(original: StepTask, approved: StepTask) -> str:
    """What the user is told when an operator changed the request before it ran: what now runs."""
    before, after = item_count(original.args), item_count(approved.args)
    noun = original.capability
    verb = original.action.split("_")[0]  # delete_all -> delete: what runs is the narrowed set
    if original.language == "he":
        if before != after:
            return f"נציג שינה את הבקשה שלך לפני הביצוע: אבצע {verb} על {after} מתוך {before} ({noun})."
        return f"נציג שינה את הבקשה שלך לפני הביצוע ({noun}, {original.action}); התוצאה תגיע מיד."
    if before != after:
        return (
            f"An operator changed your request before it ran: I'll {verb} {after} of the {before} {noun} "
            "you asked about."
        )
    return (
        f"An operator changed the details of your request ({noun}, {original.action.replace('_', ' ')}) "
        "before it ran; the result follows."
    )


class TaskTokenBridge:
    def __init__(
        self,
        *,
        tokens: TokenStore,
        tasks: TaskAnswers,
        clock: Callable[[], datetime],
        approval_ttl_seconds: int,
        sender: Callable[[], Sender] | None = None,
    ) -> None:
        """`sender`: tells the WhatsApp user when an operator's edit changed what runs."""
        self._tokens = tokens
        self._tasks = tasks
        self._clock = clock
        self._ttl = approval_ttl_seconds
        self._sender = sender

    def on_event(self, case: Case, event: Event) -> None:
        if case.adapter_id != ADAPTER_ID or event.event_type != "decision_recorded":
            return
        fields: dict[str, object] = {"caseId": case.case_id, "decision": event.decision_outcome}
        waiting = self._tokens.get(case.case_id)
        if waiting is None:
            logger.warning("REVIEW_TOKEN_MISSING", extra=fields)
            return
        try:
            if event.decision_outcome == "approved":
                task = approved_task(
                    waiting.task, case, event, now=self._clock(), approval_ttl_seconds=self._ttl
                )
                self._tasks.succeed(waiting.task_token, task.model_dump_json(exclude_none=True))
                fields["edited"] = task.args_hash != waiting.task.args_hash
                if fields["edited"]:
                    self._tell_user(waiting.task, task)
            else:
                self._tasks.fail(
                    waiting.task_token,
                    error=REVIEW_REJECTED,
                    cause=(event.notes or "rejected by the operator")[:MAX_CAUSE_CHARS],
                )
        except TaskGone as exc:
            logger.warning("REVIEW_TOKEN_GONE", extra={**fields, "error": exc.reason})
        else:
            logger.info("REVIEW_TASK_ANSWERED", extra=fields)
        self._tokens.delete(case.case_id)

    def _tell_user(self, original: StepTask, approved: StepTask) -> None:
        """Before the edited step's result arrives: the operator changed the request, and what runs now.
        A failed send is logged; the decision stands (the result message still follows)."""
        if self._sender is None or original.phone_number_id is None:
            return
        text = changed_by_operator_text(original, approved)
        try:
            self._sender().send(original.phone_number_id, original.thread_id, Reply.plain(text))
        except (WhatsAppSendError, OSError) as exc:  # the step already runs; its result still follows
            logger.warning(
                "REVIEW_EDIT_NOTICE_FAILED", extra={"traceId": original.trace_id, "error": str(exc)}
            )
