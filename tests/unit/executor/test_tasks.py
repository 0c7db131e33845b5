"""The executor's input built from a turn: which steps run, in which groups, with which approval and
review."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from memo.domain import DisambiguationCandidate, PendingHITL, PendingHITLContext, TurnState
from memo.executor.contracts import args_hash
from memo.executor.tasks import NAMED_MAX, build_execution, shown_titles
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


def _shown(pending: PendingHITL, titles: dict[str, str]) -> PendingHITL:
    candidates = [DisambiguationCandidate(id=i, label=t) for i, t in titles.items()]
    context = (pending.context or PendingHITLContext()).model_copy(update={"candidates": candidates})
    return pending.model_copy(update={"context": context})


@given(shown=st.integers(min_value=1, max_value=NAMED_MAX + 3), kept=st.data())
def test_the_titles_shown_go_with_a_delete_of_several_only_for_the_ids_it_deletes(
    shown: int, kept: st.DataObject
) -> None:
    titles = {f"r-{n}": f"title {n}" for n in range(shown)}
    ids = kept.draw(st.lists(st.sampled_from(sorted(titles)), min_size=1, unique=True))
    approved = _shown(approval_of("s1"), titles)
    found = shown_titles(step(action="delete_all"), {"reminderIds": ids}, approved)
    if len(ids) <= NAMED_MAX:
        assert found == {i: titles[i] for i in ids}  # a narrowed set: only the kept ones
    else:
        assert found is None  # the reply counts them instead


def test_no_titles_for_another_step_an_unshown_id_or_no_approval() -> None:
    approved = _shown(approval_of("s1"), {"r-1": "call mom"})
    assert shown_titles(step(action="delete"), {"reminderIds": ["r-1"]}, approved) is None
    assert shown_titles(step(action="delete_all"), {"reminderIds": ["r-1", "r-9"]}, approved) is None
    assert shown_titles(step(action="delete_all"), {"reminderIds": ["r-1"]}, None) is None
    assert shown_titles(step(action="delete_all"), {"reminderIds": ["r-1"]}, approved) == {"r-1": "call mom"}
