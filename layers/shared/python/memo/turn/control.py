"""The turn's control flow after context assembly: resume a paused question or plan a fresh request.

`TurnControl` is the webhook's `TurnHandler` (`memo.turn.engine`). DESIGN.md's order:
  pending & live    -> resume: fast path -> interpreter -> transition (goto)
  pending & expired -> HITL_EXPIRED, delete, treat the message as fresh (`PendingHITL.is_live`)
  fresh             -> stale-reply guard -> planner -> capability check -> HITL gate
                       -> resolvers -> entity resolution -> HITL gate -> executor
An operator's question (returnTo case, `memo.operator_review.clarify`) is answered on the case first
(provide_clarification, idempotent per question) and consumed after, so a failed call leaves the
question for the redelivered message.
The pendingHITL item is created only if none is live and consumed only once (conditional writes in
`memo.conversation.pending`): a lost race is logged and nothing is sent, never a second question or
a second answer. What the user reads comes from `memo.hitl.templates`; the executor's input is built
by `memo.executor.tasks`.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from memo.conversation.model import MemoryKind
from memo.conversation.pending import PendingExists, PendingGone, PendingStore, state_from_item
from memo.domain import HITLReply, LatestAction, PendingHITL, RecentMessage, TurnInput, TurnState
from memo.errors import MemoError
from memo.executor.contracts import ExecutionPort
from memo.executor.tasks import build_execution
from memo.hitl import gate, templates
from memo.hitl.interpreter import Interpreter
from memo.hitl.resume import ResumeOutcome, resume, stale_reply_guard
from memo.observability import bind_hitl, logger
from memo.operator_review.clarify import OperatorAnswers
from memo.operator_review.policy import DEFAULT_POLICY, ReviewPolicy
from memo.planner import Planner, PlannerInput
from memo.replies import Reply
from memo.reply.memory import current_actions
from memo.resolution.entity import ItemsReader, apply_selection, resolve_entities
from memo.resolution.router import dependency_groups, resolve_all
from memo.turn.engine import SmallTalkHandler, TurnContext, TurnOutcome


class OperatorAnswersNotConfigured(MemoError):
    code = "OPERATOR_ANSWERS_NOT_CONFIGURED"
    http_status = 500


UNCONNECTED_CAPABILITIES = frozenset({"calendar", "email"})
LATEST_ACTIONS_FOR_PLANNER = 3


class TurnControl:
    """Resumes the thread's live pending question, or plans the message as a new request."""

    def __init__(
        self,
        *,
        pending: PendingStore,
        planner: Planner,
        interpreter: Interpreter,
        items: ItemsReader,
        executions: ExecutionPort,
        hitl_ttl_seconds: int,
        review_policy: ReviewPolicy = DEFAULT_POLICY,
        operator_answers: OperatorAnswers | None = None,
    ) -> None:
        self._review = review_policy
        self._operator_answers = operator_answers
        self._pending = pending
        self._items = items
        self._executions = executions
        self._planner = planner
        self._interpreter = interpreter
        self._ttl = hitl_ttl_seconds
        self._smalltalk = SmallTalkHandler()

    def handle(self, ctx: TurnContext) -> TurnOutcome:
        reply = HITLReply(text=ctx.message.text, interactive_id=ctx.message.reply_id)
        item = ctx.snapshot.pending
        if item is not None:
            state = state_from_item(item)
            expired = gate.expired_question(state, ctx.now)
            if expired is not None:
                self._discard(state.thread_id, expired)
            elif state.pending_hitl is not None:
                return self._resume(ctx, state, reply)
        guard = stale_reply_guard(reply, thread_id=ctx.message.thread_id, language=ctx.profile.language)
        if guard is not None:
            return TurnOutcome(reply=Reply.plain(guard), outcome="stale_reply")
        return self._plan(ctx, self._fresh_state(ctx))

    # --- fresh requests -------------------------------------------------------------------------

    def _fresh_state(self, ctx: TurnContext) -> TurnState:
        return TurnState(
            trace_id=ctx.trace_id,
            thread_id=ctx.message.thread_id,
            input=TurnInput(
                message=ctx.message.text,
                language=ctx.profile.language,
                timezone=ctx.profile.timezone,
                whatsapp_message_id=ctx.message.wamid,
            ),
        )

    def _plan(self, ctx: TurnContext, state: TurnState, *, user_kind: MemoryKind = "message") -> TurnOutcome:
        result = self._planner.plan(
            PlannerInput.for_turn(
                state,
                now=ctx.now,
                recent_messages=[RecentMessage(role=m.role, text=m.text) for m in ctx.snapshot.recent],
                latest_actions=_latest_actions(ctx),
            )
        )
        state = state.with_planner_result(result.output, result.routing_suggestions)
        output = result.output
        language = state.input.language
        conversational = all(step.capability == "general" for step in output.plan)
        if output.intent_type in ("conversation", "meta") and conversational and not output.missing_fields:
            small = self._smalltalk.handle(ctx)
            return small.model_copy(update={"user_kind": user_kind})
        blocked: set[str] = {str(step.capability) for step in output.plan} & UNCONNECTED_CAPABILITIES
        if blocked:
            logger.info("CAPABILITY_BLOCKED", extra={"capabilities": sorted(blocked)})
            return TurnOutcome(
                reply=Reply.plain(templates.connect_account(blocked, language)),
                outcome="capability_blocked",
                user_kind=user_kind,
            )
        checked = gate.check_planner(state, now=ctx.now, ttl_seconds=self._ttl)
        if checked.must_pause:
            return self._pause(ctx, checked, user_kind=user_kind)
        return self._proceed(ctx, checked.state, user_kind=user_kind)

    def _pause(self, ctx: TurnContext, checked: gate.GateResult, *, user_kind: MemoryKind) -> TurnOutcome:
        pending = checked.pending
        assert pending is not None
        if checked.duplicate:
            return TurnOutcome(reply=None, outcome="hitl_duplicate_attempt", user_kind=user_kind)
        try:
            self._pending.create(checked.state, now=ctx.now)
        except PendingExists:
            logger.warning(
                "HITL_DUPLICATE_ATTEMPT",
                extra={"existingHitlId": "stored", "newSource": pending.source, "lostRace": True},
            )
            return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind=user_kind)
        return TurnOutcome(
            reply=templates.question_reply(pending, checked.state.input.language),
            outcome=f"hitl_{pending.kind}",
            reply_kind="hitl_question",
            user_kind=user_kind,
        )

    def _proceed(
        self,
        ctx: TurnContext,
        state: TurnState,
        *,
        user_kind: MemoryKind,
        approved: PendingHITL | None = None,
    ) -> TurnOutcome:
        """Resolvers (cached per step) -> entity resolution -> HITL gate -> executor."""
        state = resolve_all(state)
        resolution = resolve_entities(state, self._items, ctx.now, latest_actions=_latest_actions(ctx))
        state = resolution.state
        if resolution.needs_hitl:
            checked = gate.check_disambiguation(state, now=ctx.now, ttl_seconds=self._ttl)
            if checked.must_pause:
                return self._pause(ctx, checked, user_kind=user_kind)
        return self._execute(ctx, state, user_kind=user_kind, approved=approved)

    def _execute(
        self, ctx: TurnContext, state: TurnState, *, user_kind: MemoryKind, approved: PendingHITL | None
    ) -> TurnOutcome:
        """Start the executor for every resolved step; steps that failed resolution (not found) are
        answered here, at once, and never reach the executor."""
        output = state.planner_output
        assert output is not None
        execution = build_execution(
            state,
            dependency_groups(output.plan),
            phone_number_id=ctx.message.phone_number_id,
            approved=approved,
            review_policy=self._review,
        )
        failures = [_failure_text(result) for result in state.execution_results.values()]
        if execution is not None:
            self._executions.start(execution)
        groups = execution.groups if execution is not None else []
        reviewed = [task.step_id for group in groups for task in group if task.review is not None]
        if reviewed:
            # The turn says it now; the reply Lambda answers once the operator decided (or it expired).
            logger.info("REVIEW_REQUIRED", extra={"stepIds": reviewed})
            failures.append(templates.sent_to_review(state.input.language))
        text = "\n".join(f for f in failures if f)
        outcome = ("awaiting_review" if reviewed else "executing") if groups else "nothing_to_execute"
        if not text:
            if groups:  # the reply Lambda answers when the steps are done
                return TurnOutcome(reply=None, outcome=outcome, user_kind=user_kind)
            text = templates.would_do(output, state.input.language, state.input.timezone)
        return TurnOutcome(reply=Reply.plain(text), outcome=outcome, user_kind=user_kind)

    # --- paused turns ---------------------------------------------------------------------------

    def _discard(self, thread_id: str, pending: PendingHITL) -> None:
        """Delete an expired question (HITL_EXPIRED is already logged); the message is then fresh."""
        try:
            self._pending.consume(thread_id, pending.hitl_id)
        except PendingGone:
            logger.info("HITL_EXPIRED_ALREADY_GONE", extra={"hitlId": pending.hitl_id})

    def _resume(self, ctx: TurnContext, state: TurnState, reply: HITLReply) -> TurnOutcome:
        pending = state.pending_hitl
        assert pending is not None
        bind_hitl(pending.hitl_id)
        outcome = resume(state, reply, now=ctx.now, interpreter=self._interpreter)
        if outcome.goto == "case":
            return self._answer_operator(state, outcome, pending)
        try:
            if outcome.consumed:
                self._pending.consume(state.thread_id, pending.hitl_id)
            else:
                self._pending.replace(outcome.state, expected_hitl_id=pending.hitl_id)
        except PendingGone:
            logger.warning("HITL_RESUME_LOST_RACE", extra={"hitlId": pending.hitl_id, "goto": outcome.goto})
            return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind="hitl_reply")
        return self._after_resume(ctx, outcome, pending)

    def _answer_operator(self, state: TurnState, outcome: ResumeOutcome, pending: PendingHITL) -> TurnOutcome:
        """The user answered an operator's question: the answer goes to the case, then the question
        is consumed. Request id per question, so a redelivered message replays, never answers twice."""
        if self._operator_answers is None:
            raise OperatorAnswersNotConfigured(
                "an operator's question was answered but no case port is wired"
            )
        language = state.input.language
        case_id = pending.context.case_id if pending.context is not None else None
        answer = outcome.state.hitl_results[pending.hitl_id].raw
        result = (
            self._operator_answers.answer(
                case_id,
                answer,
                request_id=f"memo:clarification:{pending.hitl_id}",
                requester_ref=f"memo:requester:{state.trace_id}",
            )
            if case_id
            else "too_late"
        )
        if result == "conflict":
            logger.warning("HITL_RESUME_LOST_RACE", extra={"hitlId": pending.hitl_id, "goto": "case"})
            return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind="hitl_reply")
        try:
            self._pending.consume(state.thread_id, pending.hitl_id)
        except PendingGone:
            logger.warning("HITL_RESUME_LOST_RACE", extra={"hitlId": pending.hitl_id, "goto": "case"})
            return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind="hitl_reply")
        text = (
            templates.operator_answer_passed_on(language)
            if result == "passed_on"
            else templates.operator_answer_too_late(language)
        )
        return TurnOutcome(reply=Reply.plain(text), outcome=f"hitl_operator_{result}", user_kind="hitl_reply")

    def _after_resume(self, ctx: TurnContext, outcome: ResumeOutcome, answered: PendingHITL) -> TurnOutcome:
        state = outcome.state
        if outcome.goto == "interrupt":
            assert outcome.pending is not None
            return TurnOutcome(
                reply=templates.question_reply(outcome.pending, state.input.language, outcome.text),
                outcome=f"hitl_{outcome.decision}",
                reply_kind="hitl_question",
                user_kind="hitl_reply",
            )
        if outcome.goto == "response":
            text = outcome.text or templates.cancelled(state.input.language)
            return TurnOutcome(
                reply=Reply.plain(text), outcome=f"hitl_{outcome.decision}", user_kind="hitl_reply"
            )
        if outcome.goto == "planner":
            return self._plan(ctx, state, user_kind="hitl_reply")
        if outcome.goto == "entity_resolution":
            state = apply_selection(state, outcome.selected_ids, pending=answered)
            return self._proceed(ctx, state, user_kind="hitl_reply", approved=_approval_in(state))
        # resolver_router: the plan goes on to resolution and execution.
        if answered.kind == "approval":
            state = state.model_copy(update={"approved_hitl": answered})
        return self._proceed(ctx, state, user_kind="hitl_reply", approved=_approval_in(state))


def _approval_in(state: TurnState) -> PendingHITL | None:
    """An approval answered earlier in this turn stays bound to the steps it approved."""
    return state.approved_hitl


def _failure_text(result: dict[str, Any]) -> str:
    return str(result.get("error") or "")


def _latest_actions(ctx: TurnContext) -> list[LatestAction]:
    """The planner sees the last 3 actions of the 12-hour scope, newest first."""
    try:
        return current_actions(ctx.snapshot.latest_actions, now=ctx.now, limit=LATEST_ACTIONS_FOR_PLANNER)
    except ValidationError:
        logger.warning("LATEST_ACTIONS_UNREADABLE")
        return []
