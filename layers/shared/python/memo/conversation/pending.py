"""The paused turn of a thread: its `pendingHITL` and the turn's frozen state, at most one per thread.

Created only if no live one exists and consumed only once: whoever loses a race gets a domain error
(`PendingExists` / `PendingGone`) and must neither ask a second question nor apply a second answer.
Storage deletes expired questions late, so readers check `expiresAt` themselves. The DynamoDB
adapter is `memo.aws.conversation_table.DynamoPendingStore`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import ValidationError

from memo.domain import PlanStep, TurnState
from memo.errors import MemoError
from memo.packing import pack, unpack


class PendingExists(MemoError):
    """A live pending question already exists for the thread (HITL_DUPLICATE_ATTEMPT)."""

    code = "HITL_PENDING_EXISTS"
    http_status = 409


class PendingGone(MemoError):
    """The pending question was already consumed, replaced or deleted by someone else."""

    code = "HITL_PENDING_GONE"
    http_status = 409


class PendingStore(Protocol):
    def create(self, state: TurnState, *, now: datetime) -> None:
        """Persist a new pending question; an expired leftover may be overwritten, a live one not
        (`PendingExists`)."""

    def replace(self, state: TurnState, *, expected_hitl_id: str) -> None:
        """Rewrite the pending question in place, if it is still `expected_hitl_id` (`PendingGone`)."""

    def consume(self, thread_id: str, hitl_id: str) -> None:
        """Take the pending question for answering: exactly one caller succeeds (`PendingGone`)."""

    def current(self, thread_id: str) -> TurnState | None:
        """The stored pending turn of the thread (consistent read), expired or not: what the
        multi-HITL guard sends again when a second question lost the race."""


@dataclass(frozen=True)
class PendingChange:
    """A change of the thread's pending question that the turn commits together with its memory
    (one conditional write, `ConversationStore.record_turn`), instead of writing it on its own:

    - `create`: a new question where the turn found none (`expected_hitl_id` None), or found the
      expired question `expected_hitl_id` and discarded it; a live question there is a conflict;
    - `replace`: the question `expected_hitl_id` rewritten (a re-ask, or answered and followed by a
      new question in the same turn);
    - `consume`: the question `expected_hitl_id` taken for answering (single use);
    - `discard`: the expired question `expected_hitl_id` deleted, if it is still there (gone already
      is fine; only a different question in its place is a conflict).

    A lost condition is the same race `PendingExists` / `PendingGone` name: the turn handler then
    decides what to say instead (`TurnHandler.lost_race`)."""

    kind: Literal["create", "replace", "consume", "discard"]
    thread_id: str
    state: TurnState | None = None
    expected_hitl_id: str | None = None
    now: datetime | None = None

    @classmethod
    def create(cls, state: TurnState, *, now: datetime) -> PendingChange:
        return cls("create", state.thread_id, state=state, now=now)

    @classmethod
    def replace(cls, state: TurnState, *, expected_hitl_id: str) -> PendingChange:
        return cls("replace", state.thread_id, state=state, expected_hitl_id=expected_hitl_id)

    @classmethod
    def consume(cls, thread_id: str, hitl_id: str) -> PendingChange:
        return cls("consume", thread_id, expected_hitl_id=hitl_id)

    @classmethod
    def discard(cls, thread_id: str, hitl_id: str) -> PendingChange:
        return cls("discard", thread_id, expected_hitl_id=hitl_id)

    def then(self, later: PendingChange | None) -> PendingChange:
        """This change followed by `later` in the same turn, as the one write that does both (a
        transaction touches an item once): consume + create is a replace of the consumed question."""
        if later is None:
            return self
        expected = None if self.kind in ("create", "discard") else self.expected_hitl_id
        if later.kind in ("consume", "discard"):
            if expected is None:
                raise ValueError("a question created in this turn cannot be consumed in it")
            return PendingChange.consume(self.thread_id, expected)
        assert later.state is not None
        if self.kind == "discard":
            # The thread has no live question after a discard: a create that may overwrite the
            # expired leftover it discarded (or find it gone already).
            return PendingChange(
                "create",
                self.thread_id,
                state=later.state,
                expected_hitl_id=self.expected_hitl_id,
                now=later.now,
            )
        if expected is None:
            return PendingChange("create", self.thread_id, state=later.state, now=self.now or later.now)
        return PendingChange.replace(later.state, expected_hitl_id=expected)


# What a stored state holds for a fingerprint that is the one of its plan's step of that id (64 hex
# digits compress poorly, and the step they hash is stored beside them); never a fingerprint itself.
_PLAN_STEPS_OWN = "="


def _swap_fingerprints(document: dict[str, Any], swap: Callable[[Any, str], Any]) -> None:
    """Each fingerprint of a step of the state's plan (its resolver result's, its question's) as
    `swap(stored, the plan step's own)` has it."""
    own: dict[str, str] = {}
    for raw in (document.get("plannerOutput") or {}).get("plan") or []:
        try:
            step = PlanStep.model_validate(raw)
        except ValidationError:
            continue
        own[step.id] = step.fingerprint()
    for step_id, result in (document.get("resolverResults") or {}).items():
        if isinstance(result, dict) and "fingerprint" in result and step_id in own:
            result["fingerprint"] = swap(result["fingerprint"], own[step_id])
    context = (document.get("pendingHITL") or {}).get("context") or {}
    step_id = context.get("resolverStepId")
    if "stepFingerprint" in context and step_id in own:
        context["stepFingerprint"] = swap(context["stepFingerprint"], own[step_id])


def state_for_item(state: TurnState) -> bytes:
    """The frozen turn state as a pending item stores it: without its unset and default fields
    (they come back as defaults when it is read), a fingerprint that is its plan step's own as a
    mark (`state_from_item` computes it again), packed (`memo.packing`): every turn reads it
    while the question is open."""
    document = json.loads(state.model_dump_json(exclude_none=True, exclude_defaults=True))
    _swap_fingerprints(document, lambda stored, own: _PLAN_STEPS_OWN if stored == own else stored)
    return pack(json.dumps(document, separators=(",", ":"), ensure_ascii=False))


def state_from_item(item: dict[str, Any]) -> TurnState:
    """The frozen turn state of a loaded pending item (`ThreadSnapshot.pending`): packed
    (`memo.packing`), or JSON text as items written before packing hold it."""
    document = json.loads(unpack(item["state"]))
    _swap_fingerprints(document, lambda stored, own: own if stored == _PLAN_STEPS_OWN else stored)
    return TurnState.from_json(json.dumps(document, ensure_ascii=False))
