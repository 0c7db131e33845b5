"""The approval of a resolved plan: the question lists the exact items its steps will touch, and the
steps' args are pinned to them (the approval's args hash covers exactly what was shown).

Approvals are asked after resolution, over the concrete items (resolve, then ask); the request's own
words ("except call mom", "for tomorrow") narrow a "delete all" first.

The turn's tool policy is here too: the steps the review policy names, and the requests that break
a rule.

- A ready step a rule of the review policy names (`memo.operator_review.policy`) is asked as an
  approval with the HITL reason `tool_requires_review` (source and policySource `tool_policy`); the
  user's yes sends it to an operator (its `ReviewTicket` carries the reason and the policy source
  into the case). A step that no rule names is asked as before.
- A request that breaks a rule of `memo.hitl.request_rules` is not carried out: the reply says which
  rule, in the user's language. When the review policy lists `policy_violation` among its
  `reasons`, the reply asks whether an operator should look at it (an approval of the whole plan,
  reason `policy_violation`, policySource `tool_policy`): only the operator's approval lets it run.
  Otherwise nothing can be asked and the reply only says why.
- A reminder whose day alone is known and already past `max_days_ahead` ("in 3 years") is refused
  before its time is asked (`day_out_of_reach`): no time could keep the rule, and an operator
  cannot approve a reminder with no time. The reply says why; nothing is asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from memo.capabilities.reminder_args import OCCURRENCE, split_scoped
from memo.conversation.model import MemoryKind
from memo.domain import DisambiguationCandidate, HITLReason, HITLSource, PendingHITL, PlanStep, TurnState
from memo.hitl import affected, gate, narrowing, templates
from memo.hitl.request_rules import broken_rule, day_too_far
from memo.observability import count, logger
from memo.replies import Reply
from memo.resolution.entity import selected_ids_from_results
from memo.turn.execute import execute
from memo.turn.outcome import TurnOutcome
from memo.turn.questions import pause
from memo.turn.reads import Turn

Removal = tuple[PlanStep, list[DisambiguationCandidate]]

_NUMBERS_ONLY = re.compile(r"^[#\d\s,.&+-]*\d[#\d\s,.&+-]*(?:(?:and|or|ו-?)\s*[#\d\s,.&+-]+)*$", re.I)


@dataclass(frozen=True)
class _Pinned:
    """The items the step will touch, its args pinned to them in `state`, and whether they are all
    a "delete all" would touch."""

    state: TurnState
    items: list[DisambiguationCandidate]
    everything: bool
    #: what a "delete all ... for tomorrow" left out (its repeating reminders), said before the question
    left: str | None = None


@dataclass(frozen=True)
class _RunsWithout:
    """The step needs no approval question: it runs now (with the state it carries) and says so."""

    state: TurnState


def ask_approval(
    turn: Turn,
    state: TurnState,
    reason: HITLReason,
    *,
    user_kind: MemoryKind,
    note: str | None,
    origin: str | None = None,
) -> TurnOutcome:
    """The approval of the resolved step (and of the plan's other removals, in one question); a
    broad delete that did not say which items is asked which first (`memo.hitl.affected`). When the
    review policy names a step it approves, the approval is asked as `tool_requires_review`."""
    output = state.planner_output
    assert output is not None
    origin = origin or gate.origin_step_id_for(output, reason)
    step = output.step(origin)
    if step is None or origin not in state.executor_args or origin in state.execution_results:
        # The step to approve did not resolve (not found): its failure is answered, nothing runs
        # unapproved in its place.
        return execute(turn, state, user_kind=user_kind, approved=None, note=note)
    items: list[DisambiguationCandidate] = []
    everything = True  # the items are all a "delete all" / "clear" would touch
    if affected.id_key(step) is not None:
        pinned = _pinned(turn, state, step)
        if isinstance(pinned, _RunsWithout):
            return execute(turn, pinned.state, user_kind=user_kind, approved=None, note=note)
        if isinstance(pinned, str):  # the request's own limit picks nothing out: nothing runs
            logger.info("HITL_LIMIT_UNCLEAR", extra={"traceId": state.trace_id, "originStepId": origin})
            return TurnOutcome(reply=Reply.plain(pinned), outcome="limit_unclear", user_kind=user_kind)
        state, items, everything = pinned.state, pinned.items, pinned.everything
        note = f"{note}\n{pinned.left}" if note and pinned.left else note or pinned.left  # a day's series
        if affected.asks_scope(step, items):
            return _ask_scope(turn, state, step, items, user_kind=user_kind, note=note)
    state, removals = _other_removals(turn, state, origin)
    source: HITLSource = "planner"
    if named_by_review(turn, state, [origin, *(s.id for s, _ in removals)]):
        reason, source = "tool_requires_review", "tool_policy"
    if items and removals:
        # "delete the dentist reminder and delete the mom reminder": one answer runs both, so
        # the question lists the items of both (it listed the first only, and both went).
        pending = gate.build_plan_approval_hitl(
            state,
            reason,
            parts=[(gate.as_resolved(state, step), items), *removals],
            now=turn.ctx.now,
            ttl_seconds=turn.ttl,
            source=source,
        )
    else:
        pending = gate.build_approval_hitl(
            state,
            reason,
            origin_step_id=origin,
            items=items,
            now=turn.ctx.now,
            ttl_seconds=turn.ttl,
            everything=everything,
            source=source,
        )
    return _asked(turn, state, pending, len(items), user_kind=user_kind, note=note)


def _ask_scope(
    turn: Turn,
    state: TurnState,
    step: PlanStep,
    items: list[DisambiguationCandidate],
    *,
    user_kind: MemoryKind,
    note: str | None,
) -> TurnOutcome:
    """ "delete my reminders" matching several: all of them, or which ones (`ambiguous_scope`)."""
    pending = affected.build_scope_hitl(state, step, items, now=turn.ctx.now, ttl_seconds=turn.ttl)
    return _asked(turn, state, pending, len(items), user_kind=user_kind, note=note)


def _asked(
    turn: Turn, state: TurnState, pending: PendingHITL, items: int, *, user_kind: MemoryKind, note: str | None
) -> TurnOutcome:
    """Ask `pending` (HITL_CREATED is logged with its reason, returnTo and policy source)."""
    logger.info(
        "HITL_CREATED",
        extra={
            "traceId": state.trace_id,
            "hitlId": pending.hitl_id,
            "kind": pending.kind,
            "reason": pending.reason,
            "source": pending.source,
            "returnTo": pending.return_to.model_dump(mode="json"),
            "policySource": pending.policy_source,
            "items": items,
        },
    )
    paused = state.model_copy(update={"pending_hitl": pending})
    checked = gate.GateResult(state=paused, pending=pending, created=True)
    return pause(turn.ctx, checked, user_kind=user_kind, note=note)


def _pinned(turn: Turn, state: TurnState, step: PlanStep) -> _Pinned | _RunsWithout | str:
    """The items the step's approval shows; `_RunsWithout` when no question is asked; the reply to
    send instead when the request's own limit picks none of them out."""
    args = state.executor_args[step.id]
    ids = affected.ids_in(step, args)
    if ids and set(ids) <= set(selected_ids_from_results(state)) and all(split_scoped(i)[1] for i in ids):
        # "This one / the whole series?" answered: the person picked exactly this part of the
        # reminder from a question that showed it; that answer is its approval.
        return _RunsWithout(state)
    current = turn.current_items(state, step, args)
    if ids is None:
        ids = [c.id for c in current]
    by_id = {c.id: c for c in current}
    # A repeating reminder's id may name its part ("#series"): it is still that reminder, shown
    # and asked about like any item (the part it touches is in its description).
    items = [_scoped(by_id[affected.base_id(i)], i, state) for i in ids if affected.base_id(i) in by_id]
    if not items:
        # Nothing there to touch ("delete all" with no reminders): the step runs and says so.
        if ids:
            return _RunsWithout(state)
        return _RunsWithout(state.with_executor_args(step.id, affected.with_ids(step, args, [])))
    left: str | None = None
    if len(items) >= len(current):
        # "Delete all my reminders except call mom", "... for tomorrow": the request's own
        # words narrow the items first (an approval narrowed by an answer is not re-read).
        limited = _limited(step, items, current, state, turn)
        if isinstance(limited, str):
            return limited
        items, left = limited
        if left is not None and not items:
            return left  # only repeating reminders that day: nothing runs
    state = state.with_executor_args(step.id, affected.with_ids(step, args, [c.id for c in items]))
    return _Pinned(state, items, len(items) >= len(current), left)


def _series_left_out(
    step: PlanStep,
    items: list[DisambiguationCandidate],
    current: list[DisambiguationCandidate],
    state: TurnState,
    turn: Turn,
) -> tuple[list[DisambiguationCandidate], str | None]:
    """ "delete all my reminders for tomorrow": the repeating reminders that come that day (their
    next time or a later one) are left out, since deleting one stops it for good, far past the day
    said; the rest, and what to say of those left out (None: none)."""
    only = step.constraints.get("only")
    if step.capability != "reminders" or not isinstance(only, str) or not only:
        return items, None
    tz, language = state.input.timezone, state.input.language
    day = narrowing.day_named(only, now=turn.ctx.now, timezone=tz, language=language)
    if day is None:
        return items, None
    repeating = {c.id for c in current if templates.NEXT_TIME in c.data}  # a series that goes on
    that_day = repeating & (turn.series_on(state, day) | {affected.base_id(c.id) for c in items})
    if not that_day:
        return items, None
    kept = [c for c in items if affected.base_id(c.id) not in repeating]
    said = templates.day_said(only)
    titles = [c.label for c in current if c.id in that_day]
    return kept, templates.series_left_out(titles, said, language, alone=not kept)


def _other_removals(turn: Turn, state: TurnState, origin: str) -> tuple[TurnState, list[Removal]]:
    """The items of the plan's other steps that take items away, each step's args pinned to
    them (what the approval shows is what runs); steps whose items cannot be listed are said
    as a phrase instead (`gate.along`)."""
    output = state.planner_output
    assert output is not None
    parts: list[Removal] = []
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
        current = turn.current_items(state, step, args)
        ids = affected.ids_in(step, args)
        if ids is None:
            ids = [c.id for c in current]
        by_id = {c.id: c for c in current}
        items = [_scoped(by_id[affected.base_id(i)], i, state) for i in ids if affected.base_id(i) in by_id]
        if items:
            state = state.with_executor_args(step.id, affected.with_ids(step, args, [c.id for c in items]))
            parts.append((gate.as_resolved(state, step), items))
    return state, parts


def _scoped(candidate: DisambiguationCandidate, held: str, state: TurnState) -> DisambiguationCandidate:
    """A repeating reminder shown for approval says which part goes: its next time skipped once
    (shown by that time, `templates.SKIPPED_ONCE`), or the whole series."""
    _, scope = split_scoped(held)
    data = {k: v for k, v in candidate.data.items() if k != templates.NEXT_TIME}
    next_time = candidate.data.get(templates.NEXT_TIME)
    if next_time is not None and scope != OCCURRENCE:
        data[templates.GOES_ON] = True  # "only tomorrow" names one of its times, not the series
    if scope is None:
        return candidate.model_copy(update={"data": data})
    he = state.input.language == "he"
    if scope == OCCURRENCE and isinstance(next_time, str):
        return candidate.model_copy(
            update={"description": next_time, "data": {**data, templates.SKIPPED_ONCE: True}}
        )
    if scope == OCCURRENCE:
        part = "רק הפעם הבאה" if he else "only the next time"
    else:
        part = "כל הסדרה" if he else "the whole series"
    return candidate.model_copy(update={"description": f"{candidate.description} — {part}", "data": data})


def _limited(
    step: PlanStep,
    items: list[DisambiguationCandidate],
    current: list[DisambiguationCandidate],
    state: TurnState,
    turn: Turn,
) -> tuple[list[DisambiguationCandidate], str | None] | str:
    """The items a "delete all" / "clear" keeps to after its own limit ("except call mom": all
    but it; "for tomorrow": only those, its repeating reminders left out and said so), read as an
    approval's narrowing reads it; the reply to send instead when the words pick none of the items
    out, or leave none (nothing runs)."""
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
        return items, None
    now = turn.ctx.now
    narrowed = narrowing.parse(
        words, items, now=now, timezone=state.input.timezone, language=language, removal=True
    )
    if narrowed is None or narrowed.unresolved:
        if isinstance(only, str) and only and not (isinstance(keep, str) and keep):
            # "... for friday" with only a daily reminder that day: left out, and said so.
            _, left = _series_left_out(step, [], current, state, turn)
            if left is not None:
                return left
            return _names_not_found(only, items, state, now) or templates.names_not_found(
                [], [templates.day_said(only)], language
            )
        return templates.limit_unclear(keep if isinstance(keep, str) and keep else str(only), language)
    if narrowed.empty:
        return templates.narrowing_empty(language)
    return _series_left_out(step, [c for c in items if c.id in narrowed.ids], current, state, turn)


#: Between the names of a request that names several things ("the bank and dad", Hebrew "הבנק והמתנה").
_NAMES_JOINED = re.compile(r"\s*,\s*|\s+and\s+|\s+ו(?=[^\sו])", re.I)


def _names_not_found(
    only: str, items: list[DisambiguationCandidate], state: TurnState, now: datetime
) -> str | None:
    """When the names of a limit ("the bank and the windows") are several and some pick nothing:
    the reply naming what was found and what was not (nothing runs). None for one name."""
    names = [name for name in _NAMES_JOINED.split(only) if name.strip()]
    if len(names) < 2:
        return None
    language = state.input.language
    found: list[str] = []
    missing: list[str] = []
    for name in names:
        narrowed = narrowing.parse(
            f"רק {name}" if language == "he" else f"only {name}",
            items,
            now=now,
            timezone=state.input.timezone,
            language=language,
            removal=True,
        )
        if narrowed is None or narrowed.unresolved or narrowed.empty:
            missing.append(name)
        else:
            found.extend(c.label for c in items if c.id in narrowed.ids and c.label not in found)
    return templates.names_not_found(found, missing, language) if missing else None


def named_by_review(turn: Turn, state: TurnState, step_ids: list[str]) -> bool:
    """Whether a rule of the review policy names one of these steps, as resolved."""
    output = state.planner_output
    if output is None:
        return False
    policy = turn.ports.review_policy
    for step_id in step_ids:
        step, args = output.step(step_id), state.executor_args.get(step_id)
        if step is not None and args is not None and policy.rule_for(step.capability, step.action, args):
            return True
    return False


def first_reviewed(turn: Turn, state: TurnState) -> str | None:
    """The first ready step a rule of the review policy names, or None."""
    output = state.planner_output
    if output is None:
        return None
    ready = [s.id for s in output.plan if s.id in state.executor_args and s.id not in state.execution_results]
    return next((step_id for step_id in ready if named_by_review(turn, state, [step_id])), None)


def rule_broken(
    turn: Turn,
    state: TurnState,
    *,
    approved: PendingHITL | None,
    user_kind: MemoryKind,
    note: str | None,
) -> TurnOutcome | None:
    """The turn's answer to a request that breaks a rule (see the module), or None when it keeps
    them all or its violation was approved for an operator's review in this turn."""
    if approved is not None and approved.reason == "policy_violation":
        return None
    ctx = turn.ctx
    broken = broken_rule(turn.ports.request_rules, state, ctx.now)
    if broken is None:
        return None
    count("PolicyViolations")
    language = state.input.language
    why = broken.words(language)
    if "policy_violation" not in turn.ports.review_policy.reasons:
        logger.info("POLICY_VIOLATION", extra={"rule": broken.rule, "limit": broken.limit, "asked": False})
        text = "\n".join(t for t in (note, why) if t)
        return TurnOutcome(reply=Reply.plain(text), outcome="policy_violation", user_kind=user_kind)
    logger.info("POLICY_VIOLATION", extra={"rule": broken.rule, "limit": broken.limit, "asked": True})
    # The whole request is what breaks the rule: the question covers every step of it ("planner").
    checked = gate.request_tool_review(
        state, step_id="planner", reason="policy_violation", now=ctx.now, ttl_seconds=turn.ttl
    )
    checked = gate.reworded(
        checked,
        templates.policy_violation_question(language, why),
        options=[o for o in templates.approval_options(language) if o.id != templates.EDIT_ID],
    )
    return pause(ctx, checked, user_kind=user_kind, note=note)


def day_out_of_reach(turn: Turn, state: TurnState, *, user_kind: MemoryKind) -> TurnOutcome | None:
    """The answer to a reminder whose day is past the rule's reach, said before its time is asked;
    None for any other request."""
    broken = day_too_far(turn.ports.request_rules, state, turn.ctx.now)
    if broken is None:
        return None
    count("PolicyViolations")
    logger.info("POLICY_VIOLATION", extra={"rule": broken.rule, "limit": broken.limit, "asked": False})
    words = broken.words(state.input.language)
    return TurnOutcome(reply=Reply.plain(words), outcome="policy_violation", user_kind=user_kind)
