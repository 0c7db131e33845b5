"""The answer to an entity disambiguation, turned into executor args.

On resume, `apply_selection(state, selected_ids, pending=...)` writes the disambiguated step's
executor args from the candidates frozen in the pending question (never querying again) and clears
`state.disambiguation`; `resolve_entities` then runs again for the steps still open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memo.domain import DisambiguationCandidate, PendingHITL, TurnState
from memo.observability import logger, mask_phone
from memo.resolution.executor_args import executor_args_for


class SelectionError(ValueError):
    """A disambiguation answer that does not fit the frozen candidates."""


def selected_ids_from_results(state: TurnState, hitl_id: str | None = None) -> list[str]:
    """The chosen candidate ids stored by the resume (`hitlResults[..].parsed.candidateIds`)."""
    entries = [
        (key, entry)
        for key, entry in state.hitl_results.items()
        if entry.return_to is not None
        and entry.return_to.node == "entity_resolution"
        and (hitl_id is None or key == hitl_id)
    ]
    if not entries:
        return []
    # In the order answered: of two answered at the same instant, the later.
    _, (_, latest) = max(enumerate(entries), key=lambda pair: (pair[1][1].at, pair[0]))
    parsed = latest.parsed if isinstance(latest.parsed, dict) else {}
    ids = parsed.get("candidateIds", [])
    return [str(i) for i in ids] if isinstance(ids, list) else []


@dataclass(frozen=True)
class _Question:
    """The disambiguation being answered, as it was frozen when asked."""

    step_id: str
    candidates: list[DisambiguationCandidate]
    allow_multiple: bool
    original_args: dict[str, Any]


def _question(state: TurnState, pending: PendingHITL | None) -> _Question:
    context = pending.context if pending is not None else None
    if context is not None and context.candidates and context.resolver_step_id:
        return _Question(
            context.resolver_step_id,
            list(context.candidates),
            bool(context.allow_multiple),
            dict(context.original_args or {}),
        )
    if state.disambiguation is not None:
        d = state.disambiguation
        return _Question(d.resolver_step_id, list(d.candidates), d.allow_multiple, dict(d.original_args))
    raise SelectionError("no disambiguation to apply a selection to")


def apply_selection(
    state: TurnState,
    selected_ids: Sequence[str] | None = None,
    *,
    pending: PendingHITL | None = None,
) -> TurnState:
    """Write executor args for the disambiguated step from the user's choice and clear
    `state.disambiguation`.

    The candidates are the ones frozen in `pending.context` (the consumed pending question) or,
    without it, in `state.disambiguation` (frozen in the same item). `selected_ids` default to the
    resume's `hitlResults` entry. The repository is never queried: the ids chosen are the ids
    shown. Raises SelectionError for ids that were not offered, or several ids for a pick_one.
    """
    question = _question(state, pending)
    chosen = (
        list(selected_ids)
        if selected_ids is not None
        else selected_ids_from_results(state, pending.hitl_id if pending is not None else None)
    )
    chosen = list(dict.fromkeys(chosen))
    offered = {c.id for c in question.candidates}
    if not chosen:
        raise SelectionError("no candidate was selected")
    if any(i not in offered for i in chosen):
        raise SelectionError("a selected id was not among the candidates")
    if len(chosen) > 1 and not question.allow_multiple:
        raise SelectionError("several candidates selected for a single choice")
    output = state.planner_output
    step = output.step(question.step_id) if output is not None else None
    if step is None:
        raise SelectionError(f"step {question.step_id} is not in the plan")
    order = {c.id: index for index, c in enumerate(question.candidates)}
    chosen.sort(key=order.__getitem__)
    args = executor_args_for(step, dict(question.original_args), chosen)
    logger.info(
        "ENTITY_SELECTION_APPLIED",
        extra={
            "traceId": state.trace_id,
            "threadId": mask_phone(state.thread_id),
            "stepId": question.step_id,
            "count": len(chosen),
        },
    )
    return state.with_executor_args(question.step_id, args).with_disambiguation(None)
