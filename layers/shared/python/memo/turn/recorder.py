"""The turn's one recorder: it applies what the decisions returned (`memo.turn.outcome.TurnOutcome`).

In order:
1. settle: the one call to another system whose answer picks the outcome (an operator's question
   answered on its case, a withdrawal), idempotent per question or step; a failed call fails the
   turn before anything is written, and its redelivery calls again;
2. the turn's one conditional write (`ConversationStore.record_turn`): both messages, the message's
   idempotency record (holding the plan's start), the pending question's change and the profile. A
   pending change that lost its condition writes nothing and the decisions' `lost_race` answer is
   recorded instead; a write that would store an item over DynamoDB's limit writes nothing either
   (`ItemTooLarge`) and `questions.too_large` is recorded instead, the message kept cut short; a
   message turned already writes nothing and sends nothing;
3. only once that write landed: the review wait (so "cancel" can withdraw the request), the start,
   and the reply. A run that dies between the write and these is redelivered, found turned, and
   `restart` keeps the wait and issues the start again from the stored record (Step Functions runs
   one execution per traceId). A turn whose write was refused leaves no wait behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Protocol

from memo.conversation.model import MemoryMessage, TurnRecorded, UserProfile
from memo.conversation.pending import PendingChange
from memo.conversation.store import ConversationStore
from memo.errors import ItemTooLarge, MemoError
from memo.executor.contracts import ExecutionInput, ExecutionPort, args_hash
from memo.ingress.inbound import InboundMessage
from memo.observability import count, logger
from memo.operator_review.waits import ReviewWait
from memo.packing import pack_text, unpack_text
from memo.replies import Reply
from memo.text.wording import preview
from memo.turn import events, questions
from memo.turn.outcome import CaseAnswer, TurnContext, TurnOutcome, Withdrawal
from memo.whatsapp.sender import Sender, WhatsAppSendError, log_send_failure
from memo.whatsapp.tracking import OutboundKind, OutboundLog, OutboundRecord, OutboundTag

#: What the memory keeps of a message whose turn was too large to record (`questions.too_large`).
REMEMBERED_WHEN_TOO_LARGE = 1_000


class OperatorAnswersNotConfigured(MemoError):
    code = "OPERATOR_ANSWERS_NOT_CONFIGURED"
    http_status = 500


class CaseAnswers(Protocol):
    """Records the user's answer on an operator's case (`memo.operator_review.clarify.CaseClarifications`)."""

    def answer(self, case_id: str, answer: str, *, request_id: str, requester_ref: str) -> str: ...


class ReviewDesk(Protocol):
    """The thread's requests waiting for an operator (`memo.operator_review.withdraw.Withdrawals`)."""

    def remember(self, thread_id: str, wait: ReviewWait) -> None: ...

    def withdraw(self, thread_id: str, wait: ReviewWait) -> str: ...


class TurnRecorder:
    def __init__(
        self,
        *,
        store: ConversationStore,
        sender: Sender,
        clock: Callable[[], datetime],
        memory_ttl_seconds: int,
        executions: ExecutionPort | None = None,
        outbound: OutboundLog | None = None,
        case_answers: CaseAnswers | None = None,
        reviews: ReviewDesk | None = None,
    ) -> None:
        self._store = store
        self._sender = sender
        self._clock = clock
        self._ttl = memory_ttl_seconds
        self._executions = executions
        self._outbound = outbound
        self._case_answers = case_answers
        self._reviews = reviews

    # --- 1. settle ------------------------------------------------------------------------------

    def settle(self, outcome: TurnOutcome) -> TurnOutcome:
        """The outcome the settlement's answer picks (the outcome itself when it has none)."""
        settlement = outcome.settle
        if settlement is None:
            return outcome
        call = settlement.call
        if isinstance(call, CaseAnswer):
            if self._case_answers is None:
                raise OperatorAnswersNotConfigured(
                    "an operator's question was answered but no case port is wired"
                )
            result = self._case_answers.answer(
                call.case_id, call.answer, request_id=call.request_id, requester_ref=call.requester_ref
            )
        else:
            result = self._withdraw(call)
        return settlement.outcomes[result]

    def _withdraw(self, call: Withdrawal) -> str:
        if self._reviews is None:
            raise ValueError("a withdrawal was decided but no review desk is wired")
        return self._reviews.withdraw(call.thread_id, call.wait)

    # --- 2. the one write -----------------------------------------------------------------------

    def apply(
        self,
        ctx: TurnContext,
        outcome: TurnOutcome,
        *,
        profile: UserProfile,
        stored: UserProfile | None,
        lost_race: Callable[[TurnContext, TurnOutcome], TurnOutcome],
    ) -> tuple[TurnOutcome, bool]:
        """Record the (settled) outcome, then keep its wait, start its plan and send its reply.
        Returns the outcome recorded (a lost race's answer instead of a lost change) and whether
        its reply went out."""
        try:
            recorded = self.record(ctx, outcome, profile, stored)
        except ItemTooLarge:
            # Nothing was written: the turn says so instead, remembering the message cut short.
            outcome = questions.too_large(ctx, outcome)
            recorded = self.record(ctx, outcome, profile, stored, text_limit=REMEMBERED_WHEN_TOO_LARGE)
        if recorded == "pending_conflict":
            count("PendingConflicts")
            logger.warning(
                "HITL_PENDING_CONFLICT",
                extra={"outcome": outcome.outcome, "change": _change_kind(outcome.pending_change)},
            )
            outcome = lost_race(ctx, outcome).without_writes()
            recorded = self.record(ctx, outcome, profile, stored)
        if recorded != "recorded":
            count("TurnRepliesSuppressed")
            logger.info("TURN_ALREADY_ANSWERED", extra={"outcome": outcome.outcome})
            return outcome, False
        self._after_write(outcome)
        if outcome.reply is None:
            return outcome, False
        sent = self.send(
            ctx.message,
            outcome.reply,
            kind=_outbound_kind(outcome),
            now=ctx.now,
            reaction=outcome.reply_kind == "hitl_question" and _reaction_may_answer(outcome),
        )
        return outcome, sent

    def record(
        self,
        ctx: TurnContext,
        outcome: TurnOutcome,
        profile: UserProfile,
        stored: UserProfile | None,
        *,
        text_limit: int | None = None,
    ) -> TurnRecorded:
        """The turn's one write: its memory, the reply's claim, the pending change and the profile
        (the message's text cut to `text_limit` characters in its memory, when given)."""
        message, now = ctx.message, ctx.now
        text = message.text or f"[{message.type}]"
        remembered = [
            MemoryMessage(
                role="user",
                text=preview(text, text_limit) if text_limit is not None else text,
                at=now,
                kind=outcome.user_kind,
                wamid=message.wamid,
                started=outcome.start.trace_id if outcome.start is not None else None,
                pace=ctx.pace,
            )
        ]
        if outcome.reply is not None:
            remembered.append(
                MemoryMessage(
                    role="assistant",
                    text=outcome.reply.text,
                    at=now,
                    kind=outcome.reply_kind,
                    reminder_id=outcome.reply_reminder_id,
                )
            )
        # The message's record holds what a redelivery of it needs (`AlreadyTurned.result`): the
        # plan's start, issued again in case this run dies between its write and the start. What
        # the turn did is its memory and its TURN_DONE log line, not repeated here.
        result: dict[str, object] = {}
        if outcome.start is not None:
            result["start"] = pack_text(_start_text(outcome.start))
        return self._store.record_turn(
            message.thread_id,
            message.wamid,
            remembered,
            ttl_seconds=self._ttl,
            result=result,
            pending=outcome.pending_change,
            profile=profile if profile != stored else None,
        )

    # --- 3. after the write ---------------------------------------------------------------------

    def _after_write(self, outcome: TurnOutcome) -> None:
        """The wait first (so "cancel" finds the request once it runs), then the start: after the
        write, so a refused write leaves neither; a crash here is redelivered and `restart`ed."""
        if outcome.review_wait is not None and outcome.start is not None:
            self._remember(outcome.start.thread_id, outcome.review_wait)
        if outcome.start is not None:
            self.start(outcome.start)

    def _remember(self, thread_id: str, wait: ReviewWait) -> None:
        if self._reviews is not None:
            self._reviews.remember(thread_id, wait)

    def start(self, execution: ExecutionInput) -> None:
        """Start the turn's plan (a second start of the same traceId is a no-op)."""
        if self._executions is None:
            raise ValueError("the turn has a plan to run but no executor is wired")
        self._executions.start(execution)

    def restart(self, stored: Mapping[str, Any]) -> None:
        """A redelivered message whose turn was done: its wait and its start again, in case the
        first run died between its write and them."""
        raw = stored.get("start")
        if isinstance(raw, str):  # packed (`memo.packing`)
            execution = _start_of(json.loads(unpack_text(raw)))
        elif isinstance(raw, dict):  # stored before starts were packed
            execution = _start_of(raw)
        else:
            return
        logger.info("TURN_START_REISSUED")
        wait = ReviewWait.for_execution(execution, now=self._clock())
        if wait is not None:
            self._remember(execution.thread_id, wait)
        self.start(execution)

    def send(
        self,
        message: InboundMessage,
        reply: Reply,
        *,
        kind: OutboundKind,
        now: datetime,
        reaction: bool = False,
    ) -> bool:
        """Send the turn's reply, tagged (`memo.whatsapp.tracking`); its claim was written with the
        turn, so an unknown outcome is never sent again. Only a question a 👍/✅ may answer
        (`reaction`) is recorded by its outbound id: the reaction names nothing else."""
        tag = OutboundTag.new(kind, message.thread_id, seed=message.wamid)
        try:
            sent = self._sender.send(message.phone_number_id, message.thread_id, reply, tag=tag)
        except WhatsAppSendError as exc:
            log_send_failure(exc, what="reply")
            return False
        if reaction and kind == "hitl_question" and self._outbound is not None:
            self._outbound.record(
                [
                    OutboundRecord(
                        message_id=message_id,
                        thread_id=message.thread_id,
                        kind=kind,
                        at=now,
                        phone_number_id=message.phone_number_id,
                        token=tag.token,
                    )
                    for message_id in sent.message_ids
                    if message_id
                ]
            )
        return True


def _start_text(execution: ExecutionInput) -> str:
    """The start as the message's record keeps it (JSON text, then packed): a step's args hash, and
    its approval's when it is the same, left out when it is the hash of the step's args as stored
    (`_start_of` computes it again); 64 hex digits compress poorly."""
    document = execution.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    for step in (step for group in document["groups"] for step in group):
        digest = step["args_hash"]
        if digest != args_hash(step.get("args", {})):
            continue
        del step["args_hash"]
        approval = step.get("approval")
        if approval is not None and approval["args_hash"] == digest:
            del approval["args_hash"]
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def _start_of(document: dict[str, Any]) -> ExecutionInput:
    """A stored start (`_start_text`, or in full as an earlier release stored it) as it was issued."""
    for step in (step for group in document.get("groups", []) for step in group):
        if "args_hash" not in step:
            step["args_hash"] = args_hash(step.get("args", {}))
            approval = step.get("approval")
            if approval is not None and "args_hash" not in approval:
                approval["args_hash"] = step["args_hash"]
    return ExecutionInput.model_validate(document)


def _change_kind(change: PendingChange | None) -> str | None:
    return change.kind if change is not None else None


def _outbound_kind(outcome: TurnOutcome) -> OutboundKind:
    return "hitl_question" if outcome.reply_kind == "hitl_question" else "reply"


def _reaction_may_answer(outcome: TurnOutcome) -> bool:
    """The turn asks a "Just to check" question, which a reaction on it asks again
    (`events.reaction_answer`): its message id is kept to know the reaction names it."""
    change = outcome.pending_change
    if change is None or change.state is None:
        return False
    pending = change.state.pending_hitl
    return pending is not None and events.is_a_guess(pending)
