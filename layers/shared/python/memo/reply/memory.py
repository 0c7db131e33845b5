"""Memory update: the assistant's reply in conversation memory, and the thread's latestActions.

latestActions (`memo-runtime-state-and-types.md`): one entry per successful step (createdAt,
capability, action, summary, when, externalIds), most recent first, at most 10 per thread, and only
from the last 12 hours. They live in the conversation table item `sk = RECENT_ACTIONS` as
`{"actions": [...], "version": n}`; the planner reads the first 3.

Two responders of one thread may finish at the same time (two turns' executions). The item is
therefore written read-merge-put with a version condition (`attribute_not_exists(pk)` for the first
write): the loser of a race re-reads and merges again, so no action is lost. Each entry also carries
its `operationId` (traceId:stepId), so a responder re-run by Step Functions does not add it twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from botocore.exceptions import ClientError
from pydantic import ValidationError

from memo.aws.dynamo import from_item, to_item
from memo.conversation.model import MemoryMessage
from memo.conversation.store import ACTIONS_SK, DynamoConversationStore, thread_pk
from memo.domain import LatestAction
from memo.errors import MemoError
from memo.executor.contracts import StepOutcome
from memo.observability import logger

LATEST_ACTIONS_MAX = 10
LATEST_ACTIONS_SCOPE = timedelta(hours=12)
WRITE_ATTEMPTS = 5
OPERATION_ID = "operationId"


class LatestActionsConflict(MemoError):
    """Other writers kept winning the versioned write of RECENT_ACTIONS (bounded retries spent)."""

    code = "LATEST_ACTIONS_CONFLICT"


# One reply per turn: the claim outlives Step Functions' redrive window (14 days).
REPLY_CLAIM_PREFIX = "CLAIM#REPLY#"
REPLY_CLAIM_TTL = timedelta(days=14)


class ResponderMemory(Protocol):
    def claim_reply(self, thread_id: str, trace_id: str, *, now: datetime) -> bool:
        """True for the first responder of this turn; False if the turn was already answered
        (a redriven execution must not send the reply twice)."""

    def release_reply(self, thread_id: str, trace_id: str) -> None:
        """Give the claim back after a send that failed for good, so a redrive can try again."""

    def record_reply(self, thread_id: str, text: str, *, at: datetime) -> None: ...

    def record_actions(
        self, thread_id: str, actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> list[dict[str, Any]]:
        """Merge `actions` (newest first) into the thread's latestActions; returns what is stored."""


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


def _created_at(entry: dict[str, Any]) -> datetime | None:
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
        created = _created_at(entry)
        if created is not None and created > cutoff:
            kept.append((created, entry))
    kept.sort(key=lambda pair: pair[0], reverse=True)  # stable: ties keep new-before-old
    return [entry for _, entry in kept[:LATEST_ACTIONS_MAX]]


def current_actions(raw: Sequence[dict[str, Any]], *, now: datetime, limit: int = 3) -> list[LatestAction]:
    """What a reader (the planner's context) should see: in scope, newest first, `limit` of them."""
    return [LatestAction.model_validate(entry) for entry in merge_latest_actions(raw, [], now=now)[:limit]]


class DynamoResponderMemory:
    """The responder's memory on the conversation table (`memo.conversation.store` layout)."""

    def __init__(self, dynamodb: Any, table_name: str, *, message_ttl_seconds: int) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._ttl = message_ttl_seconds
        self._store = DynamoConversationStore(dynamodb, table_name)

    def _claim_key(self, thread_id: str, trace_id: str) -> dict[str, Any]:
        # "CLAIM#..." sorts before "MSG#", so the turn's one-query thread load never reads claims.
        return {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": f"{REPLY_CLAIM_PREFIX}{trace_id}"}}

    def claim_reply(self, thread_id: str, trace_id: str, *, now: datetime) -> bool:
        item = {
            **self._claim_key(thread_id, trace_id),
            "ttl": {"N": str(int((now + REPLY_CLAIM_TTL).timestamp()))},
        }
        try:
            self._ddb.put_item(
                TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
            return False
        return True

    def release_reply(self, thread_id: str, trace_id: str) -> None:
        self._ddb.delete_item(TableName=self._table, Key=self._claim_key(thread_id, trace_id))

    def record_reply(self, thread_id: str, text: str, *, at: datetime) -> None:
        message = MemoryMessage(role="assistant", text=text, at=at, kind="message")
        self._store.append(thread_id, [message], ttl_seconds=self._ttl)

    def record_actions(
        self, thread_id: str, actions: Sequence[dict[str, Any]], *, now: datetime
    ) -> list[dict[str, Any]]:
        key = {"pk": {"S": thread_pk(thread_id)}, "sk": {"S": ACTIONS_SK}}
        for _ in range(WRITE_ATTEMPTS):
            raw = self._ddb.get_item(TableName=self._table, Key=key, ConsistentRead=True).get("Item")
            item = from_item(raw) if raw else None
            merged = merge_latest_actions(item.get("actions", []) if item else [], actions, now=now)
            version = int(item.get("version", 0)) if item else 0
            condition: dict[str, Any]
            if item is None:
                condition = {"ConditionExpression": "attribute_not_exists(pk)"}
            elif "version" not in item:
                condition = {"ConditionExpression": "attribute_not_exists(version)"}
            else:
                condition = {
                    "ConditionExpression": "version = :v",
                    "ExpressionAttributeValues": {":v": {"N": str(version)}},
                }
            newest = max((c for c in map(_created_at, merged) if c is not None), default=now)
            stored = {
                "pk": thread_pk(thread_id),
                "sk": ACTIONS_SK,
                "actions": merged,
                "version": version + 1,
                # Gone once its newest entry leaves the 12-hour scope (readers drop expired items).
                "ttl": int((newest + LATEST_ACTIONS_SCOPE).timestamp()),
            }
            try:
                self._ddb.put_item(TableName=self._table, Item=to_item(stored), **condition)
            except ClientError as exc:
                if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                    raise
                logger.info("LATEST_ACTIONS_RETRY", extra={"version": version})
                continue
            return merged
        raise LatestActionsConflict(f"RECENT_ACTIONS kept changing after {WRITE_ATTEMPTS} attempts")
