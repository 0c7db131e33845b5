"""What each HITL reason asks: its kind, where its answer returns to, and who required it."""

from __future__ import annotations

from memo.hitl import reasons


def test_return_to_mapping() -> None:
    assert reasons.return_to_for("planner", "intent_unclear").model_dump() == {
        "node": "planner",
        "mode": "replan",
    }
    for reason in ("missing_fields", "low_confidence_plan", "confirmation", "high_risk", "needs_approval"):
        assert reasons.return_to_for("planner", reason).model_dump() == {
            "node": "resolver_router",
            "mode": "continue",
        }
    assert reasons.return_to_for("entity_resolution", "disambiguation").model_dump() == {
        "node": "entity_resolution",
        "mode": "apply_selection",
    }


def test_kind_mapping_for_the_industry_reasons() -> None:
    assert reasons.KIND_BY_REASON["ambiguous_scope"] == "clarification"
    assert reasons.KIND_BY_REASON["low_confidence_plan"] == "clarification"
    assert reasons.KIND_BY_REASON["tool_requires_review"] == "approval"
    assert reasons.KIND_BY_REASON["policy_violation"] == "approval"
    assert reasons.policy_source_for("planner", "high_risk") == "planner"
    assert reasons.policy_source_for("tool_policy", "tool_requires_review") == "tool_policy"
    assert reasons.policy_source_for("planner", "missing_fields") is None
