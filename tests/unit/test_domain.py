"""The domain models (`memo.domain`): camelCase on the wire, JSON round trips, the invariants they
enforce, and the one rule of HITL expiry."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st
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
    TurnInput,
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


def test_turn_state_round_trips_through_json_with_camel_case_field_names() -> None:
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


def test_every_hitl_reason_is_accepted() -> None:
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


def _pending() -> PendingHITL:
    pending = _full_state().pending_hitl
    assert pending is not None
    return pending


@pytest.mark.parametrize(
    ("offset", "live"),
    [
        (timedelta(days=-1), True),
        (timedelta(0), True),  # the moment it was asked
        (timedelta(minutes=4, seconds=59, microseconds=999_999), True),
        (timedelta(minutes=5), False),  # expiresAt itself: already too late
        (timedelta(minutes=5, microseconds=1), False),
        (timedelta(days=30), False),  # DynamoDB's TTL has not deleted it yet
    ],
)
def test_a_pending_question_is_live_until_the_instant_it_expires(offset: timedelta, live: bool) -> None:
    pending = _pending()
    assert pending.expires_at == pending.created_at + timedelta(minutes=5)
    assert pending.is_live(pending.created_at + offset) is live


@given(st.timedeltas(min_value=timedelta(days=-2), max_value=timedelta(days=2)))
def test_expiry_reads_the_same_in_every_timezone(offset: timedelta) -> None:
    pending = _pending()
    now = pending.expires_at + offset
    assert pending.is_live(now) is (offset < timedelta(0))
    assert pending.is_live(now.astimezone(ZoneInfo("UTC"))) is pending.is_live(now)
    assert pending.is_live(now.astimezone(ZoneInfo("Pacific/Kiritimati"))) is pending.is_live(now)


_JSON_LEAF = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20)
_JSON = st.recursive(
    _JSON_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_ARGS = st.dictionaries(
    st.text(min_size=1, max_size=8), st.dictionaries(st.text(max_size=8), _JSON, max_size=3)
)


@given(
    trace_id=st.text(min_size=1, max_size=40),
    message=st.text(max_size=200),
    language=st.sampled_from(["en", "he"]),
    executor_args=_ARGS,
    execution_results=_ARGS,
)
def test_any_turn_state_round_trips_through_its_json_form(
    trace_id: str,
    message: str,
    language: str,
    executor_args: dict[str, dict[str, Any]],
    execution_results: dict[str, dict[str, Any]],
) -> None:
    state = TurnState(
        trace_id=trace_id,
        thread_id="972501234567",
        input=TurnInput(message=message, language=language),
        executor_args=executor_args,
        execution_results=execution_results,
    )
    assert TurnState.from_json(state.to_json()) == state
    assert TurnState.from_json(state.to_json().encode()) == state


def test_with_helpers_copy_and_leave_the_earlier_state_as_it_was() -> None:
    before = make_state().with_executor_args("s1", {"ids": ["r1"]})
    after = before.with_executor_args("s2", {"ids": ["r2"]}).with_resolver_result("s1", {"args": {}})
    assert before.executor_args == {"s1": {"ids": ["r1"]}} and before.resolver_results == {}
    assert after.executor_args == {"s1": {"ids": ["r1"]}, "s2": {"ids": ["r2"]}}
    assert after.trace_id == before.trace_id


def test_a_latest_actions_request_is_its_trace_id_else_its_time() -> None:
    done = LatestAction(
        created_at=NOW, capability="reminders", action="delete", summary="x", operation_id="wamid.A:s2"
    )
    assert done.request == "wamid.A"
    assert done.model_copy(update={"operation_id": None}).request == NOW.isoformat()
