"""A request to take items away whose scope is broad and unstated ("delete my reminders", "תמחק את
התזכורות שלי"; the planner marks it `SCOPE_UNSTATED`) and that matches several items: before its
approval, the turn asks which of them it means (HITL reason `ambiguous_scope`, kind clarification,
returnTo resolver_router / continue): "All 7 reminders, or which ones?", the items numbered.

The answer is read as a pick's answer is (deterministic only, `memo.hitl.resume`): "all" / "כולן",
numbers ("2", "1 3"), names or times keep those items; a cancel word cancels; anything unclear is
asked again; a request of its own is planned as one. Kept items are a part of those shown (the
step's args are narrowed to them, never widened), and the request then goes on to its approval,
which lists exactly them: nothing is deleted on the scope answer alone.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta

from memo.domain import DisambiguationCandidate, PendingHITL, PendingHITLContext, PlanStep, TurnState
from memo.hitl import templates
from memo.hitl.reasons import return_to_for
from memo.hitl.transitions import ResumeOutcome
from memo.planner.intents.reminder_deletes import SCOPE_UNSTATED

__all__ = ["SCOPE_UNSTATED", "answered", "asks_scope", "build_scope_hitl"]


def asks_scope(step: PlanStep, items: list[DisambiguationCandidate]) -> bool:
    """Whether the step's scope is to be asked: unstated, and more than one item matches."""
    return bool(step.constraints.get(SCOPE_UNSTATED)) and len(items) > 1


def build_scope_hitl(
    state: TurnState,
    step: PlanStep,
    items: list[DisambiguationCandidate],
    *,
    now: datetime,
    ttl_seconds: int,
    hitl_id: str | None = None,
) -> PendingHITL:
    """The scope question over `items` (every one the request matches; the list shows the first
    rows, "all" means every one of them)."""
    options = templates.candidate_options(items)
    lines = [f"{o.id}. {o.label}" + (f" — {o.description}" if o.description else "") for o in options]
    return PendingHITL(
        hitl_id=hitl_id or str(uuid.uuid4()),
        kind="clarification",
        source="planner",
        reason="ambiguous_scope",
        origin_step_id=step.id,
        return_to=return_to_for("planner", "ambiguous_scope"),
        expected_input="multi_choice",
        question=templates.scope_question(state.input.language, step.capability, lines, len(items)),
        options=options,
        policy_source=None,
        expires_at=now + timedelta(seconds=ttl_seconds),
        context=PendingHITLContext(resolver_step_id=step.id, candidates=list(items), allow_multiple=True),
        created_at=now,
    )


def answered(outcome: ResumeOutcome, pending: PendingHITL) -> ResumeOutcome:
    """A continued answer states the scope: the step no longer asks it (its items are the kept ones)."""
    output = outcome.state.planner_output
    if outcome.decision != "continue" or output is None:
        return outcome
    plan = [
        step.model_copy(
            update={"constraints": {k: v for k, v in step.constraints.items() if k != SCOPE_UNSTATED}}
        )
        if step.id == pending.origin_step_id
        else step
        for step in output.plan
    ]
    state = outcome.state.model_copy(update={"planner_output": output.model_copy(update={"plan": plan})})
    return replace(outcome, state=state)
