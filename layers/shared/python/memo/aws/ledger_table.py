"""The ledger table (`memo.tables.LEDGER`): the executor's idempotency ledger and the review task tokens.

One item per operation (operationId = traceId:stepId, `memo.executor.ledger`), `sk = LEDGER`:
capability, argsHash, at, status (`in_progress` while an attempt holds the claim, then `completed`)
and attempt; a completed entry holds its `replay` (`memo.executor.ledger.replay_of`: the result
without the user's words, as compact JSON, the capability left to the entry's own), written by the
one UpdateItem that completes it, or by the put that claims it when the step's one transaction
carries the claim and says what it does (`memo.executor.ledger.PendingClaim`): that put, completed
at once, holds neither `at` nor `attempt` (no attempt holds the entry, and its `at` is its `ttl`
less the ledger's retention). It carries a `ttl` (epoch seconds). The step's id is the end of
the operation's.

One more item per waiting review (`memo.operator_review.tokens`): `pk = REVIEW#<case id>`,
`sk = TASK_TOKEN`, holding the Step Functions task token and the StepTask that waits for the
operator; IAM limits the review Lambdas to `REVIEW#` keys.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from memo.aws.condition_values import ALL_OLD, old_item
from memo.aws.dynamo import conditional_write, from_item, to_item
from memo.aws.faults import call
from memo.capabilities.base import ExecutionResult
from memo.errors import ConditionFailed
from memo.executor.contracts import StepTask
from memo.executor.ledger import (
    COMPLETED,
    IN_PROGRESS,
    Claim,
    ClaimLost,
    LedgerEntry,
    OperationAlreadyClaimed,
    replay_of,
)
from memo.executor.results import bounded
from memo.operator_review.tokens import WaitingStep

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

ENTRY_SK = "LEDGER"
REPLAY = "replay"
# An attempt's id: it tells the attempts of one operation apart (a claim, its take-overs).
ATTEMPT_ID_CHARS = 16
REVIEW_TOKEN_PREFIX = "REVIEW#"  # noqa: S105 - a key prefix, not a secret
TOKEN_SK = "TASK_TOKEN"  # noqa: S105 - a sort key name, not a secret
# A token item is kept a day past the wait's timeout (DynamoDB TTL deletes late; readers do not depend on it).
TOKEN_GRACE = timedelta(days=1)


class DynamoLedger:
    """The executor's `Ledger`: a conditional put claims (a lost one returns the existing entry with
    its error), a conditional update completes (`ClaimLost` when the entry is no longer this
    attempt's), a conditional delete releases."""

    def __init__(
        self,
        dynamodb: DynamoDBClient,
        table_name: str,
        *,
        ttl_seconds: int,
    ) -> None:
        self._ddb = dynamodb
        self._table = table_name
        self._ttl = timedelta(seconds=ttl_seconds)

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
        return _entry(operation_id, from_item(response["Item"]), self._ttl)

    def _claim_put(
        self, operation_id: str, *, capability: str, args_hash: str, at: datetime
    ) -> tuple[str, dict[str, Any]]:
        """A new attempt's id and its claim: a put of the `in_progress` entry, if there is none. The
        step's id is not stored: the operation's id (traceId:stepId) ends with it."""
        attempt_id = uuid.uuid4().hex[:ATTEMPT_ID_CHARS]
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
            raise _already_claimed(operation_id, old_item(exc), self._ttl) from exc
        return Claim(operation_id=operation_id, attempt_id=attempt_id)

    def pending_claim(
        self, operation_id: str, *, capability: str, step_id: str, args_hash: str, at: datetime
    ) -> _ClaimPut:
        attempt_id, put = self._claim_put(operation_id, capability=capability, args_hash=args_hash, at=at)
        return _ClaimPut(
            claim=Claim(operation_id=operation_id, attempt_id=attempt_id),
            put=put,
            step_id=step_id,
            retention=self._ttl,
        )

    def take_over(self, entry: LedgerEntry, *, at: datetime) -> Claim:
        attempt_id = uuid.uuid4().hex[:ATTEMPT_ID_CHARS]
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
                entry=_entry(entry.operation_id, found, self._ttl) if found is not None else None,
            ) from exc
        return Claim(operation_id=entry.operation_id, attempt_id=attempt_id)

    def complete(self, claim: Claim, result: ExecutionResult, *, at: datetime) -> None:
        del at  # the entry keeps when it was claimed; its ttl counts from then
        replay = _replay_text(result)
        try:
            conditional_write(
                self._ddb.update_item,
                TableName=self._table,
                Key=self._key(claim.operation_id, ENTRY_SK),
                UpdateExpression=f"SET #s = :c, {REPLAY} = :r",
                ConditionExpression="#s = :p AND attempt = :a",
                ExpressionAttributeNames={"#s": "status"},
                ExpressionAttributeValues=to_item(
                    {":c": COMPLETED, ":r": replay, ":p": IN_PROGRESS, ":a": claim.attempt_id}
                ),
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


def _already_claimed(
    operation_id: str, found: dict[str, Any] | None, retention: timedelta
) -> OperationAlreadyClaimed:
    return OperationAlreadyClaimed(
        f"operation {operation_id} is already claimed",
        entry=_entry(operation_id, found, retention) if found is not None else None,
    )


@dataclass
class _ClaimPut:
    """`memo.executor.ledger.PendingClaim`: the claim's put, as one entry of another transaction;
    completed with the step's replay when the operation says what its one transaction does."""

    claim: Claim
    put: dict[str, Any]
    step_id: str
    retention: timedelta  # the ledger's: a completed put's `at` is its ttl less this
    was_sent: bool = False
    was_completed: bool = False
    _result_of: Callable[[Sequence[str]], ExecutionResult] | None = None
    _completes: bool = False  # whether the entry last given out completes the step

    def completed_as(self, result_of: Callable[[Sequence[str]], ExecutionResult]) -> None:
        self._result_of = result_of

    def entry_for(self, written: Sequence[str] | None) -> dict[str, Any]:
        self._completes = written is not None and self._result_of is not None
        if written is None or self._result_of is None:
            return {"Put": self.put}
        # The result as the executor hands it on (`bounded`), so the replay is the one `complete`
        # would have written. Completed at once, it is no attempt's: no `attempt`, and no `at`
        # (its ttl says when it was claimed).
        result = bounded(self._result_of(written), step_id=self.step_id)
        item = {
            **{k: v for k, v in self.put["Item"].items() if k not in ("at", "attempt")},
            **to_item({"status": COMPLETED, REPLAY: _replay_text(result)}),
        }
        return {"Put": {**self.put, "Item": item}}

    def sent(self) -> None:
        self.was_sent = True
        self.was_completed = self._completes

    def refused(self, found: dict[str, Any] | None) -> Exception:
        return _already_claimed(self.claim.operation_id, found, self.retention)


def _replay_text(result: ExecutionResult) -> str:
    """The replay as the entry keeps it: fields at their defaults are left out (read back, they are
    the same), and so is the capability (the entry holds it)."""
    return replay_of(result).model_dump_json(exclude_defaults=True, exclude={"capability"})


def _replay(item: dict[str, Any]) -> ExecutionResult | None:
    raw = item.get(REPLAY)
    if not isinstance(raw, str):
        return None  # in progress, or completed by a release that kept the result elsewhere
    return ExecutionResult.model_validate({**json.loads(raw), "capability": item["capability"]})


def _entry(operation_id: str, item: dict[str, Any], retention: timedelta) -> LedgerEntry:
    """An entry as stored; one completed by the step's own transaction holds no `at` (its ttl less
    the ledger's `retention`, to the second) and no `attempt`."""
    at = item.get("at")
    return LedgerEntry(
        operation_id=operation_id,
        capability=item["capability"],
        step_id=item.get("stepId") or operation_id.rsplit(":", 1)[-1],
        args_hash=item["argsHash"],
        at=datetime.fromisoformat(at) if isinstance(at, str) else _claimed_at(item, retention),
        status="completed" if item["status"] == COMPLETED else "in_progress",
        attempt_id=str(item.get("attempt", "")),
        replay=_replay(item),
        reruns=int(item.get("reruns", 0)),
    )


def _claimed_at(item: dict[str, Any], retention: timedelta) -> datetime:
    return datetime.fromtimestamp(int(item["ttl"]), tz=UTC) - retention


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
