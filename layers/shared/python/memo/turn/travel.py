"""A change of the user's timezone ("I'm in New York this week", "חזרתי לארץ"): the profile takes the
new zone (`memo.turn.engine`), and this decides what the turn says about the reminders already set.

One-time reminders keep their moment. Those still ahead whose clock time differs in the new zone are
named with their time there and the time they were set for, and Memo offers to move them to that
same clock time in the new zone: an approval question (yes / no) over one update step per reminder,
each pinned to its reminder and its new moment, so a yes runs exactly the moves shown (an update
through the executor, undoable as updates are), an answer that keeps some runs only those, a no or
anything unclear moves nothing, and a new request is planned as its own. At most
`MEMO_ZONE_MOVE_MAX_LISTED` are named and offered; the others are counted and keep their moment.

Repeating reminders keep their time of day in the zone in force (`memo.text.series`). With a question
already open the move is not offered (one question at a time): the turn says that reminders keep
their moment, as it does when none would change.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from memo.capabilities.items import Reminder
from memo.capabilities.reminder_args import UpdateReminderArgs
from memo.conversation.pending import state_from_item
from memo.domain import (
    DisambiguationCandidate,
    HITLReason,
    PendingHITL,
    PendingHITLContext,
    PlannerOutput,
    PlanStep,
    TurnState,
)
from memo.hitl import gate, templates
from memo.hitl.reasons import policy_source_for, return_to_for
from memo.hitl.templates.zone_move import MoveOffer, zone_move_question
from memo.observability import logger
from memo.replies import Reply
from memo.text.dates import format_when
from memo.text.timezones import timezone_set_line, timezone_set_reply
from memo.turn.outcome import TurnOutcome
from memo.turn.questions import pause
from memo.turn.reads import Turn

_REASON: HITLReason = "confirmation"


def zone_changed(turn: Turn, previous: str) -> TurnOutcome:
    """The reply to a change of timezone from `previous` to the profile's zone: the confirmation,
    and the offer to move the one-time reminders ahead to the same clock time there."""
    ctx = turn.ctx
    zone, language = ctx.profile.timezone, ctx.profile.language
    logger.info("TIMEZONE_SET", extra={"timezone": zone, "previous": previous})
    told = TurnOutcome(reply=Reply.plain(timezone_set_reply(zone, language, ctx.now)), outcome="timezone_set")
    if zone == previous or _question_open(turn):
        return told
    movable = [
        (r, moved)
        for r in turn.items.list_upcoming_reminders(ctx.message.thread_id, ctx.now)
        if r.recurrence is None
        and (moved := same_clock(r.due_at, previous, zone)) != r.due_at
        and moved > ctx.now
    ]
    if not movable:
        return told
    listed = movable[: turn.ports.zone_move_listed]
    state = _move_plan(turn, listed)
    offers = [MoveOffer(title=r.title, due_at=r.due_at, moved_to=moved) for r, moved in listed]
    question = zone_move_question(language, zone, previous, offers, len(movable) - len(listed))
    pending = _move_question(turn, state, listed, question)
    logger.info(
        "HITL_CREATED",
        extra={
            "traceId": state.trace_id,
            "hitlId": pending.hitl_id,
            "kind": pending.kind,
            "reason": "zone_move",
            "items": len(listed),
            "notListed": len(movable) - len(listed),
        },
    )
    paused = state.model_copy(update={"pending_hitl": pending})
    asked = pause(ctx, gate.GateResult(state=paused, pending=pending, created=True), user_kind="message")
    line = timezone_set_line(zone, language, ctx.now)
    return asked.model_copy(
        update={"reply": templates.question_reply(pending, language, f"{line}\n{pending.question}")}
    )


def same_clock(due_at: datetime, previous: str, zone: str) -> datetime:
    """The moment at `due_at`'s clock time (and day) in `previous`, read in `zone`."""
    local = due_at.astimezone(ZoneInfo(previous))
    return local.replace(tzinfo=ZoneInfo(zone))


def _question_open(turn: Turn) -> bool:
    item = turn.ctx.snapshot.pending
    if item is None:
        return False
    asked = state_from_item(item).pending_hitl
    return asked is not None and asked.is_live(turn.ctx.now)


def _move_plan(turn: Turn, listed: list[tuple[Reminder, datetime]]) -> TurnState:
    """One update step per reminder, its args pinned to the reminder and its new moment."""
    state = turn.fresh_state()
    steps = [
        PlanStep(
            id=f"zone_move_{i}",
            capability="reminders",
            action="update",
            constraints={"title": r.title},
            changes={"when": moved.isoformat()},
        )
        for i, (r, moved) in enumerate(listed, start=1)
    ]
    output = PlannerOutput(
        intent_type="operation", confidence=1.0, risk_level="low", needs_approval=True, plan=steps
    )
    state = state.model_copy(update={"planner_output": output})
    for step, (r, moved) in zip(steps, listed, strict=True):
        args = UpdateReminderArgs(reminder_ids=[r.reminder_id], when=moved)
        state = state.with_executor_args(step.id, args.to_json())
    return state


def _move_question(
    turn: Turn, state: TurnState, listed: list[tuple[Reminder, datetime]], question: str
) -> PendingHITL:
    """A yes / no approval of the whole plan ("planner"): each item names its step, so an answer
    that keeps some runs only their steps (`memo.turn.resumed`)."""
    ctx, zone, language = turn.ctx, state.input.timezone, state.input.language
    output = state.planner_output
    assert output is not None
    candidates = [
        DisambiguationCandidate(
            id=r.reminder_id,
            label=r.title,
            description=format_when(r.due_at, language, zone),
            data={gate.PLAN_STEP_KEY: step.id, "day": r.due_at.astimezone(ZoneInfo(zone)).date().isoformat()},
        )
        for step, (r, _) in zip(output.plan, listed, strict=True)
    ]
    return PendingHITL(
        hitl_id=str(uuid.uuid4()),
        kind="approval",
        source="planner",
        reason=_REASON,
        origin_step_id="planner",
        return_to=return_to_for("planner", _REASON),
        expected_input="yes_no",
        question=question,
        options=templates.yes_no_options(language),
        policy_source=policy_source_for("planner", _REASON),
        context=PendingHITLContext(candidates=candidates),
        expires_at=ctx.now + timedelta(seconds=turn.ttl),
        created_at=ctx.now,
    )
