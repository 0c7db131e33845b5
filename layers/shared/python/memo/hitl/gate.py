"""The HITL gate, forward path: decide whether a turn must pause, and build the one PendingHITL.

Planner trigger rules, in their fixed priority order (`planner_trigger`):
1. missingFields has `intent_unclear`   -> intent_unclear       (clarification)
2. confidence < 0.7                      -> low_confidence_plan  (clarification)
3. missingFields not empty               -> missing_fields       (clarification)
4. riskLevel == "high"                   -> high_risk            (approval)
5. needsApproval                         -> needs_approval       (approval)
6. otherwise no HITL.
Entity disambiguation (`check_disambiguation`): unresolved `state.disambiguation` -> disambiguation.

What each reason asks (kind, returnTo, options, question text) is `memo.hitl.reasons`; an optional
`QuestionWriter` (e.g. an LLM) may reword the question text of planner HITLs and nothing else;
disambiguation never uses it.
The multi-HITL guard: when a pending question already exists, a new trigger logs
HITL_DUPLICATE_ATTEMPT (with the existing hitlId) and is not installed; the existing question stays
and the turn sends it again. Approvals of plans are built after resolution (`build_approval_hitl`:
the question lists the exact items); the expiry message's "Try again" is `build_retry_hitl`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from memo.capabilities.common import TAKES_AWAY
from memo.domain import (
    DisambiguationCandidate,
    HITLKind,
    HITLReason,
    HITLReturnTo,
    HITLSource,
    PendingHITL,
    PendingHITLContext,
    PlannerOutput,
    PlanStep,
    TurnState,
)
from memo.hitl import templates
from memo.hitl.missing import asked_step_id
from memo.hitl.reasons import (
    KIND_BY_REASON,
    QuestionDraft,
    QuestionWriter,
    expected_input_for,
    options_for,
    policy_source_for,
    question_for,
    return_to_for,
)
from memo.observability import logger, mask_phone

#: Below this planner confidence the gate asks `low_confidence_plan`.
CONFIDENCE_THRESHOLD = 0.7
DEFAULT_TTL_SECONDS = 300

_RISKY_ACTIONS = ("delete_all", "clear", "delete", "remove", "send", "update")
#: Actions that take items away: each one's items are listed in the approval that lets it run.
DESTRUCTIVE_ACTIONS = TAKES_AWAY
#: The key of a combined approval's candidate that names the step the item belongs to.
PLAN_STEP_KEY = "step"


@dataclass(frozen=True)
class PlannerTrigger:
    reason: HITLReason
    kind: HITLKind


@dataclass(frozen=True)
class GateResult:
    """`state` carries `pendingHITL` when the turn must pause. `pending` is the question to send
    when `created`; on a duplicate attempt it is the existing question and nothing is sent again."""

    state: TurnState
    pending: PendingHITL | None
    created: bool = False
    duplicate: bool = False

    @property
    def must_pause(self) -> bool:
        return self.pending is not None


def reworded(result: GateResult, question: str, **update: Any) -> GateResult:
    """`result` with the question it just created worded as given (and any other field of it, e.g.
    its options); a question it did not create (already open, or none) is left as it is."""
    if not result.created or result.pending is None:
        return result
    pending = result.pending.model_copy(update={"question": question, **update})
    return GateResult(
        state=result.state.model_copy(update={"pending_hitl": pending}), pending=pending, created=True
    )


def planner_trigger(output: PlannerOutput) -> PlannerTrigger | None:
    """The planner HITL trigger, in the fixed priority order above, or None to continue."""
    reason: HITLReason | None = None
    if "intent_unclear" in output.missing_fields:
        reason = "intent_unclear"
    elif output.confidence < CONFIDENCE_THRESHOLD:
        reason = "low_confidence_plan"
    elif output.missing_fields:
        reason = "missing_fields"
    elif output.risk_level == "high":
        reason = "high_risk"
    elif output.needs_approval:
        reason = "needs_approval"
    if reason is None:
        return None
    return PlannerTrigger(reason=reason, kind=KIND_BY_REASON[reason])


def origin_step_id_for(output: PlannerOutput | None, reason: HITLReason) -> str:
    """The triggering step: for approvals the riskiest step, otherwise the first; "planner" if none."""
    if output is None or not output.plan:
        return "planner"
    if KIND_BY_REASON[reason] == "approval":
        for action in _RISKY_ACTIONS:
            for step in output.plan:
                if step.action == action:
                    return step.id
    if reason == "missing_fields":
        return asked_step_id(output)
    return output.plan[0].id


def _log_fields(state: TurnState) -> dict[str, str]:
    return {"traceId": state.trace_id, "threadId": mask_phone(state.thread_id)}


def expired_question(state: TurnState, now: datetime) -> PendingHITL | None:
    """The pending question of `state` if it is past its expiry at `now` (HITL_EXPIRED is logged);
    None when there is none or it is live (`PendingHITL.is_live`)."""
    pending = state.pending_hitl
    if pending is None or pending.is_live(now):
        return None
    logger.info(
        "HITL_EXPIRED",
        extra={**_log_fields(state), "hitlId": pending.hitl_id, "originStepId": pending.origin_step_id},
    )
    return pending


def _expire_if_needed(state: TurnState, now: datetime) -> TurnState:
    """Defence in depth: a pending question past expiresAt never blocks or answers anything."""
    if expired_question(state, now) is None:
        return state
    return state.model_copy(update={"pending_hitl": None})


def _install(state: TurnState, pending: PendingHITL) -> GateResult:
    existing = state.pending_hitl
    if existing is not None:
        logger.warning(
            "HITL_DUPLICATE_ATTEMPT",
            extra={**_log_fields(state), "existingHitlId": existing.hitl_id, "newSource": pending.source},
        )
        return GateResult(state=state, pending=existing, created=False, duplicate=True)
    logger.info(
        "HITL_CREATED",
        extra={
            **_log_fields(state),
            "hitlId": pending.hitl_id,
            "kind": pending.kind,
            "reason": pending.reason,
            "source": pending.source,
            "returnTo": pending.return_to.model_dump(mode="json"),
            "policySource": pending.policy_source,
        },
    )
    return GateResult(state=state.model_copy(update={"pending_hitl": pending}), pending=pending, created=True)


def build_planner_hitl(
    state: TurnState,
    reason: HITLReason,
    *,
    now: datetime,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    source: HITLSource = "planner",
    origin_step_id: str | None = None,
    hitl_id: str | None = None,
    question_writer: QuestionWriter | None = None,
) -> PendingHITL:
    """Build (not install) a planner / tool-policy PendingHITL for `reason`."""
    if reason == "disambiguation":
        raise ValueError("disambiguation HITLs are built by build_disambiguation_hitl")
    output = state.planner_output
    origin = origin_step_id or origin_step_id_for(output, reason)
    step = output.step(origin) if output is not None else None
    question, summary = question_for(state, reason, step)
    kind = KIND_BY_REASON[reason]
    if question_writer is not None:
        worded = question_writer(
            QuestionDraft(
                kind=kind,
                reason=reason,
                language=state.input.language,
                default_text=question,
                summary=summary,
            )
        )
        if isinstance(worded, str) and 0 < len(worded.strip()) <= 1000:
            question = worded.strip()
    context = PendingHITLContext(
        missing_fields=list(output.missing_fields)
        if output is not None and reason == "missing_fields"
        else None,
        step_fingerprint=step.fingerprint() if step is not None and kind == "approval" else None,
    )
    return PendingHITL(
        hitl_id=hitl_id or str(uuid.uuid4()),
        kind=kind,
        source=source,
        reason=reason,
        origin_step_id=origin,
        return_to=return_to_for(source, reason),
        expected_input=expected_input_for(reason),
        question=question,
        options=options_for(reason, state.input.language),
        policy_source=policy_source_for(source, reason),
        expires_at=now + timedelta(seconds=ttl_seconds),
        context=context,
        created_at=now,
    )


def check_planner(
    state: TurnState,
    *,
    now: datetime,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    hitl_id: str | None = None,
    question_writer: QuestionWriter | None = None,
) -> GateResult:
    """After the planner (and the capability check): pause with a planner HITL if a rule fires."""
    state = _expire_if_needed(state, now)
    output = state.planner_output
    if output is None:
        raise ValueError("check_planner needs state.plannerOutput")
    trigger = planner_trigger(output)
    if trigger is None:
        return GateResult(state=state, pending=state.pending_hitl)
    pending = build_planner_hitl(
        state,
        trigger.reason,
        now=now,
        ttl_seconds=ttl_seconds,
        hitl_id=hitl_id,
        question_writer=question_writer,
    )
    return _install(state, pending)


def request_tool_review(
    state: TurnState,
    *,
    step_id: str,
    reason: Literal["tool_requires_review", "policy_violation", "confirmation"],
    now: datetime,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    hitl_id: str | None = None,
) -> GateResult:
    """A tool policy asks the user to approve one step, or (`step_id` "planner") the whole plan
    (policySource tool_policy): `memo.turn.approval` asks it for a request that breaks a rule."""
    state = _expire_if_needed(state, now)
    source: HITLSource = "planner" if reason == "confirmation" else "tool_policy"
    pending = build_planner_hitl(
        state,
        reason,
        now=now,
        ttl_seconds=ttl_seconds,
        source=source,
        origin_step_id=step_id,
        hitl_id=hitl_id,
    )
    return _install(state, pending)


def needs_disambiguation(state: TurnState) -> bool:
    """Unresolved candidates: a disambiguation whose step has no executor args yet."""
    disambiguation = state.disambiguation
    return disambiguation is not None and disambiguation.resolver_step_id not in state.executor_args


def build_disambiguation_hitl(
    state: TurnState, *, now: datetime, ttl_seconds: int = DEFAULT_TTL_SECONDS, hitl_id: str | None = None
) -> PendingHITL:
    """A template-only question with one option per candidate (at most 10); no LLM involved."""
    disambiguation = state.disambiguation
    if disambiguation is None:
        raise ValueError("no disambiguation in state")
    # Every match is kept in the context ("all" means all of them); the list shows the first rows.
    candidates = list(disambiguation.candidates)
    options = templates.candidate_options(candidates)
    multiple = disambiguation.allow_multiple and len(options) > 1
    return PendingHITL(
        hitl_id=hitl_id or str(uuid.uuid4()),
        kind="disambiguation",
        source="entity_resolution",
        reason="disambiguation",
        origin_step_id=disambiguation.resolver_step_id,
        return_to=return_to_for("entity_resolution", "disambiguation"),
        expected_input="multi_choice" if multiple else "single_choice",
        question=templates.disambiguation_question(
            state.input.language, options, multiple, total=len(candidates)
        ),
        options=options,
        policy_source=None,
        expires_at=now + timedelta(seconds=ttl_seconds),
        context=PendingHITLContext(
            resolver_step_id=disambiguation.resolver_step_id,
            original_args=dict(disambiguation.original_args),
            candidates=list(candidates),
            allow_multiple=multiple,
            disambiguation_kind=disambiguation.disambiguation_kind,
        ),
        created_at=now,
    )


def approval_trigger(output: PlannerOutput | None) -> PlannerTrigger | None:
    """The plan's approval trigger (high_risk / needs_approval) once no clarification is due."""
    if output is None:
        return None
    trigger = planner_trigger(output)
    return trigger if trigger is not None and trigger.kind == "approval" else None


def as_resolved(state: TurnState, step: PlanStep) -> PlanStep:
    """The step as it will run, for its approval question: a list the request did not name ("clear
    the list") is the one resolution found, never the placeholder."""
    resolved = state.executor_args.get(step.id, {}).get("listName")
    if not isinstance(resolved, str) or resolved == step.constraints.get("listName"):
        return step
    return step.model_copy(update={"constraints": {**step.constraints, "listName": resolved}})


def along(state: TurnState, shown: set[str]) -> list[str]:
    """The rest of the plan, as phrases ("set a reminder “call mom” for ..."): the steps an approval
    does not list item by item, which run (or not) with the same answer."""
    output = state.planner_output
    if output is None:
        return []
    language, tz = state.input.language, state.input.timezone
    return [
        templates.describe_step(as_resolved(state, step), language, tz)
        for step in output.plan
        if step.id not in shown and step.id not in state.execution_results
    ]


def build_plan_approval_hitl(
    state: TurnState,
    reason: HITLReason,
    *,
    parts: list[tuple[PlanStep, list[DisambiguationCandidate]]],
    now: datetime,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    hitl_id: str | None = None,
    source: HITLSource = "planner",
) -> PendingHITL:
    """One approval for a plan that takes items away in several steps: it lists every item of every
    such step and covers the whole plan ("planner"): a yes runs all of it, a no none of it, and an
    answer that keeps some runs only those (each candidate says its step in `data["step"]`). Edit
    is not offered: an edit of one of several steps is no answer this question can take."""
    language = state.input.language
    candidates = [
        c.model_copy(update={"data": {**(c.data or {}), PLAN_STEP_KEY: step.id}})
        for step, items in parts
        for c in items
    ]
    return PendingHITL(
        hitl_id=hitl_id or str(uuid.uuid4()),
        kind="approval",
        source=source,
        reason=reason,
        origin_step_id="planner",
        return_to=return_to_for(source, reason),
        expected_input="yes_no",
        question=templates.approval_steps_question(
            language,
            parts,
            reason,
            state.input.timezone,
            along=along(state, {step.id for step, _ in parts}),
        ),
        options=[o for o in templates.approval_options(language) if o.id != templates.EDIT_ID],
        policy_source=policy_source_for(source, reason),
        context=PendingHITLContext(candidates=candidates),
        expires_at=now + timedelta(seconds=ttl_seconds),
        created_at=now,
    )


def build_approval_hitl(
    state: TurnState,
    reason: HITLReason,
    *,
    origin_step_id: str,
    items: list[DisambiguationCandidate],
    now: datetime,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    hitl_id: str | None = None,
    everything: bool = True,
    source: HITLSource = "planner",
) -> PendingHITL:
    """The approval of a resolved step (resolve, then ask): the question lists `items`, the exact
    things the step will touch, and the context keeps them so an answer can only narrow them.
    `everything`: the items are all a "delete all" / "clear" would touch (not narrowed to some)."""
    output = state.planner_output
    step = output.step(origin_step_id) if output is not None else None
    if step is None:
        raise ValueError(f"step {origin_step_id} is not in the plan")
    language = state.input.language
    step = as_resolved(state, step)
    return PendingHITL(
        hitl_id=hitl_id or str(uuid.uuid4()),
        kind="approval",
        source=source,
        reason=reason,
        origin_step_id=origin_step_id,
        return_to=return_to_for(source, reason),
        expected_input="yes_no",
        question=templates.approval_items_question(
            language,
            step,
            items,
            reason,
            state.input.timezone,
            everything=everything,
            along=along(state, {origin_step_id}),
        ),
        options=templates.approval_options(language),
        policy_source=policy_source_for(source, reason),
        expires_at=now + timedelta(seconds=ttl_seconds),
        context=PendingHITLContext(
            resolver_step_id=origin_step_id,
            candidates=list(items) or None,
            step_fingerprint=step.fingerprint(),
        ),
        created_at=now,
    )


def build_retry_hitl(
    expired: TurnState, *, now: datetime, ttl_seconds: int = DEFAULT_TTL_SECONDS, hitl_id: str | None = None
) -> TurnState:
    """A late answer to an expired question: the expiry message with one "Try again" button, as a
    fresh question whose state is the original request (same traceId), re-planned when tapped."""
    language = expired.input.language
    pending = PendingHITL(
        hitl_id=hitl_id or str(uuid.uuid4()),
        kind="clarification",
        source="planner",
        reason="confirmation",
        origin_step_id="planner",
        return_to=HITLReturnTo(node="planner", mode="replan"),
        expected_input="yes_no",
        question=templates.expired(language),
        options=templates.retry_options(language),
        expires_at=now + timedelta(seconds=ttl_seconds),
        context=PendingHITLContext(awaiting="retry"),
        created_at=now,
    )
    fresh = TurnState(trace_id=expired.trace_id, thread_id=expired.thread_id, input=expired.input)
    logger.info(
        "HITL_CREATED",
        extra={
            **_log_fields(fresh),
            "hitlId": pending.hitl_id,
            "kind": pending.kind,
            "reason": "expired_retry",
            "source": pending.source,
            "returnTo": pending.return_to.model_dump(mode="json"),
        },
    )
    return fresh.model_copy(update={"pending_hitl": pending})


def check_disambiguation(
    state: TurnState, *, now: datetime, ttl_seconds: int = DEFAULT_TTL_SECONDS, hitl_id: str | None = None
) -> GateResult:
    """After entity resolution: pause with a disambiguation question if candidates are unresolved."""
    state = _expire_if_needed(state, now)
    if not needs_disambiguation(state):
        return GateResult(state=state, pending=state.pending_hitl)
    return _install(
        state, build_disambiguation_hitl(state, now=now, ttl_seconds=ttl_seconds, hitl_id=hitl_id)
    )
