"""What an approval is about: the concrete items a resolved step will touch.

An approval is asked after resolution (resolve, then ask): the question lists the items by title and
time, and an answer can only keep some of them. These pure helpers read and rewrite the entity ids of
a step's executor args:
- `id_key(step)`: the args key holding the ids the step touches (None for steps that touch no
  existing item, such as create / save / add);
- `ids_in(step, args)`: those ids (None when the args name no pinned set);
- `with_ids(step, args, ids)`: the same args narrowed to `ids` (checked against the action's model);
- `changes_since(shown, current)`: what happened to the shown items meanwhile (deleted, renamed).

A request to take items away whose scope is broad and unstated ("delete my reminders", "תמחק את
התזכורות שלי"; the planner marks it `SCOPE_UNSTATED`) and that matches several items: before its
approval, the turn asks which of them it means (HITL reason `ambiguous_scope`, kind clarification,
returnTo resolver_router / continue): "All 7 reminders, or which ones?", the items numbered.

The answer is read as a pick's answer is (deterministic only, `memo.hitl.resume`): "all" / "כולן",
numbers ("2", "1 3"), names or times keep those items; a cancel word cancels; anything unclear is
asked again; a request of its own is planned as one. Kept items are a part of those shown (the
step's args are narrowed to them, never widened), and the request then goes on to its approval,
which lists exactly them: nothing is deleted on the scope answer alone.
The scope question is `build_scope_hitl`; `asks_scope` says when it is asked, `answered` drops the
unstated scope from the step once answered.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from memo.capabilities.common import TAKES_AWAY
from memo.capabilities.dispatch import ARGS_MODELS
from memo.capabilities.reminder_args import split_scoped
from memo.domain import DisambiguationCandidate, PendingHITL, PendingHITLContext, PlanStep, TurnState
from memo.hitl import templates
from memo.hitl.reasons import return_to_for
from memo.hitl.transitions import ResumeOutcome
from memo.planner.intents.reminder_deletes import SCOPE_UNSTATED

_ID_KEYS: dict[tuple[str, str], str] = {
    ("reminders", "delete"): "reminderIds",
    ("reminders", "delete_all"): "reminderIds",
    ("reminders", "update"): "reminderIds",
    ("notes", "delete"): "noteIds",
    ("notes", "update"): "noteIds",
    ("notes", "delete_all"): "noteIds",
    ("lists", "remove"): "itemIds",
    ("lists", "clear"): "itemIds",
}

#: Actions that only take items away: an answer can narrow them, never give them a time or a title.
DESTRUCTIVE_ACTIONS = TAKES_AWAY


def id_key(step: PlanStep) -> str | None:
    """The executor args key with the ids of the items the step touches, if it touches any."""
    return _ID_KEYS.get((step.capability, step.action))


def ids_in(step: PlanStep, args: dict[str, Any]) -> list[str] | None:
    key = id_key(step)
    if key is None:
        return None
    value = args.get(key)
    if not isinstance(value, list):
        return None
    return [str(v) for v in value]


def base_id(value: str) -> str:
    """The item's own id of an id the args hold: a repeating reminder's may carry the part it
    touches ("<id>#series", "<id>#occurrence": `memo.capabilities.reminders.split_scoped`)."""
    return split_scoped(value)[0]


def with_ids(step: PlanStep, args: dict[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """`args` touching exactly `ids` (in the given order), validated by the action's args model.
    An id the args already hold with its part of a repeating reminder keeps that part: narrowing
    "just this one" never widens it to the whole series."""
    key = id_key(step)
    if key is None:
        raise ValueError(f"{step.capability}/{step.action} touches no existing items")
    held = args.get(key)
    scoped = {base_id(str(v)): str(v) for v in held} if isinstance(held, list) else {}
    narrowed = {**args, key: list(dict.fromkeys(scoped.get(base_id(i), i) for i in ids))}
    model = ARGS_MODELS[(step.capability, step.action)]
    return model.model_validate(narrowed).to_json()


@dataclass(frozen=True)
class Changes:
    """Shown items that no longer exist, and shown items whose title changed (old, new)."""

    gone: tuple[DisambiguationCandidate, ...] = ()
    renamed: tuple[tuple[DisambiguationCandidate, DisambiguationCandidate], ...] = ()

    @property
    def any(self) -> bool:
        return bool(self.gone or self.renamed)


def changes_since(
    shown: Sequence[DisambiguationCandidate], current: Sequence[DisambiguationCandidate]
) -> Changes:
    """Compare the items a question showed with the user's items now (by id, then by title)."""
    now_by_id = {c.id: c for c in current}
    gone: list[DisambiguationCandidate] = []
    renamed: list[tuple[DisambiguationCandidate, DisambiguationCandidate]] = []
    for item in shown:
        found = now_by_id.get(item.id)
        if found is None:
            gone.append(item)
        elif found.label != item.label:
            renamed.append((item, found))
    return Changes(gone=tuple(gone), renamed=tuple(renamed))


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
