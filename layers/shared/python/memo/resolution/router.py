"""The resolver router: dependency groups of a plan, and `resolve_all` over them.

`dependency_groups(plan)` orders the plan into groups: a step is in the first group after all of
its `dependsOn` steps; steps of one group are independent of each other (plan order is kept within
a group). The executor state machine runs the same groups: in order, the steps of a group in
parallel.

`resolve_all(state, resolvers)` runs the resolver of every step, group by group, the steps of a
group together on a small thread pool, and stores each result in `state.resolverResults[stepId]`.
A step that already has a result for the same step fingerprint is not resolved again (a resume
goes on from the cached results; a step changed by an edit is resolved anew).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

from memo.domain import PlanStep, TurnInput, TurnState
from memo.observability import logger, mask_phone
from memo.resolution.resolvers import Resolver, ResolverResult, default_resolvers, unsupported_capability

DEFAULT_MAX_WORKERS = 4


class DependencyCycle(ValueError):
    """The plan's dependsOn links form a cycle: no order can satisfy them."""

    def __init__(self, step_ids: list[str]) -> None:
        super().__init__(f"dependency cycle among steps {step_ids}")
        self.step_ids = step_ids


def dependency_groups(plan: Sequence[PlanStep]) -> list[list[PlanStep]]:
    """Steps grouped by dependency depth, in order; raises DependencyCycle for a cyclic plan."""
    known = {step.id for step in plan}
    placed: set[str] = set()
    remaining = list(plan)
    groups: list[list[PlanStep]] = []
    while remaining:
        group = [s for s in remaining if all(dep in placed or dep not in known for dep in s.depends_on)]
        if not group:
            raise DependencyCycle([s.id for s in remaining])
        groups.append(group)
        placed.update(s.id for s in group)
        remaining = [s for s in remaining if s.id not in placed]
    return groups


def cached_result(state: TurnState, step: PlanStep) -> ResolverResult | None:
    """The stored result of `step`, if it was computed for this very step (same fingerprint)."""
    raw = state.resolver_results.get(step.id)
    if raw is None:
        return None
    result = ResolverResult.from_json(raw)
    return result if result.fingerprint == step.fingerprint() else None


def _resolve_one(step: PlanStep, inp: TurnInput, resolvers: Mapping[str, Resolver]) -> ResolverResult:
    resolver = resolvers.get(step.capability)
    if resolver is None:
        return unsupported_capability(step, inp.language)
    return resolver.resolve(step, inp)


def resolve_all(
    state: TurnState,
    resolvers: Mapping[str, Resolver] | None = None,
    *,
    max_workers: int = DEFAULT_MAX_WORKERS,
) -> TurnState:
    """Resolve every step of the plan that has no cached result; returns the updated state."""
    output = state.planner_output
    if output is None:
        raise ValueError("resolve_all needs state.plannerOutput")
    table = resolvers if resolvers is not None else default_resolvers()
    log = {"traceId": state.trace_id, "threadId": mask_phone(state.thread_id)}
    inp = state.input
    for index, group in enumerate(dependency_groups(output.plan)):
        todo = [step for step in group if cached_result(state, step) is None]
        hits = [step.id for step in group if step not in todo]
        if hits:
            logger.debug("RESOLVER_CACHE_HIT", extra={**log, "group": index, "stepIds": hits})
        if not todo:
            continue
        if len(todo) == 1:
            results = [_resolve_one(todo[0], inp, table)]
        else:
            with ThreadPoolExecutor(max_workers=min(max_workers, len(todo))) as pool:
                results = list(pool.map(lambda s: _resolve_one(s, inp, table), todo))
        for result in results:
            state = state.with_resolver_result(result.step_id, result.to_json())
        logger.info(
            "RESOLVERS_RAN",
            extra={
                **log,
                "group": index,
                "stepIds": [r.step_id for r in results],
                "errors": [r.error_code for r in results if r.error_code],
            },
        )
    return state
