"""The ledger table (`memo.tables.LEDGER`): the executor's idempotency ledger and the review task tokens.

Two items per operation (operationId = traceId:stepId, `memo.executor.ledger`):

- `sk = LEDGER`: the PII-safe entry — capability, argsHash, at, status (`in_progress` while an
  attempt holds the claim, then `completed` with success, resultHash and externalIds); the step's id
  is the end of the operation's;
- `pk = RESULT#<operation id>`, `sk = RESULT`: the full `ExecutionResult` (may hold user content),
  written in the same transaction that completes the entry and deleted by the responder when it
  claims the reply (`memo.aws.responder_memory`): kept only for a re-run until the reply is out.

Both carry a `ttl` (epoch seconds). One more item per waiting review (`memo.operator_review.tokens`):
`pk = REVIEW#<case id>`, `sk = TASK_TOKEN`, holding the Step Functions task token and the StepTask
that waits for the operator; IAM limits the review Lambdas to `REVIEW#` keys.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from memo.aws.condition_values import ALL_OLD, old_item
from memo.aws.dynamo import conditional_write, from_item, guard, to_item
from memo.aws.faults import call
from memo.capabilities.base import ExecutionResult
from memo.errors import ConditionFailed, ItemTooLarge
from memo.executor.contracts import StepTask
from memo.executor.ledger import (
    COMPLETED,
    IN_PROGRESS,
    Claim,
    ClaimLost,
    LedgerEntry,
    OperationAlreadyClaimed,
    result_hash,
)
from memo.observability import logger
from memo.operator_review.tokens import WaitingStep

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

ENTRY_SK = "LEDGER"
RESULT_SK = "RESULT"
# A full result's partition key: `RESULT#<operation id>`, so IAM can let the responder delete the
# results and nothing else of the ledger (a condition on the partition key's prefix).
RESULT_PREFIX = "RESULT#"
REVIEW_TOKEN_PREFIX = "REVIEW#"  # noqa: S105 - a key prefix, not a secret
TOKEN_SK = "TASK_TOKEN"  # noqa: S105 - a sort key name, not a secret
# A token item is kept a day past the wait's timeout (DynamoDB TTL deletes late; readers do not depend on it).
TOKEN_GRACE = timedelta(days=1)


class DynamoLedger:
    """The executor's `Ledger`: a conditional put claims (a lost one returns the existing entry with
    its error), a transaction completes (`ClaimLost` when the entry is no longer this attempt's), a
    conditional delete releases."""

    def __init__(
        self,
        dynamodb: DynamoDBClient,
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
        response = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=self._key(operation_id, ENTRY_SK),
            ConsistentRead=True,
        )
        if "Item" not in response:
            return None
        return _entry(operation_id, from_item(response["Item"]))

    def _claim_put(
        self, operation_id: str, *, capability: str, args_hash: str, at: datetime
    ) -> tuple[str, dict[str, Any]]:
        """A new attempt's id and its claim: a put of the `in_progress` entry, if there is none. The
        step's id is not stored: the operation's id (traceId:stepId) ends with it."""
        attempt_id = uuid.uuid4().hex
        item = {
            "pk": operation_id,
            "sk": ENTRY_SK,
            "capability": capability,
            "argsHash": args_hash,
            "at": at.isoformat(),
            "status": IN_PROGRESS,
            "attempt": attempt_id,
            "ttl": int((at + self._ttl).timestamp()),
        }
        return attempt_id, {
            "TableName": self._table,
            "Item": to_item(item),
            "ConditionExpression": "attribute_not_exists(pk)",
            # A lost claim brings back the entry that won: no read before, none after.
            "ReturnValuesOnConditionCheckFailure": ALL_OLD,
        }

    def claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> Claim:
        del step_id  # the operation's id ends with it
        attempt_id, put = self._claim_put(operation_id, capability=capability, args_hash=args_hash, at=at)
        try:
            conditional_write(self._ddb.put_item, **put)
        except ConditionFailed as exc:
            raise _already_claimed(operation_id, old_item(exc)) from exc
        return Claim(operation_id=operation_id, attempt_id=attempt_id)

    def pending_claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> _ClaimPut:
        del step_id  # the operation's id ends with it
        attempt_id, put = self._claim_put(operation_id, capability=capability, args_hash=args_hash, at=at)
        return _ClaimPut(claim=Claim(operation_id=operation_id, attempt_id=attempt_id), entry={"Put": put})

    def take_over(self, entry: LedgerEntry, *, at: datetime) -> Claim:
        attempt_id = uuid.uuid4().hex
        try:
            conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=self._key(entry.operation_id, ENTRY_SK),
                UpdateExpression="SET attempt = :attempt, #at = :at, #ttl = :ttl, "
                "reruns = if_not_exists(reruns, :zero) + :one",
                ConditionExpression="#status = :in_progress AND attempt = :crashed",
                ExpressionAttributeNames={"#status": "status", "#at": "at", "#ttl": "ttl"},
                ExpressionAttributeValues=to_item(
                    {
                        ":attempt": attempt_id,
                        ":at": at.isoformat(),
                        ":ttl": int((at + self._ttl).timestamp()),
                        ":zero": 0,
                        ":one": 1,
                        ":in_progress": IN_PROGRESS,
                        ":crashed": entry.attempt_id,
                    }
                ),
                # A lost race brings back what won (another re-run, a completion), or nothing.
                ReturnValuesOnConditionCheckFailure=ALL_OLD,
            )
        except ConditionFailed as exc:
            found = old_item(exc)
            raise OperationAlreadyClaimed(
                f"operation {entry.operation_id} was taken over or settled meanwhile",
                entry=_entry(entry.operation_id, found) if found is not None else None,
            ) from exc
        return Claim(operation_id=entry.operation_id, attempt_id=attempt_id)

    def _result_item(self, operation_id: str, result: ExecutionResult, at: datetime) -> dict[str, Any]:
        """The RESULT item, under DynamoDB's item limit: a result too large for it (the executor holds
        results far smaller, `memo.executor.results`) is kept without its data, which stays out of
        the ledger (logged); a replay then words its summary."""
        values = {**result_key(operation_id), "ttl": int((at + self._result_ttl).timestamp())}
        try:
            # Fields at their defaults are left out: read back, they are the same.
            item = to_item({**values, "result": result.model_dump_json(exclude_defaults=True)})
            return guard(item, what=RESULT_SK)
        except ItemTooLarge:
            logger.error("LEDGER_RESULT_KEPT_WITHOUT_DATA", extra={"operationId": operation_id})
            kept = result.model_copy(update={"data": {"truncated": True}})
            return to_item({**values, "result": kept.model_dump_json(exclude_defaults=True)})

    def complete(self, claim: Claim, result: ExecutionResult, *, at: datetime) -> None:
        values = to_item(
            {
                ":completed": COMPLETED,
                ":in_progress": IN_PROGRESS,
                ":attempt": claim.attempt_id,
                ":success": result.success,
                ":hash": result_hash(result),
                ":ids": dict(result.external_ids),
            }
        )
        try:
            conditional_write(
                self._ddb.transact_write_items,
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": self._result_item(claim.operation_id, result, at),
                        }
                    },
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": self._key(claim.operation_id, ENTRY_SK),
                            "UpdateExpression": "SET #status = :completed, success = :success, "
                            "resultHash = :hash, externalIds = :ids",
                            "ConditionExpression": "#status = :in_progress AND attempt = :attempt",
                            "ExpressionAttributeNames": {"#status": "status"},
                            "ExpressionAttributeValues": values,
                        }
                    },
                ],
            )
        except ConditionFailed as exc:
            raise ClaimLost(f"operation {claim.operation_id}: the claim is gone") from exc

    def release(self, claim: Claim) -> None:
        try:
            conditional_write(
                self._ddb.delete_item,
                TableName=self._table,
                Key=self._key(claim.operation_id, ENTRY_SK),
                ConditionExpression="#status = :in_progress AND attempt = :attempt",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues=to_item(
                    {":in_progress": IN_PROGRESS, ":attempt": claim.attempt_id}
                ),
            )
        except ConditionFailed as exc:
            raise ClaimLost(f"operation {claim.operation_id}: the claim is gone") from exc

    def result(self, operation_id: str) -> ExecutionResult | None:
        response = call(
            self._ddb.get_item,
            TableName=self._table,
            Key=to_item(result_key(operation_id)),
            ConsistentRead=True,
        )
        if "Item" not in response:
            return None
        return ExecutionResult.model_validate_json(from_item(response["Item"])["result"])


def result_key(operation_id: str) -> dict[str, str]:
    """The key of the operation's full result (plain values)."""
    return {"pk": RESULT_PREFIX + operation_id, "sk": RESULT_SK}


def _already_claimed(operation_id: str, found: dict[str, Any] | None) -> OperationAlreadyClaimed:
    return OperationAlreadyClaimed(
        f"operation {operation_id} is already claimed",
        entry=_entry(operation_id, found) if found is not None else None,
    )


@dataclass
class _ClaimPut:
    """`memo.executor.ledger.PendingClaim`: the claim's put, as one entry of another transaction."""

    claim: Claim
    entry: dict[str, Any]
    was_sent: bool = False

    def sent(self) -> None:
        self.was_sent = True

    def refused(self, found: dict[str, Any] | None) -> Exception:
        return _already_claimed(self.claim.operation_id, found)


def _entry(operation_id: str, item: dict[str, Any]) -> LedgerEntry:
    completed_at = item.get("completedAt")
    return LedgerEntry(
        operation_id=operation_id,
        capability=item["capability"],
        step_id=item.get("stepId") or operation_id.rsplit(":", 1)[-1],
        args_hash=item["argsHash"],
        at=datetime.fromisoformat(item["at"]),
        status="completed" if item["status"] == COMPLETED else "in_progress",
        attempt_id=item["attempt"],
        success=item.get("success"),
        result_hash=item.get("resultHash"),
        external_ids=item.get("externalIds", {}),
        completed_at=datetime.fromisoformat(completed_at) if completed_at else None,
        reruns=int(item.get("reruns", 0)),
    )


def _token_key(case_id: str) -> dict[str, Any]:
    return to_item({"pk": REVIEW_TOKEN_PREFIX + case_id, "sk": TOKEN_SK})


class DynamoTokenStore:
    """The review `TokenStore`: one item per case, `pk = REVIEW#<case id>`, `sk = TASK_TOKEN`."""

    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._db = client
        self._table = table_name

    def put(self, waiting: WaitingStep, *, expires_at: datetime) -> None:
        """Unconditional: a retried submit (a new attempt of the wait task) brings a new token for the
        same case, and only the newest one can still be answered."""
        call(
            self._db.put_item,
            TableName=self._table,
            Item=to_item(
                {
                    "pk": REVIEW_TOKEN_PREFIX + waiting.case_id,
                    "sk": TOKEN_SK,
                    "taskToken": waiting.task_token,
                    "task": waiting.task.model_dump_json(exclude_none=True),
                    "waitsUntil": expires_at.isoformat(),
                    "ttl": int((expires_at + TOKEN_GRACE).timestamp()),
                }
            ),
        )

    def get(self, case_id: str) -> WaitingStep | None:
        item = call(
            self._db.get_item, TableName=self._table, Key=_token_key(case_id), ConsistentRead=True
        ).get("Item")
        if item is None:
            return None
        values = from_item(item)
        waits_until = values.get("waitsUntil")
        return WaitingStep(
            case_id=case_id,
            task_token=str(values["taskToken"]),
            task=StepTask.model_validate_json(str(values["task"])),
            waits_until=datetime.fromisoformat(str(waits_until)) if waits_until else None,
        )

    def delete(self, case_id: str) -> None:
        call(self._db.delete_item, TableName=self._table, Key=_token_key(case_id))
