"""The turn's control flow after context assembly: resume a paused question or plan a fresh request.

`TurnControl` is the webhook's `TurnHandler` (`memo.turn.engine`). The order of a turn:
  pending & live    -> resume: fast path -> interpreter -> transition (goto)
  pending & expired -> HITL_EXPIRED, delete; a bare late answer gets the expiry message with
                       "Try again", anything else is fresh (`PendingHITL.is_live`)
  fresh             -> stale-reply guard (acknowledgements get small talk) -> planner
                       -> capability check -> HITL gate (clarifications) -> resolvers
                       -> entity resolution -> HITL gate (disambiguation, then approval) -> executor
An operator's question (returnTo case, `memo.operator_review.clarify`) is answered on the case first
(provide_clarification, idempotent per question) and consumed after, so a failed call leaves the
question for the redelivered message.
The pendingHITL item is created only if none is live and consumed only once (conditional writes in
`memo.conversation.pending`): never a second question or a second answer. A question that loses the
create race sends the open one again (HITL_DUPLICATE_ATTEMPT with its id); a lost consume sends
nothing. Approvals are asked after resolution over the exact items (resolve, then ask), answers only
narrow them, and the items are checked again when the answer comes (docs/hitl-answers.md). A resumed
turn logs under the original request's traceId; a new request sent instead of an answer, under its own. What the user reads comes from `memo.hitl.templates`; the executor's input is built
by `memo.executor.tasks`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from memo.capabilities.reminders import OCCURRENCE, split_scoped
from memo.conversation import smalltalk
from memo.conversation.model import MemoryKind, MemoryMessage, plan_in_flight
from memo.conversation.pending import PendingChange, PendingStore, state_from_item
from memo.domain import (
    DisambiguationCandidate,
    HITLReason,
    HITLReply,
    LatestAction,
    PendingHITL,
    PlanStep,
    RecentMessage,
    TurnInput,
    TurnState,
)
from memo.errors import MemoError
from memo.executor.contracts import ExecutionPort
from memo.executor.tasks import build_execution
from memo.hitl import affected, fastpath, gate, narrowing, templates
from memo.hitl.interpreter import Interpreter
from memo.hitl.resume import ResumeOutcome, quoted_elsewhere, resume, stale_reply_guard
from memo.observability import bind_hitl, bind_turn, logger
from memo.operator_review.clarify import OperatorAnswers
from memo.operator_review.policy import DEFAULT_POLICY, ReviewPolicy
from memo.operator_review.waits import ReviewWait
from memo.operator_review.withdraw import Withdrawals, withdraw_reply
from memo.planner import Planner, PlannerInput
from memo.planner.intents.followups import a_time_for_the_reminder_just_set, says_again
from memo.reminders.buttons import (
    HOW_MUCH_LATER,
    TYPED_WINDOW_MINUTES,
    ReminderButton,
    how_much_later,
    parse_button,
    typed_button,
)
from memo.replies import Reply
from memo.reply.memory import current_actions
from memo.reply.quotes import QuoteStore, refers_back
from memo.reply.undo import is_typed_undo, nothing_to_undo, parse_undo, typed_undo
from memo.resolution.entity import ItemsReader, apply_selection, resolve_entities, selected_ids_from_results
from memo.resolution.router import dependency_groups, resolve_all
from memo.text.dates import format_when
from memo.text.language import Language
from memo.text.recurrence import describe
from memo.turn.engine import SmallTalkHandler, TurnContext, TurnOutcome
from memo.turn.reminder_buttons import handle_button
from memo.turn.undo import handle_undo

if TYPE_CHECKING:
    from memo.capabilities.items import ListItem, Note, Reminder


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
        quotes: QuoteStore | None = None,
        withdrawals: Withdrawals | None = None,
    ) -> None:
        self._withdrawals = withdrawals  # requests waiting for an operator, which "cancel" withdraws
        self._quotes = quotes  # the items Memo's sent messages named (WhatsApp reply-to binding)
        self._review = review_policy
        self._operator_answers = operator_answers
        self._pending = pending
        self._items = items
        self._turn = threading.local()  # the turn's items, read once (`_reader`)
        self._executions = executions
        self._planner = planner
        self._interpreter = interpreter
        self._ttl = hitl_ttl_seconds
        self._smalltalk = SmallTalkHandler()

    def _withdraw(self, ctx: TurnContext, reply: HITLReply) -> TurnOutcome | None:
        """A cancel word with no question open withdraws the newest request waiting for an operator
        (`memo.operator_review.withdraw`); None when there is none."""
        if self._withdrawals is None or reply.interactive_id or not fastpath.is_cancel(reply.text or ""):
            return None
        wait = self._withdrawals.waiting(ctx.message.thread_id, now=ctx.now)
        if wait is None:
            return None
        result = self._withdrawals.withdraw(ctx.message.thread_id, wait)
        text = withdraw_reply(result, ctx.profile.language)
        return TurnOutcome(reply=Reply.plain(text) if text else None, outcome=f"review_{result}")

    def _quoted(self, ctx: TurnContext, state: TurnState) -> list[LatestAction]:
        """What the message the user replied to (WhatsApp `context.id`) named, read only when a step
        says "it/that" (`memo.reply.quotes`)."""
        message = ctx.message
        quoted_id = message.context_id
        if self._quotes is None or not quoted_id or message.reply_id or not refers_back(state):
            return []
        return self._quotes.recall(message.thread_id, quoted_id, now=ctx.now)

    def _quoted_first(self, ctx: TurnContext, state: TurnState) -> list[LatestAction]:
        """The planner's latest actions. "And again in 4 hours" in a reply to an older confirmation
        repeats *that* reminder: the one item the quoted message named comes first (read only for
        such words; a quoted listing of several names no one reminder, so none is put first)."""
        latest = _latest_actions(ctx)
        message = ctx.message
        if (
            self._quotes is None
            or not message.context_id
            or message.reply_id
            or not says_again(state.input.message)
        ):
            return latest
        quoted = self._quotes.recall(message.thread_id, message.context_id, now=ctx.now)
        if len(quoted) != 1:
            return [a for a in latest if a.capability != "reminders"] if quoted else latest
        return [quoted[0], *latest]

    def _reader(self, ctx: TurnContext) -> ItemsReader:
        """The user's items as this turn reads them: each list once, however many steps of the turn
        (resolution, the approval's list, what changed since the question) look at it."""
        turn = self._turn
        if getattr(turn, "ctx", None) is not ctx:
            turn.ctx = ctx
            turn.reader = ReadOnce(self._items)
        reader: ItemsReader = turn.reader
        return reader

    def handle(self, ctx: TurnContext) -> TurnOutcome:
        return self._handle(ctx)

    def _handle(self, ctx: TurnContext) -> TurnOutcome:
        undo = parse_undo(ctx.message.reply_id)
        if undo is not None:  # "Undo" on a delete's confirmation: a turn of its own (memo.turn.undo)
            return handle_undo(ctx, undo)
        if is_typed_undo(ctx.message.text) and not self._asks_an_answer(ctx):
            # "undo", "bring it back", "בטל את המחיקה": the Undo of the latest delete, as if tapped.
            typed = typed_undo(_latest_actions(ctx))
            if typed is None:
                return TurnOutcome(
                    reply=Reply.plain(nothing_to_undo(ctx.profile.language)), outcome="undo_nothing"
                )
            return handle_undo(ctx, typed)
        button = parse_button(ctx.message.reply_id) or self._typed_button(ctx)
        if isinstance(button, ReminderButton):  # "Done" / "Snooze" on a delivered reminder
            return handle_button(ctx, button)
        if button == HOW_MUCH_LATER:
            # Remembered as about that reminder: "in an hour" next is its snooze, even when it was a
            # reply quoting an older reminder than the latest.
            return TurnOutcome(
                reply=Reply.plain(how_much_later(ctx.profile.language)),
                outcome="reminder_how_long",
                reply_kind="reminder",
                reply_reminder_id=about.reminder_id if (about := self._typed_reminder(ctx)) else None,
            )
        reply = HITLReply(text=ctx.message.text, interactive_id=ctx.message.reply_id)
        item = ctx.snapshot.pending
        if item is not None:
            state = state_from_item(item)
            # A resumed turn is the original request's: its traceId on every log line from here.
            bind_turn(state.trace_id, state.thread_id)
            expired = gate.expired_question(state, ctx.now)
            if expired is not None:
                # The expired question is deleted with the turn's write (HITL_EXPIRED is logged);
                # the message is then a late answer or a fresh request.
                discard = PendingChange.discard(state.thread_id, expired.hitl_id)
                late = self._late_answer(ctx, state, expired, reply)
                if late is not None:
                    return _after(discard, late)
                bind_turn(ctx.trace_id, ctx.message.thread_id)  # a fresh request of its own
                return _after(discard, self._fresh(ctx, reply))
            if state.pending_hitl is not None:
                return self._resume(ctx, state, reply)
        return self._fresh(ctx, reply)

    def _asks_an_answer(self, ctx: TurnContext) -> bool:
        """Whether a question of Memo's waits for its answer; "what would you like me to do?"
        (intent_unclear) waits for a request, which "undo" is."""
        item = ctx.snapshot.pending
        if item is None:
            return False
        asked = state_from_item(item).pending_hitl
        return asked is not None and asked.reason != "intent_unclear"

    def _typed_button(self, ctx: TurnContext) -> ReminderButton | str | None:
        """ "done" / "snooze 15 min" typed right after a reminder went out, or in a reply quoting
        one, with no question open: that reminder's button (`memo.reminders.buttons.typed_button`)."""
        about = self._typed_reminder(ctx)
        if about is None or about.reminder_id is None or not ctx.message.text:
            return None
        asked = about.text in (how_much_later("en"), how_much_later("he"))
        return typed_button(ctx.message.text, about.reminder_id, asked_how_long=asked)

    def _typed_reminder(self, ctx: TurnContext) -> MemoryMessage | None:
        """The message about a delivered reminder that typed words may answer: the one a reply
        quotes (even with a question open: quoting a reminder is about it), else, with no question
        open, the latest one among the last few messages if it went out lately."""
        quoted = ctx.message.context_id
        if quoted:
            # A reply quoting one of Memo's messages is about that message, however old: a reminder
            # it delivered gets its button; anything else (or one no longer in memory) is not the
            # latest reminder's, and goes on as words.
            shown = next((m for m in ctx.snapshot.recent if m.wamid == quoted), None)
            return shown if shown is not None and shown.kind == "reminder" else None
        if ctx.snapshot.pending is not None:
            return None
        # The latest reminder among the last few messages ("later" -> "How much later?" -> "in an
        # hour" is still about it), if it went out lately.
        delivered = next((m for m in reversed(ctx.snapshot.recent[-4:]) if m.kind == "reminder"), None)
        if delivered is None or ctx.now - delivered.at > timedelta(minutes=TYPED_WINDOW_MINUTES):
            return None
        return delivered

    def lost_race(self, ctx: TurnContext, outcome: TurnOutcome) -> TurnOutcome:
        """The pending question changed between the thread's load and the turn's write (another
        writer: an operator's question, a concurrent answer). A new question that lost to a live one
        sends the open one again (the multi-HITL guard); a lost answer says nothing."""
        change = outcome.pending_change
        asked = change.state.pending_hitl if change is not None and change.state is not None else None
        if change is not None and change.kind == "create" and asked is not None:
            stored = self._pending.current(ctx.message.thread_id)
            existing = stored.pending_hitl if stored is not None else None
            if existing is not None and existing.is_live(ctx.now):
                return self._existing_question(ctx, existing, asked.source, user_kind=outcome.user_kind)
            logger.warning("HITL_DUPLICATE_ATTEMPT", extra={"existingHitlId": None, "lostRace": True})
        else:
            logger.warning(
                "HITL_RESUME_LOST_RACE",
                extra={
                    "hitlId": change.expected_hitl_id if change is not None else None,
                    "outcome": outcome.outcome,
                },
            )
        return TurnOutcome(reply=None, outcome="hitl_lost_race", user_kind=outcome.user_kind)

    def _fresh(self, ctx: TurnContext, reply: HITLReply) -> TurnOutcome:
        """A message with no live question open: a withdrawal, a stale answer, a thanks, or a request."""
        withdrawn = self._withdraw(ctx, reply)
        if withdrawn is not None:
            return withdrawn
        # "8" right after a reminder was set may be its time (a guess, confirmed): not a stale answer.
        timed = a_time_for_the_reminder_just_set(ctx.message.text or "", _latest_actions(ctx), ctx.now)
        guard = (
            None
            if timed
            else stale_reply_guard(reply, thread_id=ctx.message.thread_id, language=ctx.profile.language)
        )
        if guard is not None:
            return TurnOutcome(reply=Reply.plain(guard), outcome="stale_reply")
        if reply.interactive_id is None:
            ack = smalltalk.acknowledgement(ctx.message.text)
            if ack is not None:  # "ok", "👍", "thanks" with nothing pending: a short friendly answer
                text = smalltalk.reply(
                    ack, language=ctx.profile.language, local_now=ctx.local_now, name=ctx.profile.name
                )
                return TurnOutcome(reply=Reply.plain(text), outcome=f"smalltalk_{ack}")
        return self._plan(ctx, self._fresh_state(ctx))

    def _late_answer(
        self, ctx: TurnContext, state: TurnState, expired: PendingHITL, reply: HITLReply
    ) -> TurnOutcome | None:
        """A bare answer ("yes", "2", a button) to a question that expired: the expiry message with a
        one-tap "Try again" that re-plans the original request. None: the message is a new request."""
        if expired.return_to.node == "case" or (
            expired.context is not None and expired.context.awaiting == "retry"
        ):
            return None
        bare = reply.interactive_id is not None or fastpath.looks_like_hitl_answer(reply.text)
        if not bare:
            return None
        retry = gate.build_retry_hitl(state, now=ctx.now, ttl_seconds=self._ttl)
        logger.info("HITL_EXPIRED_ANSWER", extra={"hitlId": expired.hitl_id})
        assert retry.pending_hitl is not None
        return self._pause(
            ctx,
            gate.GateResult(state=retry, pending=retry.pending_hitl, created=True),
            user_kind="hitl_reply",
        )

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
                latest_actions=self._quoted_first(ctx, state),
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
        trigger = gate.planner_trigger(output)
        if trigger is not None and trigger.kind != "approval":
            checked = gate.check_planner(state, now=ctx.now, ttl_seconds=self._ttl)
            if checked.must_pause:
                return self._pause(ctx, checked, user_kind=user_kind)
        # Approvals are asked after resolution, over the concrete items (resolve, then ask).
        return self._proceed(ctx, state, user_kind=user_kind)

    def _pause(
        self, ctx: TurnContext, checked: gate.GateResult, *, user_kind: MemoryKind, note: str | None = None
    ) -> TurnOutcome:
        pending = checked.pending
        assert pending is not None
        language = checked.state.input.language
        if checked.duplicate:
            return self._existing_question(ctx, pending, pending.source, user_kind=user_kind)
        text = f"{note}\n{pending.question}" if note else None
        return TurnOutcome(
            reply=templates.question_reply(pending, language, text),
            outcome=f"hitl_{pending.kind}",
            reply_kind="hitl_question",
            user_kind=user_kind,
            # Stored with the turn's memory; a live question already there is a lost race (`lost_race`).
            pending_change=PendingChange.create(checked.state, now=ctx.now),
        )

    def _existing_question(
        self, ctx: TurnContext, existing: PendingHITL, new_source: str, *, user_kind: MemoryKind
    ) -> TurnOutcome:
        """The multi-HITL guard: one question at a time, so the open one is sent again (its id logged)."""
        logger.warning(
            "HITL_DUPLICATE_ATTEMPT",
            extra={"existingHitlId": existing.hitl_id, "newSource": new_source, "lostRace": True},
        )
        language = ctx.profile.language
        text = templates.existing_question(language, existing.question)
        return TurnOutcome(
            reply=templates.question_reply(existing, language, text),
            outcome="hitl_duplicate_attempt",
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
        note: str | None = None,
    ) -> TurnOutcome:
        """Resolvers (cached per step) -> entity resolution -> disambiguation -> approval of the
        resolved items -> executor. `note` (what changed meanwhile) is said before what comes next."""
        state = resolve_all(state)
        resolution = resolve_entities(
            state,
            self._reader(ctx),
            ctx.now,
            latest_actions=_latest_actions(ctx),
            quoted=self._quoted(ctx, state),
            in_flight=plan_in_flight(ctx.snapshot.recent, ctx.snapshot.latest_actions, now=ctx.now)
            is not None,
        )
        state = resolution.state
        if resolution.needs_hitl:
            checked = gate.check_disambiguation(state, now=ctx.now, ttl_seconds=self._ttl)
            if checked.must_pause:
                return self._pause(ctx, checked, user_kind=user_kind, note=note)
        trigger = gate.approval_trigger(state.planner_output)
        if trigger is not None and approved is None:
            return self._ask_approval(ctx, state, trigger.reason, user_kind=user_kind, note=note)
        return self._execute(ctx, state, user_kind=user_kind, approved=approved, note=note)

    def _ask_approval(
        self,
        ctx: TurnContext,
        state: TurnState,
        reason: HITLReason,
        *,
        user_kind: MemoryKind,
        note: str | None,
    ) -> TurnOutcome:
        """The approval of the resolved step: its question lists the exact items it will touch, and
        the args are pinned to them (the approval's args hash covers exactly what was shown)."""
        output = state.planner_output
        assert output is not None
        origin = gate.origin_step_id_for(output, reason)
        step = output.step(origin)
        if step is None or origin not in state.executor_args or origin in state.execution_results:
            # The step to approve did not resolve (not found): its failure is answered, nothing runs
            # unapproved in its place.
            return self._execute(ctx, state, user_kind=user_kind, approved=None, note=note)
        args = state.executor_args[origin]
        items: list[DisambiguationCandidate] = []
        everything = True  # the items are all a "delete all" / "clear" would touch
        if affected.id_key(step) is not None:
            ids = affected.ids_in(step, args)
            if (
                ids
                and set(ids) <= set(selected_ids_from_results(state))
                and all(split_scoped(i)[1] for i in ids)
            ):
                # "This one / the whole series?" answered: the person picked exactly this part of the
                # reminder from a question that showed it; that answer is its approval.
                return self._execute(ctx, state, user_kind=user_kind, approved=None, note=note)
            current = self._current_items(ctx, state, step, args)
            if ids is None:
                ids = [c.id for c in current]
            by_id = {c.id: c for c in current}
            # A repeating reminder's id may name its part ("#series"): it is still that reminder, shown
            # and asked about like any item (the part it touches is in its description).
            items = [
                _scoped(by_id[affected.base_id(i)], i, state) for i in ids if affected.base_id(i) in by_id
            ]
            if not items:
                # Nothing there to touch ("delete all" with no reminders): the step runs and says so.
                if ids:
                    return self._execute(ctx, state, user_kind=user_kind, approved=None, note=note)
                state = state.with_executor_args(origin, affected.with_ids(step, args, []))
                return self._execute(ctx, state, user_kind=user_kind, approved=None, note=note)
            if len(items) >= len(current):
                # "Delete all my reminders except call mom", "... for tomorrow": the request's own
                # words narrow the items first (an approval narrowed by an answer is not re-read).
                limited = _limited(step, items, state, ctx.now)
                if isinstance(limited, str):
                    logger.info(
                        "HITL_LIMIT_UNCLEAR", extra={"traceId": state.trace_id, "originStepId": origin}
                    )
                    return TurnOutcome(
                        reply=Reply.plain(limited), outcome="limit_unclear", user_kind=user_kind
                    )
                items = limited
            state = state.with_executor_args(origin, affected.with_ids(step, args, [c.id for c in items]))
            everything = len(items) >= len(current)
        state, removals = self._other_removals(ctx, state, origin)
        if items and removals:
            # "delete the dentist reminder and delete the mom reminder": one answer runs both, so
            # the question lists the items of both (it listed the first only, and both went).
            pending = gate.build_plan_approval_hitl(
                state,
                reason,
                parts=[(gate.as_resolved(state, step), items), *removals],
                now=ctx.now,
                ttl_seconds=self._ttl,
            )
        else:
            pending = gate.build_approval_hitl(
                state,
                reason,
                origin_step_id=origin,
                items=items,
                now=ctx.now,
                ttl_seconds=self._ttl,
                everything=everything,
            )
        logger.info(
            "HITL_CREATED",
            extra={
                "traceId": state.trace_id,
                "hitlId": pending.hitl_id,
                "kind": pending.kind,
                "reason": pending.reason,
                "source": pending.source,
                "returnTo": pending.return_to.model_dump(mode="json"),
                "items": len(items),
            },
        )
        paused = state.model_copy(update={"pending_hitl": pending})
        return self._pause(
            ctx, gate.GateResult(state=paused, pending=pending, created=True), user_kind=user_kind, note=note
        )

    def _other_removals(
        self, ctx: TurnContext, state: TurnState, origin: str
    ) -> tuple[TurnState, list[tuple[PlanStep, list[DisambiguationCandidate]]]]:
        """The items of the plan's other steps that take items away, each step's args pinned to
        them (what the approval shows is what runs); steps whose items cannot be listed are said
        as a phrase instead (`gate.along`)."""
        output = state.planner_output
        assert output is not None
        parts: list[tuple[PlanStep, list[DisambiguationCandidate]]] = []
        for step in output.plan:
            args = state.executor_args.get(step.id)
            if (
                step.id == origin
                or step.action not in gate.DESTRUCTIVE_ACTIONS
                or step.id in state.execution_results
                or args is None
                or affected.id_key(step) is None
            ):
                continue
            current = self._current_items(ctx, state, step, args)
            ids = affected.ids_in(step, args)
            if ids is None:
                ids = [c.id for c in current]
            by_id = {c.id: c for c in current}
            items = [
                _scoped(by_id[affected.base_id(i)], i, state) for i in ids if affected.base_id(i) in by_id
            ]
            if items:
                state = state.with_executor_args(
                    step.id, affected.with_ids(step, args, [c.id for c in items])
                )
                parts.append((gate.as_resolved(state, step), items))
        return state, parts

    def _current_items(
        self, ctx: TurnContext, state: TurnState, step: PlanStep, args: dict[str, Any]
    ) -> list[DisambiguationCandidate]:
        """The user's items of the step's kind now, as candidates (title, when, day)."""
        language, tz = state.input.language, state.input.timezone
        zone = ZoneInfo(tz)
        if step.capability == "reminders":
            return [
                DisambiguationCandidate(
                    id=r.reminder_id,
                    label=r.title,
                    description=_reminder_when(r.due_at, r.recurrence, language, tz),
                    data={"day": r.due_at.astimezone(zone).date().isoformat()},
                )
                for r in self._reader(ctx).list_upcoming_reminders(state.thread_id, ctx.now)
            ]
        if step.capability == "notes":
            return [
                DisambiguationCandidate(
                    id=n.note_id,
                    label=n.text,
                    description=format_when(n.created_at, language, tz),
                    data={"day": n.created_at.astimezone(zone).date().isoformat()},
                )
                for n in self._reader(ctx).list_notes(state.thread_id)
            ]
        list_name = args.get("listName") or step.constraints.get("listName")
        if step.capability == "lists" and isinstance(list_name, str):
            return [
                DisambiguationCandidate(id=i.item_id, label=i.text)
                for i in self._reader(ctx).list_items(state.thread_id, list_name)
            ]
        return []

    def _execute(
        self,
        ctx: TurnContext,
        state: TurnState,
        *,
        user_kind: MemoryKind,
        approved: PendingHITL | None,
        note: str | None = None,
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
        groups = execution.groups if execution is not None else []
        reviewed = [task.step_id for group in groups for task in group if task.review is not None]
        if reviewed and self._withdrawals is not None:  # so "cancel" can withdraw it while it waits
            timeout = max(t.review.timeout_seconds for g in groups for t in g if t.review is not None)
            wait = ReviewWait(state.trace_id, tuple(reviewed), ctx.now + timedelta(seconds=timeout))
            self._withdrawals.remember(state.thread_id, wait)
        if reviewed:
            # The turn says it now; the reply Lambda answers once the operator decided (or it expired).
            logger.info("REVIEW_REQUIRED", extra={"stepIds": reviewed})
            failures.append(templates.sent_to_review(state.input.language))
        text = "\n".join(f for f in [note, *failures] if f)
        outcome = ("awaiting_review" if reviewed else "executing") if groups else "nothing_to_execute"
        # The execution starts once the turn's write is done (`TurnEngine`): after the answered
        # question is consumed, never for an answer that lost its question.
        if not text:
            if groups:  # the reply Lambda answers when the steps are done
                return TurnOutcome(reply=None, outcome=outcome, user_kind=user_kind, start=execution)
            text = templates.would_do(output, state.input.language, state.input.timezone)
        return TurnOutcome(reply=Reply.plain(text), outcome=outcome, user_kind=user_kind, start=execution)

    # --- paused turns ---------------------------------------------------------------------------

    def _resume(self, ctx: TurnContext, state: TurnState, reply: HITLReply) -> TurnOutcome:
        pending = state.pending_hitl
        assert pending is not None
        bind_hitl(pending.hitl_id)
        if self._quotes_another_message(ctx, pending, reply):
            outcome = quoted_elsewhere(state, pending, reply.text or "")
        else:
            outcome = resume(state, reply, now=ctx.now, interpreter=self._interpreter)
        if outcome.keeps_question:
            # A new request while an operator's question is open: planned as its own request; the
            # operator's question stays open.
            bind_turn(ctx.trace_id, ctx.message.thread_id)
            return self._plan(ctx, self._fresh_state(ctx))
        if outcome.goto == "case":
            return self._answer_operator(state, outcome, pending)
        # The answer takes the question (single use) in the turn's one write, after what the answer
        # starts: a rerun of a crashed turn finds the question still open and starts the same
        # execution again, which Step Functions runs once (one execution name per traceId).
        answered = (
            PendingChange.consume(state.thread_id, pending.hitl_id)
            if outcome.consumed
            else PendingChange.replace(outcome.state, expected_hitl_id=pending.hitl_id)
        )
        return _after(answered, self._after_resume(ctx, outcome, pending))

    @staticmethod
    def _quotes_another_message(ctx: TurnContext, pending: PendingHITL, reply: HITLReply) -> bool:
        """A typed answer to an approval or a pick that quotes one of Memo's messages. The
        question's own WhatsApp id is not kept (it is known only after the send, and keeping it
        would cost the turn a write), so the quoted message may be an earlier question or a
        confirmation, and the answer may be about that: it answers nothing here, and the open
        question is asked again, saying so. A button tap names its own question."""
        quoted = ctx.message.context_id
        return bool(quoted) and not reply.interactive_id and pending.kind in ("approval", "disambiguation")

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
        text = (
            templates.operator_answer_passed_on(language)
            if result == "passed_on"
            else templates.operator_answer_too_late(language)
        )
        return TurnOutcome(
            reply=Reply.plain(text),
            outcome=f"hitl_operator_{result}",
            user_kind="hitl_reply",
            pending_change=PendingChange.consume(state.thread_id, pending.hitl_id),
        )

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
            if outcome.decision == "switch_intent":
                # A request of its own: its own traceId, read and answered in its own language.
                bind_turn(ctx.trace_id, ctx.message.thread_id)
                return self._plan(ctx, self._fresh_state(ctx), user_kind="hitl_reply")
            # Planned again from the person's latest words, so answered in their language: a Hebrew
            # "what would you like me to do?" answered "add bread to my todo list" is answered in English.
            state = state.model_copy(
                update={"input": state.input.model_copy(update={"language": ctx.profile.language})}
            )
            if answered.context is not None and answered.context.awaiting == "retry":
                original = TurnState(trace_id=state.trace_id, thread_id=state.thread_id, input=state.input)
                return self._plan(ctx, original, user_kind="hitl_reply")
            return self._plan(ctx, state, user_kind="hitl_reply")
        if outcome.goto == "entity_resolution":
            changed = self._changed(ctx, state, answered, outcome.selected_ids)
            if changed is not None:
                return self._proceed(ctx, _unresolved(state, answered), user_kind="hitl_reply", note=changed)
            state = apply_selection(state, outcome.selected_ids, pending=answered)
            return self._proceed(ctx, state, user_kind="hitl_reply", approved=_approval_in(state))
        # resolver_router: the plan goes on to resolution, approval and execution.
        if outcome.selected_ids:
            state = _narrowed(state, answered, outcome.selected_ids)
        if outcome.approved and answered.kind == "approval":
            changed = self._changed(ctx, state, answered, outcome.selected_ids)
            if changed is not None:
                # Never apply from a frozen list: resolve again, say what changed, ask again.
                return self._proceed(ctx, _unresolved(state, answered), user_kind="hitl_reply", note=changed)
            state = state.model_copy(update={"approved_hitl": answered})
        # An edit (changed or narrowed after Edit) is resolved again and shown again for approval.
        return self._proceed(ctx, state, user_kind="hitl_reply", approved=_approval_in(state))

    def _changed(
        self, ctx: TurnContext, state: TurnState, answered: PendingHITL, kept: tuple[str, ...]
    ) -> str | None:
        """What happened meanwhile to the items the answer applies to (deleted, renamed), as the
        sentence to say before asking again; None when they are as shown."""
        context = answered.context
        output = state.planner_output
        if context is None or not context.candidates or output is None:
            return None
        if context.disambiguation_kind == "recurring_scope":
            return None  # "this one / the whole series" names a part, not items (memo.resolution.recurring)
        if answered.origin_step_id == "planner":
            return self._plan_changed(ctx, state, answered, kept)
        step = output.step(context.resolver_step_id or answered.origin_step_id)
        if step is None:
            return None
        shown = [c for c in context.candidates if not kept or c.id in set(kept)]
        args = {**(context.original_args or {}), **state.executor_args.get(step.id, {})}
        changes = affected.changes_since(shown, self._current_items(ctx, state, step, args))
        return self._said_changed(state, answered, [changes])

    def _plan_changed(
        self, ctx: TurnContext, state: TurnState, answered: PendingHITL, kept: tuple[str, ...]
    ) -> str | None:
        """`_changed` of a combined approval: the kept items of each of its steps, read again."""
        output = state.planner_output
        assert output is not None and answered.context is not None
        by_step: dict[str, list[DisambiguationCandidate]] = {}
        for c in answered.context.candidates or []:
            if not kept or c.id in set(kept):
                by_step.setdefault(str((c.data or {}).get(gate.PLAN_STEP_KEY, "")), []).append(c)
        found = []
        for step_id, shown in by_step.items():
            step = output.step(step_id)
            if step is None:
                continue  # left out by the answer: none of its items are kept
            args = state.executor_args.get(step.id, {})
            found.append(affected.changes_since(shown, self._current_items(ctx, state, step, args)))
        return self._said_changed(state, answered, found)

    def _said_changed(
        self, state: TurnState, answered: PendingHITL, found: list[affected.Changes]
    ) -> str | None:
        gone = [c for changes in found for c in changes.gone]
        renamed = [pair for changes in found for pair in changes.renamed]
        if not gone and not renamed:
            return None
        logger.info(
            "HITL_CANDIDATES_CHANGED",
            extra={"hitlId": answered.hitl_id, "gone": len(gone), "renamed": len(renamed)},
        )
        return templates.items_changed(
            [c.label for c in gone], [(old.label, new.label) for old, new in renamed], state.input.language
        )


class ReadOnce:
    """An `ItemsReader` that reads each list once (one turn's view of the user's items)."""

    def __init__(self, items: ItemsReader) -> None:
        self._items = items
        self._lists: dict[tuple[str, ...], list[Any]] = {}

    def _once(self, key: tuple[str, ...], read: Callable[[], list[Any]]) -> list[Any]:
        if key not in self._lists:
            self._lists[key] = read()
        return list(self._lists[key])

    def list_upcoming_reminders(self, thread_id: str, now: datetime) -> list[Reminder]:
        return self._once(
            ("reminders", thread_id, now.isoformat()),
            lambda: self._items.list_upcoming_reminders(thread_id, now),
        )

    def list_notes(self, thread_id: str) -> list[Note]:
        return self._once(("notes", thread_id), lambda: self._items.list_notes(thread_id))

    def list_items(self, thread_id: str, list_name: str) -> list[ListItem]:
        return self._once(
            ("list", thread_id, list_name), lambda: self._items.list_items(thread_id, list_name)
        )

    def all_list_items(self, thread_id: str) -> list[ListItem]:
        return self._once(("lists", thread_id), lambda: self._items.all_list_items(thread_id))


def _after(first: PendingChange, outcome: TurnOutcome) -> TurnOutcome:
    """`outcome` with `first` (a change decided earlier in the turn) committed before its own."""
    return outcome.model_copy(update={"pending_change": first.then(outcome.pending_change)})


def _unresolved(state: TurnState, answered: PendingHITL) -> TurnState:
    """The state with the answered step's entity resolution undone, so it is resolved again (each
    step's, for a combined approval)."""
    step_ids = {(answered.context.resolver_step_id if answered.context else None) or answered.origin_step_id}
    if answered.origin_step_id == "planner" and answered.context is not None:
        step_ids = {
            str((c.data or {}).get(gate.PLAN_STEP_KEY, "")) for c in answered.context.candidates or []
        }
    return state.model_copy(
        update={
            "executor_args": {k: v for k, v in state.executor_args.items() if k not in step_ids},
            "execution_results": {k: v for k, v in state.execution_results.items() if k not in step_ids},
            "disambiguation": None,
            "approved_hitl": None,
        }
    )


def _narrowed(state: TurnState, answered: PendingHITL, kept: tuple[str, ...]) -> TurnState:
    """The approved step's args narrowed to the items the answer kept (always a subset of the shown)."""
    output = state.planner_output
    shown = (answered.context.candidates if answered.context else None) or []
    if not set(kept) <= {c.id for c in shown} or output is None:
        raise ValueError("a narrowed answer must keep items the approval showed")
    if answered.origin_step_id == "planner":
        return _narrowed_plan(state, shown, kept)
    step = output.step(answered.origin_step_id)
    if step is None or step.id not in state.executor_args:
        raise ValueError("a narrowed answer must keep items of the approved step it showed")
    return state.with_executor_args(step.id, affected.with_ids(step, state.executor_args[step.id], kept))


def _narrowed_plan(
    state: TurnState, shown: list[DisambiguationCandidate], kept: tuple[str, ...]
) -> TurnState:
    """A combined approval kept to some of its items: each step that takes items away keeps its
    own kept ones; a step with none kept leaves the plan (and any step's wait on it), so it runs
    nothing. The plan's other steps (named under the items) go on as approved."""
    output = state.planner_output
    assert output is not None
    step_of = {c.id: str((c.data or {}).get(gate.PLAN_STEP_KEY, "")) for c in shown}
    dropped: set[str] = set()
    for step_id in dict.fromkeys(step_of.values()):
        step = output.step(step_id)
        if step is None or step.id not in state.executor_args:
            raise ValueError(f"step {step_id} of a combined approval has no args")
        own = [i for i in kept if step_of[i] == step.id]
        if own:
            state = state.with_executor_args(
                step.id, affected.with_ids(step, state.executor_args[step.id], own)
            )
        else:
            dropped.add(step.id)
    if not dropped:
        return state
    plan = [
        s.model_copy(update={"depends_on": [d for d in s.depends_on if d not in dropped]})
        for s in output.plan
        if s.id not in dropped
    ]
    args = {k: v for k, v in state.executor_args.items() if k not in dropped}
    return state.model_copy(
        update={"planner_output": output.model_copy(update={"plan": plan}), "executor_args": args}
    )


def _scoped(candidate: DisambiguationCandidate, held: str, state: TurnState) -> DisambiguationCandidate:
    """A repeating reminder shown for approval says which part goes: only its next time, or the
    whole series."""
    _, scope = split_scoped(held)
    if scope is None:
        return candidate
    he = state.input.language == "he"
    if scope == OCCURRENCE:
        part = "רק הפעם הבאה" if he else "only the next time"
    else:
        part = "כל הסדרה" if he else "the whole series"
    return candidate.model_copy(update={"description": f"{candidate.description} — {part}"})


_NUMBERS_ONLY = re.compile(r"^[#\d\s,.&+-]*\d[#\d\s,.&+-]*(?:(?:and|or|ו-?)\s*[#\d\s,.&+-]+)*$", re.I)


def _limited(
    step: PlanStep, items: list[DisambiguationCandidate], state: TurnState, now: datetime
) -> list[DisambiguationCandidate] | str:
    """The items a "delete all" / "clear" keeps to after its own limit ("except call mom": all
    but it; "for tomorrow": only those), read as an approval's narrowing reads it; the reply to send
    instead when the words pick none of the items out, or leave none (nothing runs)."""
    keep, only = step.constraints.get("keep"), step.constraints.get("only")
    language = state.input.language
    said = keep if isinstance(keep, str) and keep else only
    if isinstance(said, str) and _NUMBERS_ONLY.match(said):
        # "remove all except 2": nothing numbered was shown yet, so a number picks nothing out.
        return templates.limit_unclear(said, language)
    if isinstance(keep, str) and keep:
        words = f"חוץ מ{keep}" if language == "he" else f"except {keep}"
    elif isinstance(only, str) and only:
        words = f"רק {only}" if language == "he" else f"only {only}"
    else:
        return items
    narrowed = narrowing.parse(
        words, items, now=now, timezone=state.input.timezone, language=language, removal=True
    )
    if narrowed is None or narrowed.unresolved:
        return templates.limit_unclear(keep if isinstance(keep, str) and keep else str(only), language)
    if narrowed.empty:
        return templates.narrowing_empty(language)
    return [c for c in items if c.id in narrowed.ids]


def _approval_in(state: TurnState) -> PendingHITL | None:
    """An approval answered earlier in this turn stays bound to the steps it approved."""
    return state.approved_hitl


def _failure_text(result: dict[str, Any]) -> str:
    return str(result.get("error") or "")


def _reminder_when(due_at: datetime, recurrence: str | None, language: Language, timezone: str) -> str:
    """When a listed reminder comes: a repeating one says so, as the reminder list does ("every
    Monday at 09:00 (next: Mon 30 Nov, 09:00)"), so an approval never hides that a series goes."""
    when = format_when(due_at, language, timezone)
    if recurrence is None:
        return when
    return f"{describe(recurrence, language)} ({'הבאה: ' if language == 'he' else 'next: '}{when})"


def _latest_actions(ctx: TurnContext) -> list[LatestAction]:
    """The planner sees the last 3 actions of the 12-hour scope, newest first."""
    try:
        return current_actions(ctx.snapshot.latest_actions, now=ctx.now, limit=LATEST_ACTIONS_FOR_PLANNER)
    except ValidationError:
        logger.warning("LATEST_ACTIONS_UNREADABLE")
        return []
