"""The paused turn of a thread: its `pendingHITL` and the turn's frozen state, at most one per thread.

Created only if no live one exists and consumed only once: whoever loses a race gets a domain error
(`PendingExists` / `PendingGone`) and must neither ask a second question nor apply a second answer.
Storage deletes expired questions late, so readers check `expiresAt` themselves. The DynamoDB
adapter is `memo.aws.conversation_table.DynamoPendingStore`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from memo.domain import TurnState
from memo.errors import MemoError


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


def state_from_item(item: dict[str, Any]) -> TurnState:
    """The frozen turn state of a loaded pending item (`ThreadSnapshot.pending`)."""
    return TurnState.from_json(item["state"])
