"""The paused turn of a thread: one DynamoDB item (`sk = PENDING`) holding `pendingHITL` and the
turn's frozen state, with its TTL attribute set to `expiresAt` (epoch seconds).

Created only if no live one exists and consumed only once, both by conditional writes: whoever loses
a race gets a domain error (`PendingExists` / `PendingGone`) and must neither ask a second question
nor apply a second answer. DynamoDB's TTL deletes late, so readers check `expiresAt` themselves.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from memo.aws.dynamo import to_item
from memo.conversation.store import PENDING_SK, thread_pk
from memo.domain import PendingHITL, TurnState
from memo.errors import MemoError


class PendingExists(MemoError):
    """A live pending question already exists for the thread (HITL_DUPLICATE_ATTEMPT)."""

    code = "HITL_PENDING_EXISTS"
    http_status = 409


class PendingGone(MemoError):
    """The pending question was already consumed, replaced or deleted by someone else."""

    code = "HITL_PENDING_GONE"
    http_status = 409


def _conditional_failed(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


def state_from_item(item: dict[str, Any]) -> TurnState:
    """The frozen turn state of a loaded PENDING item (already converted from DynamoDB types)."""
    return TurnState.from_json(item["state"])


class DynamoPendingStore:
    def __init__(self, dynamodb: Any, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def _item(self, state: TurnState, pending: PendingHITL) -> dict[str, Any]:
        return to_item(
            {
                "pk": thread_pk(state.thread_id),
                "sk": PENDING_SK,
                "hitlId": pending.hitl_id,
                "expiresAt": pending.expires_at.isoformat(),
                "ttl": int(pending.expires_at.timestamp()),
                "state": state.to_json(),
            }
        )

    def create(self, state: TurnState, *, now: datetime) -> None:
        """Persist a new pending question; an expired leftover may be overwritten, a live one not."""
        pending = _pending_of(state)
        try:
            self._ddb.put_item(
                TableName=self._table,
                Item=self._item(state, pending),
                ConditionExpression="attribute_not_exists(pk) OR #ttl <= :now",
                ExpressionAttributeNames={"#ttl": "ttl"},
                ExpressionAttributeValues={":now": {"N": str(int(now.timestamp()))}},
            )
        except ClientError as exc:
            if _conditional_failed(exc):
                raise PendingExists("a live pending question already exists") from exc
            raise

    def replace(self, state: TurnState, *, expected_hitl_id: str) -> None:
        """Rewrite the pending question in place (a re-ask keeps the same hitlId)."""
        pending = _pending_of(state)
        try:
            self._ddb.put_item(
                TableName=self._table,
                Item=self._item(state, pending),
                ConditionExpression="hitlId = :id",
                ExpressionAttributeValues={":id": {"S": expected_hitl_id}},
            )
        except ClientError as exc:
            if _conditional_failed(exc):
                raise PendingGone(f"pending {expected_hitl_id} is no longer there") from exc
            raise

    def consume(self, thread_id: str, hitl_id: str) -> None:
        """Take the pending question for answering: exactly one caller succeeds."""
        try:
            self._ddb.delete_item(
                TableName=self._table,
                Key=to_item({"pk": thread_pk(thread_id), "sk": PENDING_SK}),
                ConditionExpression="hitlId = :id",
                ExpressionAttributeValues={":id": {"S": hitl_id}},
            )
        except ClientError as exc:
            if _conditional_failed(exc):
                raise PendingGone(f"pending {hitl_id} was already consumed") from exc
            raise


def _pending_of(state: TurnState) -> PendingHITL:
    if state.pending_hitl is None:
        raise ValueError("the turn state has no pendingHITL to persist")
    return state.pending_hitl
