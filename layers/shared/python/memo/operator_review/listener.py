"""The bridge from "case decided" to Step Functions: a `CaseListener` of the case platform.

Runs in the review Lambda (the only function allowed to answer task tokens). On a
`decision_recorded` event of a `memo_operation` case it looks up the waiting step's token by case id:

- approved -> SendTaskSuccess with the StepTask to run: the approved args (the operator's edited
  `args`, which may only narrow the step (`memo.operator_review.edits`; checked when the decision is
  recorded, and again here: an edit that would broaden it fails the step as rejected), or the
  submitted ones), their hash, and an `Approval` bound to that hash, approved by the
  operator principal, valid for the policy's approval TTL. The executor then runs the step once
  (ledger) and its drift check holds against exactly what the operator approved;
- rejected -> SendTaskFailure(error REVIEW_REJECTED, cause = the operator's reason);
- sent back for changes (a `changes_requested` event: an edit without a payload) -> the same failure,
  its cause the operator's feedback: Memo does not revise a user's request for an operator, and the
  user's words may only be narrowed, so the step does not run and the user is told why;
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
from memo.operator_review.edits import check_edit
from memo.operator_review.policy import item_count
from memo.operator_review.tokens import TaskAnswers, TaskGone, TokenStore
from memo.replies import Reply
from memo.whatsapp.sender import Sender, WhatsAppSendError

REVIEW_REJECTED = "REVIEW_REJECTED"
MAX_CAUSE_CHARS = 32_000


def _cause(event: Event, sent_back: bool) -> str:
    if sent_back:
        return (
            f"changes requested: {event.feedback}" if event.feedback else "changes requested by the operator"
        )
    return event.notes or "rejected by the operator"


def operator_principal(event: Event) -> str:
    return f"operator:{event.actor.id or event.actor.name}"


def approved_task(
    waiting: StepTask, case: Case, event: Event, *, now: datetime, approval_ttl_seconds: int
) -> StepTask:
    # Approved as submitted: the waiting step's own args (the token store's), never the case's
    # payload, which may hold redaction's masks instead of the user's words. Edited: the edit's args
    # (an edit of a masked payload is refused by the edit check).
    args = event.approved_payload.get("args") if event.approved_payload is not None else None
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


#: What a step acts on, by capability, counted: (one, many) in English, then in Hebrew.
_NOUNS = {
    "reminders": ("reminder", "reminders", "תזכורת", "תזכורות"),
    "notes": ("note", "notes", "פתק", "פתקים"),
    "lists": ("item", "items", "פריט", "פריטים"),
}
#: The first word of an action, as Memo says it will do it in Hebrew.
_HEBREW_VERBS = {"delete": "אמחק", "add": "אוסיף", "remove": "אסיר", "clear": "אנקה", "update": "אעדכן"}


def changed_by_operator_text(original: StepTask, approved: StepTask) -> str:
    """What the user is told when an operator changed the request before it ran: what now runs, in
    real figures ("I'll delete 1 of the 2 reminders you asked about")."""
    before, after = item_count(original.args), item_count(approved.args)
    one, many, one_he, many_he = _NOUNS.get(original.capability, ("item", "items", "פריט", "פריטים"))
    verb = original.action.split("_")[0]  # delete_all -> delete: what runs is the narrowed set
    if original.language == "he":
        if before != after:
            noun_he = one_he if before == 1 else many_he
            doing = _HEBREW_VERBS.get(verb, "אבצע את הבקשה על")
            return f"נציג שינה את הבקשה שלך לפני הביצוע: {doing} {after} מתוך {before} {noun_he} שביקשת."
        return "נציג שינה את פרטי הבקשה שלך לפני הביצוע; התוצאה תגיע מיד."
    if before != after:
        noun = one if before == 1 else many
        return f"An operator changed your request before it ran: I'll {verb} {after} of the {before} {noun} you asked about."
    return (
        f"An operator changed the details of your request ({original.capability}, "
        f"{original.action.replace('_', ' ')}) before it ran; the result follows."
    )


#: The reason the user reads when an approval came with an edit that would broaden the request.
EDIT_REFUSED_CAUSE = "The operator's change would have done more than you asked for, so nothing was done."


def _refused_edit(case: Case, event: Event) -> list[dict[str, str]]:
    """The problems of an approval's edited payload, checked again before anything runs (an edit
    recorded by a surface without Memo's edit check); none when it only narrows, or is no edit."""
    if event.decision_outcome != "approved" or event.approved_payload is None:
        return []
    return check_edit(case.payload, event.approved_payload)


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
        sent_back = event.event_type == "changes_requested"
        if case.adapter_id != ADAPTER_ID or (event.event_type != "decision_recorded" and not sent_back):
            return
        decision = "changes_requested" if sent_back else event.decision_outcome
        fields: dict[str, object] = {"caseId": case.case_id, "decision": decision}
        waiting = self._tokens.get(case.case_id)
        if waiting is None:
            logger.warning("REVIEW_TOKEN_MISSING", extra=fields)
            return
        try:
            refused = _refused_edit(case, event)
            if refused:
                # Recorded where no edit check ran: what would run is not what the user asked for.
                logger.error("REVIEW_EDIT_REFUSED", extra={**fields, "problems": refused[:5]})
                self._tasks.fail(waiting.task_token, error=REVIEW_REJECTED, cause=EDIT_REFUSED_CAUSE)
            elif not sent_back and event.decision_outcome == "approved":
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
                    cause=_cause(event, sent_back)[:MAX_CAUSE_CHARS],
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
