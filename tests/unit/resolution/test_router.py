from __future__ import annotations

import threading

import pytest

from memo.domain import PlanStep, TurnInput
from memo.resolution.resolvers import ResolverResult, default_resolvers
from memo.resolution.router import DependencyCycle, dependency_groups, resolve_all
from tests.unit.resolution.helpers import state_for, step


def ids(groups: list[list[PlanStep]]) -> list[list[str]]:
    return [[s.id for s in g] for g in groups]


def test_independent_steps_share_a_group_and_dependents_come_after() -> None:
    plan = [
        step("a", "notes", "save", changes={"text": "x"}),
        step("b", "lists", "add", constraints={"listName": "shopping"}, changes={"items": ["milk"]}),
        step("c", "lists", "show", ["b"], constraints={"listName": "shopping"}),
        step("d", "notes", "search", ["a", "c"], constraints={"query": "x"}),
    ]
    assert ids(dependency_groups(plan)) == [["a", "b"], ["c"], ["d"]]


def test_a_cycle_is_refused() -> None:
    plan = [step("a", "notes", "save", ["b"]), step("b", "notes", "save", ["a"])]
    with pytest.raises(DependencyCycle):
        dependency_groups(plan)


class CountingResolver:
    capability = "notes"

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.inner = default_resolvers()["notes"]

    def resolve(self, plan_step: PlanStep, inp: TurnInput) -> ResolverResult:
        self.calls.append(plan_step.id)
        return self.inner.resolve(plan_step, inp)


def test_second_resolve_is_a_cache_hit_and_a_changed_step_is_resolved_again() -> None:
    counting = CountingResolver()
    state = state_for(
        step("s1", "notes", "save", changes={"text": "wifi password is 1234"}),
        step("s2", "notes", "search", ["s1"], constraints={"query": "wifi"}),
    )
    first = resolve_all(state, {"notes": counting})
    assert sorted(counting.calls) == ["s1", "s2"]
    assert first.resolver_results["s1"]["args"] == {"text": "wifi password is 1234"}

    again = resolve_all(first, {"notes": counting})
    assert sorted(counting.calls) == ["s1", "s2"]  # nothing ran again
    assert again.resolver_results == first.resolver_results

    output = again.planner_output
    assert output is not None
    edited = [
        s.model_copy(update={"changes": {"text": "wifi is 5678"}}) if s.id == "s1" else s for s in output.plan
    ]
    changed = again.model_copy(update={"planner_output": output.model_copy(update={"plan": edited})})
    third = resolve_all(changed, {"notes": counting})
    assert sorted(counting.calls) == ["s1", "s1", "s2"]
    assert third.resolver_results["s1"]["args"] == {"text": "wifi is 5678"}


class BarrierResolver:
    """Both steps of a group must be inside resolve at once, or the barrier breaks."""

    capability = "notes"

    def __init__(self, parties: int) -> None:
        self.barrier = threading.Barrier(parties, timeout=5)
        self.inner = default_resolvers()["notes"]

    def resolve(self, plan_step: PlanStep, inp: TurnInput) -> ResolverResult:
        self.barrier.wait()
        return self.inner.resolve(plan_step, inp)


def test_steps_of_one_group_are_resolved_together() -> None:
    state = state_for(
        step("s1", "notes", "save", changes={"text": "one"}),
        step("s2", "notes", "save", changes={"text": "two"}),
    )
    resolved = resolve_all(state, {"notes": BarrierResolver(2)})
    assert set(resolved.resolver_results) == {"s1", "s2"}


def test_a_capability_without_resolver_is_a_failed_result() -> None:
    state = resolve_all(state_for(step("s1", "calendar", "create", constraints={"text": "x"})))
    assert state.resolver_results["s1"]["errorCode"] == "UNSUPPORTED_CAPABILITY"
