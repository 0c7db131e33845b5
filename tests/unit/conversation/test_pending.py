"""`memo.conversation.pending`: the frozen turn state as a pending item stores it reads back as it
was; a fingerprint that is its plan step's own is stored as a mark and computed again."""

from __future__ import annotations

import json
from typing import Any

from memo.conversation.pending import state_for_item, state_from_item
from memo.domain import PlanStep, TurnState
from memo.packing import unpack

STEP = {"id": "s1", "capability": "reminders", "action": "delete_all"}
OWN = PlanStep.model_validate(STEP).fingerprint()


def _state(resolved: str, asked: str) -> TurnState:
    return TurnState.from_json(
        json.dumps(
            {
                "traceId": "wamid.T1",
                "threadId": "972500000098",
                "input": {"message": "delete all my reminders", "timezone": "Asia/Jerusalem"},
                "plannerOutput": {
                    "intentType": "operation",
                    "confidence": 0.9,
                    "riskLevel": "high",
                    "needsApproval": True,
                    "plan": [STEP],
                },
                "resolverResults": {
                    "s1": {
                        "stepId": "s1",
                        "capability": "reminders",
                        "action": "delete_all",
                        "fingerprint": resolved,
                    }
                },
                "executorArgs": {"s1": {"reminderIds": ["r1", "r2"]}},
                "pendingHITL": {
                    "hitlId": "h-1",
                    "kind": "approval",
                    "source": "planner",
                    "reason": "high_risk",
                    "originStepId": "s1",
                    "returnTo": {"node": "resolver_router", "mode": "continue"},
                    "expectedInput": "yes_no",
                    "question": "Delete all your reminders (2)?",
                    "policySource": "planner",
                    "expiresAt": "2026-11-24T09:05:00Z",
                    "createdAt": "2026-11-24T09:00:00Z",
                    "context": {"resolverStepId": "s1", "stepFingerprint": asked},
                },
            }
        )
    )


def _stored(state: TurnState) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(unpack(state_for_item(state)))
    return loaded


def test_a_fingerprint_of_the_plans_own_step_is_stored_as_a_mark_and_reads_back() -> None:
    state = _state(OWN, OWN)
    stored = _stored(state)
    assert OWN not in json.dumps(stored)
    assert (
        stored["resolverResults"]["s1"]["fingerprint"] == stored["pendingHITL"]["context"]["stepFingerprint"]
    )
    assert state_from_item({"state": state_for_item(state)}) == state


def test_a_fingerprint_of_another_step_is_stored_as_it_is() -> None:
    other = "f" * 64
    state = _state(other, OWN)
    stored = _stored(state)
    assert stored["resolverResults"]["s1"]["fingerprint"] == other and OWN not in json.dumps(stored)
    assert state_from_item({"state": state_for_item(state)}) == state


def test_a_state_stored_with_its_fingerprints_in_full_reads_as_it_is() -> None:
    state = _state(OWN, OWN)
    assert state_from_item({"state": state.model_dump_json(exclude_none=True)}) == state
