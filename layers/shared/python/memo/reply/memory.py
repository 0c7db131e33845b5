"""Memory update: the assistant's reply in conversation memory, and the thread's latestActions.

latestActions: one entry per successful step (createdAt, capability, action, summary, when,
externalIds), most recent first, at most 10 per thread, and only from the last 12 hours; the planner
reads the first 3.

Two responders of one thread may finish at the same time (two turns' executions), so the adapter
(`memo.aws.responder_memory.DynamoResponderMemory`) appends each turn's entries without a read (into
slots that keep the last turns'), and merges with `merge_latest_actions` under a version condition
only a turn too large to append, merging again when it loses. Each entry also carries its `operationId`
(traceId:stepId), so a responder re-run by Step Functions does not add it twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from pydantic import ValidationError

from memo.domain import LatestAction
from memo.errors import MemoError
from memo.executor.contracts import StepOutcome
from memo.observability import logger

LATEST_ACTIONS_MAX = 10
LATEST_ACTIONS_SCOPE = timedelta(hours=12)
OPERATION_ID = "operationId"


class LatestActionsConflict(MemoError):
    """Other writers kept winning the versioned write of RECENT_ACTIONS (bounded retries spent)."""

    code = "LATEST_ACTIONS_CONFLICT"


# One reply per turn: the claim outlives Step Functions' redrive window (14 days).
REPLY_CLAIM_TTL = timedelta(days=14)


class ResponderMemory(Protocol):
    def claim_reply(
        self,
        thread_id: str,
        trace_id: str,
        *,
        now: datetime,
        actions: Sequence[dict[str, Any]] = (),
    ) -> bool:
        """True for the first responder of this turn; False if the turn was already answered
        (a redriven execution must not send the reply twice). With `actions`, they are merged into
        the thread's latestActions in the same write as the claim: a claim that exists means its
        actions are recorded. Raises `LatestActionsConflict` when other writers keep winning."""

    def release_reply(self, thread_id: str, trace_id: str) -> None:
        """Give the claim back after a send that failed for good, so a redrive can try again."""

    def record_reply(self, thread_id: str, text: str, *, at: datetime) -> None: ...

    def record_actions(
        self, thread_id: str, actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> list[dict[str, Any]]:
        """Merge `actions` (newest first) into the thread's latestActions; returns what is stored."""

    def record_quote(
        self, thread_id: str, message_ids: Sequence[str], actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> None:
        """Keep which items the sent messages named, for a reply that quotes one of them
        (`memo.reply.quotes`)."""

    def record_sent(
        self,
        thread_id: str,
        *,
        text: str | None,
        message_ids: Sequence[str],
        actions: Sequence[dict[str, Any]],
        now: datetime,
        trace_id: str | None = None,
    ) -> None:
        """After the send, in one write: the reply in the recent messages (unless `text` is None),
        marked as the end of plan `trace_id`, and, under each sent message id, the items it named
        (`record_quote`)."""


def latest_action_entries(
    outcomes: Sequence[StepOutcome], summaries: Sequence[str], *, trace_id: str, now: datetime
) -> list[dict[str, Any]]:
    """One stored entry per successful step, newest (last in plan order) first.

    `summaries[i]` words `outcomes[i]` when its result has no `summary` of its own.
    """
    entries: list[dict[str, Any]] = []
    for outcome, fallback in zip(outcomes, summaries, strict=True):
        result = outcome.result
        if not result.success:
            continue
        try:
            action = LatestAction(
                created_at=now,
                capability=result.capability,  # validated: an unknown capability is skipped
                action=result.action,
                summary=result.summary or fallback,
                when=result.when,
                external_ids=dict(result.external_ids) or None,
            )
        except ValidationError:
            logger.warning("LATEST_ACTION_SKIPPED", extra={"capability": result.capability})
            continue
        entry = action.model_dump(mode="json", exclude_none=True)
        entry[OPERATION_ID] = f"{trace_id}:{outcome.step_id}"
        entries.append(entry)
    entries.reverse()
    return entries


def entry_created_at(entry: dict[str, Any]) -> datetime | None:
    raw = entry.get("createdAt")
    if not isinstance(raw, str):
        return None
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


def merge_latest_actions(
    existing: Sequence[dict[str, Any]], new: Sequence[dict[str, Any]], *, now: datetime
) -> list[dict[str, Any]]:
    """New entries before existing ones, without repeats of an operation, none older than 12 hours,
    most recent first, at most 10."""
    known = {e.get(OPERATION_ID) for e in existing if e.get(OPERATION_ID)}
    fresh = [e for e in new if e.get(OPERATION_ID) is None or e.get(OPERATION_ID) not in known]
    cutoff = now - LATEST_ACTIONS_SCOPE
    kept: list[tuple[datetime, dict[str, Any]]] = []
    for entry in [*fresh, *existing]:
        created = entry_created_at(entry)
        if created is not None and created > cutoff:
            kept.append((created, entry))
    kept.sort(key=lambda pair: pair[0], reverse=True)  # stable: ties keep new-before-old
    return [entry for _, entry in kept[:LATEST_ACTIONS_MAX]]


def current_actions(raw: Sequence[dict[str, Any]], *, now: datetime, limit: int = 3) -> list[LatestAction]:
    """What a reader (the planner's context) should see: in scope, newest first, `limit` of them."""
    return [LatestAction.model_validate(entry) for entry in merge_latest_actions(raw, [], now=now)[:limit]]
