"""The turn path's idempotency records: a Powertools persistence layer on the idempotency table, with
the claim taken by the turn's own transaction.

`TurnIdempotency` is a custom persistence layer in Powertools' documented way: it subclasses
`BasePersistenceLayer` and implements its four record methods (`_get_record`, `_put_record`,
`_update_record`, `_delete_record`); it relies on nothing else of Powertools but the `DataRecord`
those methods receive and Powertools' public exceptions.

Powertools asks for a claim before the turn runs (`save_inprogress` -> `_put_record`). This layer
writes and reads nothing then: the turn writes the message's record COMPLETED *inside* the one
TransactWriteItems that records its memory and any change of its pending question (`completion_for`),
before it sends anything, on the condition that no record is there. That write is the claim of the
turn's reply: a rerun of the same message never answers twice. Only when it is refused does this
layer read the record that stood in the way (`check`), which says why:

- a live COMPLETED record: the message was turned by an earlier run (SQS redelivered it after a
  crash, or a timeout after the write). This run records and sends nothing (`AlreadyTurned`, with
  what that run stored: its plan's start, issued again in case it died before the start);
- a live INPROGRESS lock, held by a release that still claimed with Powertools' put: Powertools'
  `IdempotencyAlreadyInProgressError`, and SQS redelivers the message after that run ends;
- a dead record (expired, which DynamoDB deletes late, or a lock whose run died): taken over, by the
  same write again on the condition that it is still dead.

Paths that record nothing (silent events, statuses, group messages) are completed by Powertools'
completion (`save_success` -> `_update_record`, one put).

Why no read or INPROGRESS record before the turn: the turn path reads an SQS FIFO queue whose message
group is the thread, and the same wamid always belongs to the same thread, so two runs of one message
never overlap: a redelivery comes after the first run ended (its visibility timeout is longer than
the Lambda's). A lock guarded an overlap that cannot happen, and a read before the turn paid a
request on every turn for the rare redelivery; that redelivery now turns the message again, up to
its write, which is refused. If two runs ever did overlap, both would turn the message and only the
first transaction would commit; the other is refused and sends nothing.

The records keep the key and attribute names of Powertools' DynamoDB layer (`id`, `expiration` — the
table's TTL —, `status`, `in_progress_expiration`, `data`, `validation`; the turn's record leaves
`data` out when the turn stored nothing, which Powertools reads as no data), so every record a release
wrote with that layer is read and honoured as it is, and a release that still claims with its
INPROGRESS put refuses the records this one completes.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyItemNotFoundError,
    IdempotencyValidationError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord

from memo.errors import AlreadyTurned

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

INPROGRESS = "INPROGRESS"
COMPLETED = "COMPLETED"
# The attribute names of Powertools' DynamoDB layer, as every record written so far holds them. The
# key, expiry and lock are named in expressions directly; `status` and `data` are reserved words, so
# they take placeholders.
KEY = "id"
EXPIRY = "expiration"  # the idempotency table's TTL attribute (`memo.tables.IDEMPOTENCY`)
LOCK = "in_progress_expiration"
STATUS = "status"
DATA = "data"
VALIDATION = "validation"
# A record that refused the turn's write is taken over only while it is still dead: expired, or an
# INPROGRESS record whose lock expired (a run of an earlier release that died).
TAKEOVER_CONDITION = f"attribute_not_exists({KEY}) OR {EXPIRY} < :now OR (#s = :p AND {LOCK} < :ms)"


@dataclass
class _Claim:
    """The record this thread's run will write when its turn records, and whether its turn did."""

    record: DataRecord
    key: dict[str, Any]
    expiry: int
    taken_over: bool = False  # a dead record refused the first write: the next one takes it over
    completed_in_transaction: bool = False


def _dead(record: Mapping[str, Any], now: dt.datetime) -> bool:
    """The claim's rule: an expired record (DynamoDB deletes expired items late), or an INPROGRESS
    record whose lock expired, is as good as gone."""
    if int(record[EXPIRY]["N"]) < int(now.timestamp()):
        return True
    lock = record.get(LOCK)
    return (
        record[STATUS]["S"] == INPROGRESS
        and lock is not None
        and int(lock["N"]) < int(now.timestamp() * 1000)
    )


def _record_of(item: Mapping[str, Any]) -> DataRecord:
    """A stored item as Powertools' `DataRecord`."""
    lock = item.get(LOCK)
    return DataRecord(
        idempotency_key=item[KEY]["S"],
        status=item[STATUS]["S"],
        expiry_timestamp=int(item[EXPIRY]["N"]),
        in_progress_expiry_timestamp=int(lock["N"]) if lock is not None else None,
        response_data=item.get(DATA, {}).get("S", ""),
        payload_hash=item.get(VALIDATION, {}).get("S", ""),
    )


class TurnIdempotency(BasePersistenceLayer):
    """Records keyed by the WhatsApp message id, whose record the turn writes in its own transaction
    (one claim per thread: a Lambda turns one message at a time)."""

    expiry_attr = EXPIRY

    def __init__(self, *, table_name: str, boto3_client: DynamoDBClient) -> None:
        super().__init__()
        self.table_name = table_name
        self.client = boto3_client
        self._local = threading.local()

    def _claim(self) -> _Claim | None:
        claim: _Claim | None = getattr(self._local, "claim", None)
        return claim

    def _read(self, key: dict[str, Any]) -> dict[str, Any] | None:
        item = self.client.get_item(TableName=self.table_name, Key=key, ConsistentRead=True).get("Item")
        return dict(item) if item is not None else None

    def _get_record(self, idempotency_key: str) -> DataRecord:
        """The stored record (Powertools asks for it only after a refused claim, which this layer's
        claim never is)."""
        item = self._read({KEY: {"S": idempotency_key}})
        if item is None:
            raise IdempotencyItemNotFoundError
        return _record_of(item)

    def _put_record(self, data_record: DataRecord) -> None:
        """Powertools' claim: nothing is written or read; the turn's transaction writes the record
        (`completion_for`), or Powertools' completion does for a turn that records nothing."""
        assert data_record.expiry_timestamp is not None  # Powertools sets it with every claim
        self._local.claim = _Claim(
            record=data_record,
            key={KEY: {"S": data_record.idempotency_key}},
            expiry=data_record.expiry_timestamp,
        )

    def check(self) -> None:
        """Read the message's record and say whether this run may turn it: a turned message raises
        `AlreadyTurned` (with what its run stored), one an earlier release is turning raises
        Powertools' `IdempotencyAlreadyInProgressError`; a dead record (or none: the TTL sweep took
        it meanwhile) returns, and the next `completion_for` takes it over. Asked when the turn's
        write was refused, and before a side effect that no write of the turn claims (a group's
        reply, a number move, a failed delivery's follow-up). A run outside Powertools'
        idempotency holds no claim: nothing to check."""
        claim = self._claim()
        if claim is None:
            return
        held = self._read(claim.key)
        if held is None or _dead(held, dt.datetime.now()):
            claim.taken_over = held is not None
            return
        old = _record_of(held)
        if self.payload_validation_enabled and old.payload_hash != claim.record.payload_hash:
            raise IdempotencyValidationError("Payload does not match stored record for this event key")
        if old.status == INPROGRESS:
            raise IdempotencyAlreadyInProgressError(
                f"message {claim.record.idempotency_key} is being turned by another run"
            )
        claim.completed_in_transaction = True  # Powertools must not complete it again
        raise AlreadyTurned(old.response_json_as_dict() or {})

    def completion_for(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """The TransactWriteItems entry that writes this thread's record COMPLETED with `result`, on
        the condition that no other run wrote it since this one read it; None when this run holds no
        claim (the turn then claims its reply by other means)."""
        claim = self._claim()
        if claim is None:
            return None
        item = {**claim.key, EXPIRY: {"N": str(claim.expiry)}, STATUS: {"S": COMPLETED}}
        if result:  # an empty result is no `data` (read back as none: `check` answers with {})
            item[DATA] = {"S": json.dumps(dict(result), separators=(",", ":"), sort_keys=True)}
        put: dict[str, Any] = {
            "TableName": self.table_name,
            "Item": item,
            "ConditionExpression": f"attribute_not_exists({KEY})",
        }
        if claim.taken_over:
            now = dt.datetime.now()
            put["ConditionExpression"] = TAKEOVER_CONDITION
            put["ExpressionAttributeNames"] = {"#s": STATUS}
            put["ExpressionAttributeValues"] = {
                ":now": {"N": str(int(now.timestamp()))},
                ":ms": {"N": str(int(now.timestamp() * 1000))},
                ":p": {"S": INPROGRESS},
            }
        return {"Put": put}

    def completed_in_transaction(self) -> None:
        """The turn's transaction wrote (or found written) this thread's record: Powertools must not
        write its completion again."""
        claim = self._claim()
        if claim is not None:
            claim.completed_in_transaction = True

    def _update_record(self, data_record: DataRecord) -> None:
        """Powertools' completion: nothing when the turn's transaction wrote the record; else (a turn
        that recorded nothing) the whole record in one put (no INPROGRESS record was written before
        it), never over a live record an earlier run of the message wrote (it may hold that run's
        start)."""
        claim = self._claim()
        self._local.claim = None
        if claim is not None and claim.completed_in_transaction and data_record.status == COMPLETED:
            return
        item = {
            KEY: {"S": data_record.idempotency_key},
            EXPIRY: {"N": str(data_record.expiry_timestamp)},
            STATUS: {"S": data_record.status},
            DATA: {"S": data_record.response_data},
        }
        if self.payload_validation_enabled:
            item[VALIDATION] = {"S": data_record.payload_hash}
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item=item,
                ConditionExpression=f"attribute_not_exists({KEY}) OR {EXPIRY} < :now",
                ExpressionAttributeValues={":now": {"N": str(int(dt.datetime.now().timestamp()))}},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return  # the message's record is there already: it stays as its first run wrote it

    def _delete_record(self, data_record: DataRecord) -> None:
        """Powertools deletes the claim of a turn that failed, so a redelivery may turn the message.
        This layer wrote nothing before the turn; a turn that committed before it failed leaves its
        record completed, so a redelivery is answered from it rather than turned a second time. The
        claim stays this thread's until its next message: the failure reply of a turn that failed on
        its last receive writes the record with it (`TurnEngine.give_up`)."""
        return


def idempotency_store(dynamodb: DynamoDBClient, table_name: str) -> TurnIdempotency:
    """Records keyed by the WhatsApp message id, written with the given DynamoDB client."""
    return TurnIdempotency(table_name=table_name, boto3_client=dynamodb)
