"""The bridge from "case decided" to Step Functions: a `CaseListener` of the case platform.

Runs in the review Lambda (the only function allowed to answer task tokens). On a
`decision_recorded` event of a `memo_operation` case it looks up the waiting step's token by case id:

- approved -> SendTaskSuccess with the StepTask to run: the approved args (the operator's edited
  `args`, or the submitted ones), their hash, and an `Approval` bound to that hash, approved by the
  operator principal, valid for the policy's approval TTL. The executor then runs the step once
  (ledger) and its drift check holds against exactly what the operator approved;
- rejected -> SendTaskFailure(error REVIEW_REJECTED, cause = the operator's reason);
- the token is deleted once answered. A token Step Functions no longer knows (the wait timed out,
  the execution ended: TaskTimedOut / InvalidToken / TaskDoesNotExist) is logged and deleted, never
  retried; a missing token item is logged. Other AWS errors propagate: the decision is recorded,
  and the reviewer's retry (same request_id) replays it and notifies again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from botocore.exceptions import ClientError

from caseplatform.model import Case, Event
from memo.executor.contracts import Approval, StepTask, args_hash
from memo.observability import logger
from memo.operator_review.cases import ADAPTER_ID
from memo.operator_review.tokens import TokenStore

REVIEW_REJECTED = "REVIEW_REJECTED"
GONE_TOKEN_ERRORS = frozenset({"TaskTimedOut", "InvalidToken", "TaskDoesNotExist"})
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
    )
    return waiting.model_copy(
        update={"args": approved_args, "args_hash": digest, "approval": approval, "review": None}
    )


class TaskTokenBridge:
    def __init__(
        self,
        *,
        tokens: TokenStore,
        sfn_client: Any,
        clock: Callable[[], datetime],
        approval_ttl_seconds: int,
    ) -> None:
        self._tokens = tokens
        self._sfn = sfn_client
        self._clock = clock
        self._ttl = approval_ttl_seconds

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
                self._sfn.send_task_success(
                    taskToken=waiting.task_token, output=task.model_dump_json(exclude_none=True)
                )
                fields["edited"] = task.args_hash != waiting.task.args_hash
            else:
                self._sfn.send_task_failure(
                    taskToken=waiting.task_token,
                    error=REVIEW_REJECTED,
                    cause=(event.notes or "rejected by the operator")[:MAX_CAUSE_CHARS],
                )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code not in GONE_TOKEN_ERRORS:
                raise
            logger.warning("REVIEW_TOKEN_GONE", extra={**fields, "error": code})
        else:
            logger.info("REVIEW_TASK_ANSWERED", extra=fields)
        self._tokens.delete(case.case_id)
