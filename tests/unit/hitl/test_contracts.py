"""The contract types: camelCase on the wire, JSON round trips, and the invariants they enforce."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from pydantic import ValidationError

from memo.domain import (
    Disambiguation,
    DisambiguationCandidate,
    HITLResultEntry,
    HITLReturnTo,
    InterpreterOutput,
    InterpreterParsed,
    LatestAction,
    PendingHITL,
    PendingHITLOption,
    RoutingSuggestion,
    TurnState,
    hitl_result_for_replan,
)
from memo.hitl import gate
from tests.unit.hitl.conftest import NOW, make_state, plan, step


def _full_state() -> TurnState:
    output = plan(step(action="delete_all"), risk="high", approval=True)
    state = make_state(output).with_planner_result(
        output, [RoutingSuggestion(capability="reminders", action="delete_all", confidence=0.9, reason="x")]
    )
    state = gate.check_planner(state, now=NOW, hitl_id="h-1").state
    state = state.with_resolver_result("s1", {"args": {"all": True}}).with_executor_args(
        "s1", {"ids": ["r1"]}
    )
    state = state.with_disambiguation(
        Disambiguation(
            resolver_step_id="s1",
            candidates=[DisambiguationCandidate(id="r1", label="call mom")],
            allow_multiple=False,
            original_args={"target": "mom"},
        )
    )
    entry = HITLResultEntry(
        raw="yes",
        parsed={"approved": True},
        at=NOW,
        return_to=HITLReturnTo(node="resolver_router", mode="continue"),
        interpreted=InterpreterOutput(decision="continue", parsed=InterpreterParsed(approved=True)),
    )
    return state.model_copy(update={"hitl_results": {"h-0": entry}}).with_execution_result("s1", {"ok": True})


def test_turn_state_round_trips_through_json_with_seed_field_names() -> None:
    state = _full_state()
    raw = state.to_json()
    data = json.loads(raw)
    assert {"traceId", "threadId", "plannerOutput", "pendingHITL", "hitlResults", "resolverResults"} <= set(
        data
    )
    assert data["pendingHITL"]["hitlId"] == "h-1"
    assert data["pendingHITL"]["returnTo"] == {"node": "resolver_router", "mode": "continue"}
    assert data["pendingHITL"]["expiresAt"].startswith("2024-05-01T10:05:00")
    assert data["plannerOutput"]["plan"][0]["dependsOn"] == []
    assert data["hitlResults"]["h-0"]["returnTo"]["node"] == "resolver_router"
    again = TurnState.from_json(raw)
    assert again == state
    assert TurnState.model_validate(state.model_dump(mode="json")) == state


def test_snake_case_names_are_accepted_too() -> None:
    action = LatestAction.model_validate(
        {"created_at": NOW.isoformat(), "capability": "reminders", "action": "create", "summary": "x"}
    )
    assert action.created_at == NOW


def test_contracts_are_frozen_and_trace_id_cannot_be_reassigned() -> None:
    state = _full_state()
    with pytest.raises(ValidationError):
        state.trace_id = "other"  # type: ignore[misc]


def test_pending_hitl_rejects_naive_datetimes_and_bad_returns() -> None:
    pending = _full_state().pending_hitl
    assert pending is not None
    data = pending.model_dump(mode="json")
    with pytest.raises(ValidationError):
        PendingHITL.model_validate({**data, "expiresAt": "2024-05-01T10:05:00"})
    with pytest.raises(ValidationError):
        PendingHITL.model_validate({**data, "returnTo": {"node": "entity_resolution", "mode": "replan"}})
    with pytest.raises(ValidationError):
        PendingHITL.model_validate({**data, "expiresAt": data["createdAt"]})
    with pytest.raises(ValidationError):
        PendingHITL.model_validate({**data, "expectedInput": "single_choice", "options": None})
    with pytest.raises(ValidationError):
        PendingHITL.model_validate({**data, "version": 2})


def test_every_seed_reason_is_accepted() -> None:
    pending = _full_state().pending_hitl
    assert pending is not None
    for reason in (
        "intent_unclear",
        "missing_fields",
        "low_confidence_plan",
        "high_risk",
        "needs_approval",
        "confirmation",
        "disambiguation",
        "tool_requires_review",
        "ambiguous_scope",
        "policy_violation",
    ):
        assert (
            PendingHITL.model_validate({**pending.model_dump(mode="json"), "reason": reason}).reason == reason
        )


def test_option_labels_fit_whatsapp_rows() -> None:
    with pytest.raises(ValidationError):
        PendingHITLOption(id="1", label="x" * 25)


def test_plan_rejects_duplicate_ids_and_unknown_dependencies() -> None:
    with pytest.raises(ValidationError):
        plan(step(step_id="s1"), step(step_id="s1"))
    bad = step(step_id="s2").model_copy(update={"depends_on": ["s9"]})
    with pytest.raises(ValidationError):
        plan(step(step_id="s1"), bad)


def test_step_fingerprint_changes_with_what_the_step_does() -> None:
    a = step(constraints={"title": "a"})
    assert a.fingerprint() == step(constraints={"title": "a"}).fingerprint()
    assert a.fingerprint() != step(constraints={"title": "b"}).fingerprint()


def test_replan_result_is_the_latest_planner_replan_entry() -> None:
    replan = HITLReturnTo(node="planner", mode="replan")
    results = {
        "a": HITLResultEntry(raw="old", at=NOW, return_to=replan),
        "b": HITLResultEntry(raw="new", at=NOW + timedelta(seconds=5), return_to=replan),
        "c": HITLResultEntry(raw="approval", at=NOW + timedelta(seconds=9), return_to=None),
    }
    found = hitl_result_for_replan(results)
    assert found is not None and found.raw == "new"
    assert hitl_result_for_replan({}) is None
