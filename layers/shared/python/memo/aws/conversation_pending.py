"""The pending question of a thread on the conversation table: its one `PENDING` item.

The item holds the question's id (`hitlId`, what every write conditions on), its expiry (the TTL;
DynamoDB deletes late, so readers check the state's `expiresAt`) and the turn's packed frozen state.

- `pending_write`: a `PendingChange` as one entry of the turn's transaction
  (`memo.aws.conversation_turn`), under the same conditions as the store's own writes;
- `DynamoPendingStore`: the `PendingStore` port. Whoever loses a race gets a domain error
  (`PendingExists` / `PendingGone`) and must neither ask a second question nor apply a second answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from memo.aws.conversation_table import PENDING_SK, thread_pk
from memo.aws.dynamo import conditional_write, from_item, guard, to_item
from memo.aws.faults import call
from memo.conversation.pending import (
    PendingChange,
    PendingExists,
    PendingGone,
    state_for_item,
    state_from_item,
)
from memo.domain import PendingHITL, TurnState
from memo.errors import ConditionFailed

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _pending_of(state: TurnState) -> PendingHITL:
    if state.pending_hitl is None:
        raise ValueError("the turn state has no pendingHITL to persist")
    return state.pending_hitl


def pending_item(state: TurnState) -> dict[str, Any]:
    """The `PENDING` item: the question's id and expiry (TTL) and the turn's frozen state."""
    pending = _pending_of(state)
    item = to_item(
        {
            "pk": thread_pk(state.thread_id),
            "sk": PENDING_SK,
            "hitlId": pending.hitl_id,
            "ttl": int(
                pending.expires_at.timestamp()
            ),  # DynamoDB deletes late: readers check the state's expiresAt
            "state": state_for_item(state),
        }
    )
    # The frozen state grows with the plan and what its question shows: refused (logged) when over
    # DynamoDB's item limit, before any write.
    return guard(item, what=PENDING_SK)


def _created(table: str, change: PendingChange, expected: dict[str, Any]) -> dict[str, Any]:
    """The create of a question. The turn read the thread's pending item consistently: none
    (nothing may be there now), or the expired question it discarded (still there, or swept since).
    Any other question is live, and a conflict."""
    assert change.state is not None
    put: dict[str, Any] = {
        "TableName": table,
        "Item": pending_item(change.state),
        "ConditionExpression": "attribute_not_exists(pk)",
    }
    if change.expected_hitl_id is not None:
        put["ConditionExpression"] = "attribute_not_exists(pk) OR hitlId = :id"
        put["ExpressionAttributeValues"] = expected
    return {"Put": put}


def pending_write(table: str, change: PendingChange) -> dict[str, Any]:
    """A pending change as one TransactWriteItems entry, with the conditions `DynamoPendingStore`
    writes it under on its own."""
    expected = {":id": {"S": change.expected_hitl_id or ""}}
    if change.kind == "create":
        return _created(table, change, expected)
    if change.kind == "replace":
        assert change.state is not None
        return {
            "Put": {
                "TableName": table,
                "Item": pending_item(change.state),
                "ConditionExpression": "hitlId = :id",
                "ExpressionAttributeValues": expected,
            }
        }
    return {
        "Delete": {
            "TableName": table,
            "Key": to_item({"pk": thread_pk(change.thread_id), "sk": PENDING_SK}),
            "ConditionExpression": "hitlId = :id"
            if change.kind == "consume"
            else "attribute_not_exists(pk) OR hitlId = :id",
            "ExpressionAttributeValues": expected,
        }
    }


class DynamoPendingStore:
    """Whoever loses a race gets a domain error (`PendingExists` / `PendingGone`) and must neither ask
    a second question nor apply a second answer."""

    def __init__(self, dynamodb: DynamoDBClient, table_name: str) -> None:
        self._ddb = dynamodb
        self._table = table_name

    def create(self, state: TurnState, *, now: datetime) -> None:
        """Persist a new pending question; an expired leftover may be overwritten, a live one not."""
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=pending_item(state),
                ConditionExpression="attribute_not_exists(pk) OR #ttl <= :now",
                ExpressionAttributeNames={"#ttl": "ttl"},
                ExpressionAttributeValues={":now": {"N": str(int(now.timestamp()))}},
            )
        except ConditionFailed as exc:
            raise PendingExists("a live pending question already exists") from exc

    def replace(self, state: TurnState, *, expected_hitl_id: str) -> None:
        """Rewrite the pending question in place (a re-ask keeps the same hitlId)."""
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=pending_item(state),
                ConditionExpression="hitlId = :id",
                ExpressionAttributeValues={":id": {"S": expected_hitl_id}},
            )
        except ConditionFailed as exc:
            raise PendingGone(f"pending {expected_hitl_id} is no longer there") from exc

    def consume(self, thread_id: str, hitl_id: str) -> None:
        """Take the pending question for answering: exactly one caller succeeds."""
        try:
            conditional_write(
                self._ddb.delete_item,
                TableName=self._table,
                Key=to_item({"pk": thread_pk(thread_id), "sk": PENDING_SK}),
                ConditionExpression="hitlId = :id",
                ExpressionAttributeValues={":id": {"S": hitl_id}},
            )
        except ConditionFailed as exc:
            raise PendingGone(f"pending {hitl_id} was already consumed") from exc

    def current(self, thread_id: str) -> TurnState | None:
        """The stored pending turn of the thread (consistent read), expired or not."""
        item = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item({"pk": thread_pk(thread_id), "sk": PENDING_SK}),
            ConsistentRead=True,
        ).get("Item")
        return state_from_item(from_item(item)) if item is not None else None
