"""The executor's idempotency ledger on DynamoDB (`memo.tables.LEDGER`).

Two items per operation (operationId = traceId:stepId):

- `sk = LEDGER`: the PII-safe entry — capability, stepId, argsHash, at, status (`in_progress` while an
  attempt holds the claim, then `completed` with success, resultHash and externalIds). Written by a
  conditional put (`claim`): exactly one attempt of a step ever gets to perform its side effect.
- `sk = RESULT`: the full `ExecutionResult` (may hold user content), written in the same transaction
  that completes the entry, so a re-run of the step can answer with it instead of running again.

Both carry a `ttl` (epoch seconds). The adapter owns the conditional writes and turns a lost
condition into a domain error (`OperationAlreadyClaimed`, `ClaimLost`).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from botocore.exceptions import ClientError

from memo.aws.dynamo import from_item, to_item
from memo.capabilities.base import ExecutionResult
from memo.errors import MemoError

ENTRY_SK = "LEDGER"
RESULT_SK = "RESULT"
IN_PROGRESS = "in_progress"
COMPLETED = "completed"

LedgerStatus = Literal["in_progress", "completed"]


def operation_id(trace_id: str, step_id: str) -> str:
    return f"{trace_id}:{step_id}"


def result_hash(result: ExecutionResult) -> str:
    """A stable hash of the full result: the ledger can tell results apart without holding them."""
    canonical = json.dumps(result.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class LedgerEntry:
    operation_id: str
    capability: str
    step_id: str
    args_hash: str
    at: datetime
    status: LedgerStatus
    attempt_id: str
    success: bool | None = None
    result_hash: str | None = None
    external_ids: dict[str, str | list[str]] = field(default_factory=dict)
    completed_at: datetime | None = None


@dataclass(frozen=True)
class Claim:
    """The right of one attempt to perform the operation's side effect, then complete or release it."""

    operation_id: str
    attempt_id: str


class OperationAlreadyClaimed(MemoError):
    """Another attempt already claimed (or completed) this operation."""

    code = "OPERATION_ALREADY_CLAIMED"
    http_status = 409


class ClaimLost(MemoError):
    """The claim is no longer held by this attempt (completed, released or expired by someone else)."""

    code = "CLAIM_LOST"
    http_status = 409


class Ledger(Protocol):
    def get(self, operation_id: str) -> LedgerEntry | None: ...

    def claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> Claim:
        """Raises `OperationAlreadyClaimed` when an entry exists."""
        ...

    def complete(self, claim: Claim, result: ExecutionResult, *, at: datetime) -> None:
        """Store the result and mark the entry completed; raises `ClaimLost`."""
        ...

    def release(self, claim: Claim) -> None:
        """Remove an in-progress entry whose side effect did not happen; raises `ClaimLost`."""
        ...

    def result(self, operation_id: str) -> ExecutionResult | None: ...


def _error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _condition_failed_in_transaction(exc: ClientError) -> bool:
    reasons = exc.response.get("CancellationReasons") or []
    return _error_code(exc) == "TransactionCanceledException" and any(
        reason.get("Code") == "ConditionalCheckFailed" for reason in reasons
    )


class DynamoLedger:
    def __init__(
        self,
        dynamodb: Any,
        table_name: str,
        *,
        ttl_seconds: int,
        result_ttl_seconds: int,
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._ttl = timedelta(seconds=ttl_seconds)
        self._result_ttl = timedelta(seconds=result_ttl_seconds)

    def _key(self, operation_id: str, sk: str) -> dict[str, Any]:
        return to_item({"pk": operation_id, "sk": sk})

    def get(self, operation_id: str) -> LedgerEntry | None:
        response = self._ddb.get_item(
            TableName=self._table, Key=self._key(operation_id, ENTRY_SK), ConsistentRead=True
        )
        if "Item" not in response:
            return None
        item = from_item(response["Item"])
        completed_at = item.get("completedAt")
        return LedgerEntry(
            operation_id=operation_id,
            capability=item["capability"],
            step_id=item["stepId"],
            args_hash=item["argsHash"],
            at=datetime.fromisoformat(item["at"]),
            status="completed" if item["status"] == COMPLETED else "in_progress",
            attempt_id=item["attempt"],
            success=item.get("success"),
            result_hash=item.get("resultHash"),
            external_ids=item.get("externalIds", {}),
            completed_at=datetime.fromisoformat(completed_at) if completed_at else None,
        )

    def claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> Claim:
        attempt_id = uuid.uuid4().hex
        item = {
            "pk": operation_id,
            "sk": ENTRY_SK,
            "capability": capability,
            "stepId": step_id,
            "argsHash": args_hash,
            "at": at.isoformat(),
            "status": IN_PROGRESS,
            "attempt": attempt_id,
            "ttl": int((at + self._ttl).timestamp()),
        }
        try:
            self._ddb.put_item(
                TableName=self._table,
                Item=to_item(item),
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as exc:
            if _error_code(exc) == "ConditionalCheckFailedException":
                raise OperationAlreadyClaimed(f"operation {operation_id} is already claimed") from exc
            raise
        return Claim(operation_id=operation_id, attempt_id=attempt_id)

    def complete(self, claim: Claim, result: ExecutionResult, *, at: datetime) -> None:
        result_item = {
            "pk": claim.operation_id,
            "sk": RESULT_SK,
            "result": result.model_dump_json(),
            "ttl": int((at + self._result_ttl).timestamp()),
        }
        values = to_item(
            {
                ":completed": COMPLETED,
                ":in_progress": IN_PROGRESS,
                ":attempt": claim.attempt_id,
                ":success": result.success,
                ":hash": result_hash(result),
                ":ids": dict(result.external_ids),
                ":at": at.isoformat(),
            }
        )
        try:
            self._ddb.transact_write_items(
                TransactItems=[
                    {"Put": {"TableName": self._table, "Item": to_item(result_item)}},
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": self._key(claim.operation_id, ENTRY_SK),
                            "UpdateExpression": "SET #status = :completed, success = :success, "
                            "resultHash = :hash, externalIds = :ids, completedAt = :at",
                            "ConditionExpression": "#status = :in_progress AND attempt = :attempt",
                            "ExpressionAttributeNames": {"#status": "status"},
                            "ExpressionAttributeValues": values,
                        }
                    },
                ]
            )
        except ClientError as exc:
            if _condition_failed_in_transaction(exc):
                raise ClaimLost(f"operation {claim.operation_id}: the claim is gone") from exc
            raise

    def release(self, claim: Claim) -> None:
        try:
            self._ddb.delete_item(
                TableName=self._table,
                Key=self._key(claim.operation_id, ENTRY_SK),
                ConditionExpression="#status = :in_progress AND attempt = :attempt",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_item(
                    {":in_progress": IN_PROGRESS, ":attempt": claim.attempt_id}
                ),
            )
        except ClientError as exc:
            if _error_code(exc) == "ConditionalCheckFailedException":
                raise ClaimLost(f"operation {claim.operation_id}: the claim is gone") from exc
            raise

    def result(self, operation_id: str) -> ExecutionResult | None:
        response = self._ddb.get_item(
            TableName=self._table, Key=self._key(operation_id, RESULT_SK), ConsistentRead=True
        )
        if "Item" not in response:
            return None
        return ExecutionResult.model_validate_json(from_item(response["Item"])["result"])
