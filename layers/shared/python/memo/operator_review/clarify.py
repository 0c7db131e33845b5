"""Clarification through the user: an operator's question on a `memo_operation` case goes to the
WhatsApp user as a HITL question, and the user's answer goes back to the case.

Out (review Lambda): `ClarificationRelay` is a case platform listener. On a `needs_clarification`
event of a `memo_operation` case it finds the waiting step (ledger item `REVIEW#<case id>`: the
user's thread id and the phone number id they wrote to live only there, never in the case), opens a
pendingHITL on the user's thread — kind clarification, source operator, reason operator_question,
free_text, returnTo case/provide_clarification, context.caseId (never the task token), expiring when
the operator's wait does — and sends the question from that phone number id.

- The pendingHITL is created only if the thread has no live question (conditional write). If the
  user is in the middle of another question, the operator's question is not relayed:
  HITL_DUPLICATE_ATTEMPT is logged and the case stays in needs_clarification (the operator may ask
  again, reworded, or decide without an answer).
- A revised question of the same case replaces the previous one in place (conditional on its id).
- The same event delivered again (the reviewer's retry of a call that failed, e.g. on a WhatsApp
  send error) re-sends the same question: at least once, never a second pendingHITL.
- When the case is decided while its question is still open on the user's thread, the question is
  withdrawn (consumed, conditional on its id), so the user's next message is a fresh request again.
  The relay therefore runs before the task-token bridge, which deletes the ledger item.

Back (webhook Lambda): `CaseClarifications.answer` records the user's answer with
`provide_clarification` (the case returns to pending); the turn's recorder (`memo.turn.recorder`) calls it
before the turn's write consumes the pendingHITL, so a failed call leaves the question in place for
the redelivered message.
The case platform's domain errors are mapped here, in one place, to an `AnswerResult`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from caseplatform.errors import AlreadyTerminal, CaseNotFound, IdempotencyConflict, InvalidStateTransition
from caseplatform.model import Case, Event
from caseplatform.service import CaseService
from caseplatform.validation import MAX_TEXT
from memo.conversation.model import MemoryMessage
from memo.conversation.pending import PendingExists, PendingGone, PendingStore
from memo.domain import HITLReturnTo, PendingHITL, PendingHITLContext, TurnInput, TurnState
from memo.hitl import templates
from memo.observability import logger, mask_phone
from memo.operator_review.cases import ADAPTER_ID
from memo.operator_review.tokens import TokenStore
from memo.replies import Reply
from memo.text.language import Language
from memo.whatsapp.sender import Sender

OPERATOR_RETURN = HITLReturnTo(node="case", mode="provide_clarification")
REQUESTER_ROLE = "requester"
# The user's words, relayed by Memo: an `agent` actor (the case platform's actor kinds are operator /
# agent / system; operator is a reviewer, system the platform's own events).
REQUESTER_KIND = "agent"
RELAY_NOTES = "Answered by the requester on WhatsApp, relayed by Memo."

OpenResult = Literal["created", "replaced", "same", "busy"]
AnswerResult = Literal["passed_on", "too_late", "conflict"]


# --- out: the operator's question to the user ----------------------------------------------------


class QuestionStore(Protocol):
    def open(self, state: TurnState, *, now: datetime) -> OpenResult:
        """Persist the operator's question as the thread's pendingHITL (see the module docstring)."""

    def withdraw(self, thread_id: str, case_id: str, *, now: datetime) -> str | None:
        """Remove the thread's live question if it is this case's operator question; its hitlId."""


class MemoryWriter(Protocol):
    def append(self, thread_id: str, messages: list[MemoryMessage], *, ttl_seconds: int) -> None: ...


class ReadablePendingStore(PendingStore, Protocol):
    def current(self, thread_id: str) -> TurnState | None:
        """The thread's stored pending turn (a consistent read), expired or not."""


class PendingQuestionStore:
    """`QuestionStore` on the thread's pending question: its conditional writes, plus a consistent
    read of the live question to tell a replay or a revision of the same case from another question."""

    def __init__(self, pending: ReadablePendingStore) -> None:
        self._pending = pending

    def _live(self, thread_id: str, now: datetime) -> PendingHITL | None:
        state = self._pending.current(thread_id)
        pending = state.pending_hitl if state is not None else None
        return pending if pending is not None and pending.is_live(now) else None

    def withdraw(self, thread_id: str, case_id: str, *, now: datetime) -> str | None:
        live = self._live(thread_id, now)
        if live is None or live.source != "operator" or live.context is None:
            return None
        if live.context.case_id != case_id:
            return None
        try:
            self._pending.consume(thread_id, live.hitl_id)
        except PendingGone:  # the user answered it just now
            return None
        return live.hitl_id

    def open(self, state: TurnState, *, now: datetime) -> OpenResult:
        wanted = state.pending_hitl
        assert wanted is not None and wanted.context is not None
        try:
            self._pending.create(state, now=now)
            return "created"
        except PendingExists:
            live = self._live(state.thread_id, now)
        if live is None:  # consumed or expired in between: one more conditional attempt
            try:
                self._pending.create(state, now=now)
                return "created"
            except PendingExists:
                return "busy"
        if live.hitl_id == wanted.hitl_id:
            return "same"
        same_case = live.context is not None and live.context.case_id == wanted.context.case_id
        if live.source != "operator" or not same_case:
            return "busy"
        try:
            self._pending.replace(state, expected_hitl_id=live.hitl_id)
        except PendingGone:
            return "busy"
        return "replaced"


def question_expiry(now: datetime, *, waits_until: datetime | None, timeout_seconds: int) -> datetime:
    """The review timeout, not the HITL TTL: the question lives as long as the operator's wait
    (`waitsUntil`), or the policy's timeout from now when the token item does not say."""
    return waits_until if waits_until is not None else now + timedelta(seconds=timeout_seconds)


def operator_pending(
    case: Case,
    event: Event,
    *,
    origin_step_id: str,
    language: Language,
    now: datetime,
    expires_at: datetime,
) -> PendingHITL:
    return PendingHITL(
        hitl_id=f"op-{event.event_id}",
        kind="clarification",
        source="operator",
        reason="operator_question",
        origin_step_id=origin_step_id,
        return_to=OPERATOR_RETURN,
        expected_input="free_text",
        question=templates.operator_question(language, event.question or ""),
        expires_at=expires_at,
        context=PendingHITLContext(case_id=case.case_id),
        created_at=now,
    )


class ClarificationRelay:
    """Case platform listener (review Lambda): relays an operator's question to the WhatsApp user."""

    def __init__(
        self,
        *,
        tokens: TokenStore,
        questions: QuestionStore,
        sender: Callable[[], Sender],
        memory: MemoryWriter,
        clock: Callable[[], datetime],
        timeout_seconds: int,
        memory_ttl_seconds: int,
    ) -> None:
        self._tokens = tokens
        self._questions = questions
        self._sender = sender
        self._memory = memory
        self._clock = clock
        self._timeout = timeout_seconds
        self._memory_ttl = memory_ttl_seconds

    def on_event(self, case: Case, event: Event) -> None:
        if case.adapter_id != ADAPTER_ID:
            return
        if event.event_type == "decision_recorded":
            self._withdraw(case)
        elif event.event_type == "needs_clarification":
            self._relay(case, event)

    def _withdraw(self, case: Case) -> None:
        waiting = self._tokens.get(case.case_id)
        if waiting is None:
            return
        withdrawn = self._questions.withdraw(waiting.task.thread_id, case.case_id, now=self._clock())
        if withdrawn is not None:
            logger.info(
                "REVIEW_CLARIFICATION_WITHDRAWN",
                extra={
                    "caseId": case.case_id,
                    "hitlId": withdrawn,
                    "threadId": mask_phone(waiting.task.thread_id),
                },
            )

    def _relay(self, case: Case, event: Event) -> None:
        fields: dict[str, object] = {"caseId": case.case_id, "eventId": event.event_id}
        waiting = self._tokens.get(case.case_id)
        if waiting is None:
            logger.warning("REVIEW_CLARIFICATION_NO_REQUESTER", extra=fields)
            return
        task = waiting.task
        fields.update(threadId=mask_phone(task.thread_id), traceId=task.trace_id)
        if not task.phone_number_id:
            logger.warning("REVIEW_CLARIFICATION_NO_NUMBER", extra=fields)
            return
        now = self._clock()
        expires_at = question_expiry(now, waits_until=waiting.waits_until, timeout_seconds=self._timeout)
        if expires_at <= now:
            logger.warning("REVIEW_CLARIFICATION_TOO_LATE", extra=fields)
            return
        pending = operator_pending(
            case,
            event,
            origin_step_id=task.step_id,
            language=task.language,
            now=now,
            expires_at=expires_at,
        )
        state = TurnState(
            trace_id=task.trace_id,
            thread_id=task.thread_id,
            input=TurnInput(message="", language=task.language, timezone=task.timezone),
            pending_hitl=pending,
        )
        fields["hitlId"] = pending.hitl_id
        opened = self._questions.open(state, now=now)
        if opened == "busy":
            logger.warning(
                "HITL_DUPLICATE_ATTEMPT",
                extra={**fields, "existingHitlId": "stored", "newSource": "operator", "caseWaits": True},
            )
            return
        self._sender().send(task.phone_number_id, task.thread_id, Reply.plain(pending.question))
        if opened != "same":
            self._memory.append(
                task.thread_id,
                [MemoryMessage(role="assistant", text=pending.question, at=now, kind="hitl_question")],
                ttl_seconds=self._memory_ttl,
            )
        logger.info("REVIEW_CLARIFICATION_RELAYED", extra={**fields, "stored": opened})


# --- back: the user's answer to the case ---------------------------------------------------------


class OperatorAnswers(Protocol):
    def answer(self, case_id: str, answer: str, *, request_id: str, requester_ref: str) -> AnswerResult:
        """Record the user's answer on the case. `passed_on`: the case is pending again;
        `too_late`: the case no longer waits for it (decided, gone, not asking); `conflict`: another
        answer to the same question was recorded first."""


def requester_actor(requester_ref: str) -> dict[str, Any]:
    """Who answered: the WhatsApp user, by a reference that is not their number."""
    return {"kind": REQUESTER_KIND, "name": "WhatsApp user", "role": REQUESTER_ROLE, "id": requester_ref}


class CaseClarifications:
    def __init__(self, cases: CaseService) -> None:
        self._cases = cases

    def answer(self, case_id: str, answer: str, *, request_id: str, requester_ref: str) -> AnswerResult:
        try:
            self._cases.provide_clarification(
                case_id=case_id,
                answer=answer[:MAX_TEXT],
                notes=RELAY_NOTES,
                actor=requester_actor(requester_ref),
                request_id=request_id,
            )
        except (InvalidStateTransition, AlreadyTerminal, CaseNotFound) as exc:
            logger.info("REVIEW_CLARIFICATION_TOO_LATE", extra={"caseId": case_id, "error": exc.code})
            return "too_late"
        except IdempotencyConflict:
            logger.warning("REVIEW_CLARIFICATION_CONFLICT", extra={"caseId": case_id})
            return "conflict"
        logger.info("REVIEW_CLARIFICATION_ANSWERED", extra={"caseId": case_id})
        return "passed_on"
