"""A change of the user's timezone ("I'm in New York this week", "חזרתי לארץ"): the profile takes the
new zone (`memo.turn.engine`), and this decides what the turn says about the reminders already set.

One-time reminders keep their moment. Those still ahead whose clock time differs in the new zone are
named with their time there and the time they were set for, and Memo offers to move them to that
same clock time in the new zone: an approval question (yes / no) over one update step per reminder,
each pinned to its reminder and its new moment, so a yes runs exactly the moves shown (an update
through the executor, undoable as updates are), an answer that keeps some runs only those, a no or
anything unclear moves nothing, and a new request is planned as its own. At most
`MEMO_ZONE_MOVE_MAX_LISTED` are named and offered; the others are counted and keep their moment.

Repeating reminders keep their local time: "every day at 7" means 7 where the user is. The turn
starts one update step (`KEEP_LOCAL_STEP_ID`, its own traceId: the turn's and `KEEP_LOCAL_SUFFIX`)
that makes each series' schedule again in the new zone at the same clock time and gives the item
the zone, keeping what it replaced for undo, so "undo" right after puts the series back in the old
zone (`memo.capabilities.undo_reverts`). The turn's reply says so (at most
`MEMO_ZONE_MOVE_MAX_LISTED` are named); the step's own answer is not sent again
(`memo.reply.respond`). This is done with or without the question, and with one already open.

With a question already open the move of one-time reminders is not offered (one question at a
time): the turn says that reminders keep their moment, as it does when none would change.
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
from memo.executor.contracts import ExecutionInput
from memo.executor.tasks import one_step_execution
from memo.hitl import gate, templates
from memo.hitl.reasons import policy_source_for, return_to_for
from memo.hitl.templates.zone_move import KeptSeries, MoveOffer, kept_local_line, zone_move_question
from memo.observability import logger
from memo.replies import Reply
from memo.text.dates import format_when
from memo.text.series_words import describe
from memo.text.timezones import one_time_kept, timezone_set_line, timezone_set_reply
from memo.turn.outcome import TurnOutcome
from memo.turn.questions import pause, question_reply
from memo.turn.reads import Turn

_REASON: HITLReason = "confirmation"
#: The step that keeps the series' local time, and what its execution's traceId adds to the turn's
#: (its own request: its undo key, and the answer to the question asked with it runs on its own).
KEEP_LOCAL_STEP_ID = "keep_local_time"
KEEP_LOCAL_SUFFIX = "-keep-local"


def zone_changed(turn: Turn, previous: str) -> TurnOutcome:
    """The reply to a change of timezone from `previous` to the profile's zone: the confirmation,
    and the offer to move the one-time reminders ahead to the same clock time there."""
    ctx = turn.ctx
    zone, language = ctx.profile.timezone, ctx.profile.language
    logger.info("TIMEZONE_SET", extra={"timezone": zone, "previous": previous})
    if zone == previous:
        return TurnOutcome(
            reply=Reply.plain(timezone_set_reply(zone, language, ctx.now)), outcome="timezone_set"
        )
    upcoming = turn.items.list_upcoming_reminders(ctx.message.thread_id, ctx.now)
    series = [r for r in upcoming if r.recurrence is not None and r.timezone != zone]
    kept = _kept_local(turn, series)
    told = TurnOutcome(reply=Reply.plain(_told(turn, upcoming, series)), outcome="timezone_set", start=kept)
    if _question_open(turn):
        return told
    movable = [
        (r, moved)
        for r in upcoming
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
    line = "\n".join([timezone_set_line(zone, language, ctx.now), *_series_line(turn, series)])
    return asked.model_copy(
        update={
            "reply": question_reply(pending, language, f"{line}\n{pending.question}"),
            "start": kept,
        }
    )


def _kept_local(turn: Turn, series: list[Reminder]) -> ExecutionInput | None:
    """The step that keeps each series' clock time in the profile's zone (see the module doc)."""
    if not series:
        return None
    ctx = turn.ctx
    args = UpdateReminderArgs(reminder_ids=[r.reminder_id for r in series], timezone=ctx.profile.timezone)
    return one_step_execution(
        trace_id=f"{ctx.trace_id}{KEEP_LOCAL_SUFFIX}",
        thread_id=ctx.message.thread_id,
        phone_number_id=ctx.message.phone_number_id,
        language=ctx.profile.language,
        timezone=ctx.profile.timezone,
        step_id=KEEP_LOCAL_STEP_ID,
        capability="reminders",
        action="update",
        args=args.to_json(),
    )


def _series_line(turn: Turn, series: list[Reminder]) -> list[str]:
    """The line naming the series that keep their local time (none without series)."""
    if not series:
        return []
    language, zone = turn.ctx.profile.language, turn.ctx.profile.timezone
    named = series[: turn.ports.zone_move_listed]
    kept = [KeptSeries(title=r.title, repeats=describe(r.recurrence or "", language)) for r in named]
    return [kept_local_line(language, zone, kept, len(series) - len(named))]


def _told(turn: Turn, upcoming: list[Reminder], series: list[Reminder]) -> str:
    """The confirmation: the zone, the series that keep their local time, and (with one-time
    reminders ahead) that those keep their moment."""
    ctx = turn.ctx
    zone, language = ctx.profile.timezone, ctx.profile.language
    if not series:
        return timezone_set_reply(zone, language, ctx.now)
    lines = [timezone_set_line(zone, language, ctx.now), *_series_line(turn, series)]
    if any(r.recurrence is None for r in upcoming):
        lines.append(one_time_kept(zone, language))
    return "\n".join(lines)


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
