"""The executor's input built from a turn: which steps run, in which groups, with which approval and
review."""

from __future__ import annotations

from datetime import timedelta

from memo.domain import PendingHITL, TurnState
from memo.executor.contracts import args_hash
from memo.executor.tasks import build_execution
from memo.hitl import gate
from memo.operator_review.policy import DEFAULT_POLICY, ReviewPolicy, ReviewRule
from tests.unit.hitl.conftest import NOW, make_state, plan, step


def resolved(*step_ids: str) -> TurnState:
    output = plan(*(step(step_id=s, constraints={"title": s}) for s in ("s1", "s2", "s3")))
    state = make_state(output)
    for step_id in step_ids:
        state = state.with_executor_args(step_id, {"title": step_id})
    return state


def test_ready_steps_keep_their_groups_and_order() -> None:
    state = resolved("s1", "s2", "s3")
    groups = [[state.planner_output.plan[0]], [state.planner_output.plan[1], state.planner_output.plan[2]]]
    execution = build_execution(
        state, groups, phone_number_id="PNID", approved=None, review_policy=DEFAULT_POLICY
    )
    assert execution is not None
    assert [[t.step_id for t in group] for group in execution.groups] == [["s1"], ["s2", "s3"]]
    first = execution.groups[0][0]
    assert (first.args, first.args_hash, first.phone_number_id) == (
        {"title": "s1"},
        args_hash({"title": "s1"}),
        "PNID",
    )
    assert (execution.trace_id, execution.language, execution.timezone) == (
        "wamid.TRACE1",
        "en",
        "Asia/Jerusalem",
    )


def test_unresolved_or_answered_steps_do_not_run_and_nothing_ready_is_no_execution() -> None:
    state = resolved("s1", "s2")
    state = state.model_copy(update={"execution_results": {"s2": {"ok": False, "error": "not found"}}})
    groups = [[s] for s in state.planner_output.plan]
    execution = build_execution(
        state, groups, phone_number_id="P", approved=None, review_policy=DEFAULT_POLICY
    )
    assert execution is not None and [[t.step_id for t in g] for g in execution.groups] == [["s1"]]
    assert (
        build_execution(resolved(), groups, phone_number_id="P", approved=None, review_policy=DEFAULT_POLICY)
        is None
    )


def approval_of(origin: str) -> PendingHITL:
    pending = gate.check_planner(
        make_state(plan(step(action="delete_all", step_id=origin), risk="high", approval=True)), now=NOW
    ).pending
    assert pending is not None
    return pending


def test_an_approval_binds_only_the_step_it_approved_with_its_args_and_expiry() -> None:
    state = resolved("s1", "s2")
    approved = approval_of("s2")
    groups = [[s] for s in state.planner_output.plan]
    execution = build_execution(
        state, groups, phone_number_id="P", approved=approved, review_policy=DEFAULT_POLICY
    )
    assert execution is not None
    (s1,), (s2,) = execution.groups
    assert s1.approval is None
    assert s2.approval is not None
    assert (s2.approval.hitl_id, s2.approval.args_hash, s2.approval.expires_at) == (
        approved.hitl_id,
        s2.args_hash,
        approved.expires_at,
    )
    assert approved.expires_at == NOW + timedelta(seconds=gate.DEFAULT_TTL_SECONDS)


def test_the_review_policy_sends_a_matching_step_to_an_operator() -> None:
    policy = ReviewPolicy(rules=(ReviewRule(capability="reminders", action="create", priority="high"),))
    state = resolved("s1")
    execution = build_execution(
        state, [[state.planner_output.plan[0]]], phone_number_id="P", approved=None, review_policy=policy
    )
    assert execution is not None
    review = execution.groups[0][0].review
    assert review is not None and (review.rule, review.priority) == ("reminders.create", "high")
