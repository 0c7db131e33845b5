"""The HITL gate: trigger priority, options and the guard."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memo.domain import Disambiguation, DisambiguationCandidate
from memo.hitl import gate
from memo.hitl.reasons import QuestionDraft
from tests.unit.hitl.conftest import NOW, make_state, plan, step


@pytest.mark.parametrize(
    ("kwargs", "reason", "kind"),
    [
        # intent_unclear beats everything, even high risk and low confidence
        (
            {"missing": ["intent_unclear", "x"], "confidence": 0.1, "risk": "high"},
            "intent_unclear",
            "clarification",
        ),
        (
            {"confidence": 0.69, "missing": ["reminder_time_required"], "risk": "high"},
            "low_confidence_plan",
            "clarification",
        ),
        (
            {"missing": ["reminder_time_required"], "risk": "high", "approval": True},
            "missing_fields",
            "clarification",
        ),
        ({"risk": "high", "approval": True}, "high_risk", "approval"),
        ({"risk": "medium", "approval": True}, "needs_approval", "approval"),
    ],
)
def test_planner_trigger_priority(kwargs: dict, reason: str, kind: str) -> None:
    trigger = gate.planner_trigger(plan(step(), **kwargs))
    assert trigger is not None
    assert (trigger.reason, trigger.kind) == (reason, kind)


def test_no_trigger_for_a_confident_low_risk_plan() -> None:
    assert gate.planner_trigger(plan(step(), confidence=0.7, risk="medium")) is None
    result = gate.check_planner(make_state(plan(step(), confidence=0.95)), now=NOW)
    assert not result.must_pause and not result.created and result.state.pending_hitl is None


def test_approval_offers_approve_edit_reject_buttons_and_logs_created(logs) -> None:
    state = make_state(plan(step(action="delete_all"), risk="high", approval=True))
    result = gate.check_planner(state, now=NOW, ttl_seconds=300, hitl_id="h-1")
    pending = result.pending
    assert result.created and pending is not None and result.state.pending_hitl == pending
    assert (pending.kind, pending.reason, pending.source, pending.policy_source) == (
        "approval",
        "high_risk",
        "planner",
        "planner",
    )
    assert pending.expected_input == "yes_no"
    assert [(o.id, o.label) for o in pending.options or []] == [
        ("approve", "Approve"),
        ("edit", "Edit"),
        ("reject", "Reject"),
    ]
    assert all(len(o.label) <= 20 for o in pending.options or [])
    assert pending.expires_at == NOW + timedelta(seconds=300) and pending.created_at == NOW
    assert "delete all your reminders" in pending.question
    assert (
        pending.context is not None
        and pending.context.step_fingerprint == state.planner_output.plan[0].fingerprint()
    )
    created = logs.named("HITL_CREATED")
    assert created == [
        {
            **created[0],
            "traceId": "wamid.TRACE1",
            "hitlId": "h-1",
            "kind": "approval",
            "reason": "high_risk",
            "source": "planner",
            "returnTo": {"node": "resolver_router", "mode": "continue"},
        }
    ]
    assert "1234567" not in created[0]["threadId"]  # the phone number is masked


def test_approval_in_hebrew() -> None:
    state = make_state(plan(step(action="delete_all"), risk="high", approval=True), language="he")
    pending = gate.check_planner(state, now=NOW).pending
    assert pending is not None
    assert [o.label for o in pending.options or []] == ["אישור", "עריכה", "דחייה"]
    assert "למחוק את כל התזכורות שלך" in pending.question


def test_origin_step_is_the_riskiest_step_for_approvals() -> None:
    output = plan(
        step(action="list", step_id="s1"),
        step(action="delete", step_id="s2", constraints={"target": "x"}),
        risk="high",
    )
    assert gate.origin_step_id_for(output, "high_risk") == "s2"
    assert gate.origin_step_id_for(output, "missing_fields") == "s1"
    assert gate.origin_step_id_for(plan(missing=["intent_unclear"]), "intent_unclear") == "planner"


def test_intent_unclear_is_a_free_text_clarification_that_replans() -> None:
    state = make_state(plan(confidence=0.2, missing=["intent_unclear"]), message="blorp")
    pending = gate.check_planner(state, now=NOW).pending
    assert pending is not None
    assert (pending.kind, pending.expected_input, pending.origin_step_id) == (
        "clarification",
        "free_text",
        "planner",
    )
    assert pending.return_to.node == "planner" and pending.return_to.mode == "replan"
    assert pending.options is None and pending.policy_source is None


def test_missing_time_question_in_both_languages() -> None:
    output = plan(
        step(constraints={"title": "call mom", "day": "2024-05-02"}), missing=["reminder_time_required"]
    )
    en = gate.check_planner(make_state(output), now=NOW).pending
    he = gate.check_planner(make_state(output, language="he"), now=NOW).pending
    assert en is not None and he is not None
    # The day was understood: only its time is asked, naming the day.
    assert en.question == "What time on Thu 2 May? (e.g. “at 17:00”)"
    assert he.question == "באיזו שעה ביום ה׳ 2.5? (למשל „ב-17:00”)"
    assert en.context is not None and en.context.missing_fields == ["reminder_time_required"]
    no_day = plan(step(constraints={"title": "call mom"}), missing=["reminder_time_required"])
    asked = gate.check_planner(make_state(no_day), now=NOW).pending
    assert asked is not None and asked.question.startswith("When should I remind you")


def test_low_confidence_asks_yes_no() -> None:
    output = plan(step(action="delete", constraints={"target": "gym"}), confidence=0.55, risk="high")
    pending = gate.check_planner(make_state(output), now=NOW).pending
    assert pending is not None
    assert (pending.reason, pending.expected_input) == ("low_confidence_plan", "yes_no")
    assert [o.id for o in pending.options or []] == ["yes", "no"]
    assert "delete the reminder “gym”" in pending.question


def test_second_trigger_in_one_run_is_ignored_and_logged(logs) -> None:
    state = make_state(plan(step(action="delete_all"), risk="high", approval=True))
    first = gate.check_planner(state, now=NOW, hitl_id="h-1")
    disambiguation = Disambiguation(
        resolver_step_id="s1",
        candidates=[DisambiguationCandidate(id="r1", label="a"), DisambiguationCandidate(id="r2", label="b")],
    )
    second = gate.check_disambiguation(
        first.state.with_disambiguation(disambiguation), now=NOW, hitl_id="h-2"
    )
    assert second.duplicate and not second.created
    assert second.pending is not None and second.pending.hitl_id == "h-1"
    assert second.state.pending_hitl is not None and second.state.pending_hitl.hitl_id == "h-1"
    third = gate.check_planner(first.state, now=NOW, hitl_id="h-3")
    assert third.duplicate and third.state.pending_hitl.hitl_id == "h-1"  # type: ignore[union-attr]
    dupes = logs.named("HITL_DUPLICATE_ATTEMPT")
    assert [(d["existingHitlId"], d["newSource"]) for d in dupes] == [
        ("h-1", "entity_resolution"),
        ("h-1", "planner"),
    ]
    assert all(d["traceId"] == "wamid.TRACE1" for d in dupes)
    assert len(logs.named("HITL_CREATED")) == 1


def test_an_expired_pending_does_not_block_a_new_question(logs) -> None:
    state = make_state(plan(step(action="delete_all"), risk="high", approval=True))
    old = gate.check_planner(state, now=NOW, ttl_seconds=60, hitl_id="old").state
    later = NOW + timedelta(seconds=61)
    result = gate.check_planner(old, now=later, hitl_id="new")
    assert result.created and result.pending is not None and result.pending.hitl_id == "new"
    assert logs.named("HITL_EXPIRED")[0]["hitlId"] == "old"


def test_disambiguation_options_are_built_from_candidates_and_capped_at_ten() -> None:
    candidates = [
        DisambiguationCandidate(
            id=f"rem-{i}", label=f"Reminder number {i} with a rather long title", description=None
        )
        for i in range(12)
    ]
    state = make_state(plan(step(action="delete", constraints={"target": "reminder"}))).with_disambiguation(
        Disambiguation(resolver_step_id="s1", candidates=candidates, allow_multiple=True)
    )
    result = gate.check_disambiguation(state, now=NOW, hitl_id="d-1")
    pending = result.pending
    assert pending is not None and result.created
    assert (pending.kind, pending.source, pending.reason, pending.expected_input) == (
        "disambiguation",
        "entity_resolution",
        "disambiguation",
        "multi_choice",
    )
    assert pending.return_to.model_dump() == {"node": "entity_resolution", "mode": "apply_selection"}
    options = pending.options or []
    assert [o.id for o in options] == [str(i) for i in range(1, 11)]
    assert all(len(o.label) <= 24 for o in options)
    assert options[0].description == "Reminder number 0 with a rather long title"
    assert pending.context is not None and [c.id for c in pending.context.candidates or []][:2] == [
        "rem-0",
        "rem-1",
    ]
    assert pending.origin_step_id == "s1" and pending.policy_source is None
    assert "1. " in pending.question and "10. " in pending.question


def test_single_choice_disambiguation_and_resolved_disambiguation() -> None:
    candidates = [DisambiguationCandidate(id="a", label="A"), DisambiguationCandidate(id="b", label="B")]
    state = make_state(plan(step(action="delete"))).with_disambiguation(
        Disambiguation(resolver_step_id="s1", candidates=candidates)
    )
    pending = gate.check_disambiguation(state, now=NOW).pending
    assert pending is not None and pending.expected_input == "single_choice"
    resolved = state.with_executor_args("s1", {"id": "a"})
    assert not gate.check_disambiguation(resolved, now=NOW).must_pause


def test_question_writer_words_the_question_only() -> None:
    drafts: list[QuestionDraft] = []

    def writer(draft: QuestionDraft) -> str:
        drafts.append(draft)
        return "  Sure you want to wipe every reminder?  "

    state = make_state(plan(step(action="delete_all"), risk="high", approval=True))
    pending = gate.check_planner(state, now=NOW, question_writer=writer).pending
    assert pending is not None
    assert pending.question == "Sure you want to wipe every reminder?"
    assert [o.id for o in pending.options or []] == ["approve", "edit", "reject"]
    assert drafts[0].summary == "delete all your reminders" and drafts[0].reason == "high_risk"
    empty = gate.check_planner(state, now=NOW, question_writer=lambda d: "   ").pending
    assert empty is not None and empty.question.startswith("Before I go ahead")


def test_tool_review_uses_tool_policy() -> None:
    state = make_state(plan(step(action="update", constraints={"target": "x"}, changes={"title": "y"})))
    pending = gate.request_tool_review(state, step_id="s1", reason="tool_requires_review", now=NOW).pending
    assert pending is not None
    assert (pending.kind, pending.source, pending.policy_source) == ("approval", "tool_policy", "tool_policy")
    assert pending.return_to.node == "resolver_router"
