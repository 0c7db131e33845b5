"""The turn path's idempotency records: Powertools' DynamoDB persistence layer on the idempotency table,
with the claim taken by the turn's own transaction.

Powertools asks for a claim before the turn runs (`save_inprogress`). This layer answers it with one
consistent read of the message's record instead of Powertools' INPROGRESS put: a message already
turned (a live COMPLETED record), or being turned by a release that still wrote INPROGRESS records
(a live lock), stops there as before, with its record. Otherwise nothing is written yet: the turn
writes the record COMPLETED *inside* the one TransactWriteItems that records its memory and any change
of its pending question (`completion_for`), before it sends anything, on the condition that no other
run wrote it first. That write is the claim of the turn's reply: a rerun of the same message never
answers twice. Paths that record nothing (silent events, statuses, group messages) are completed by
Powertools' completion as usual (`_update_record`, one put).

Why no INPROGRESS record: the turn path reads an SQS FIFO queue whose message group is the thread,
and the same wamid always belongs to the same thread, so two runs of one message never overlap: a
redelivery comes after the first run ended (its visibility timeout is longer than the Lambda's).
The lock an INPROGRESS record held guarded an overlap that cannot happen, and cost a write per turn
(about half a kilobyte on the wire). If two runs ever did overlap, both would turn the message and
only the first transaction would commit; the other is refused and sends nothing.

The records keep Powertools' key and attribute names (`id`, `expiration` — the table's TTL —,
`status`, `in_progress_expiration`, `data`), so every record a release wrote before is read and
honoured as it is, and a release that still claims with Powertools' INPROGRESS put refuses the
records this one completes.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyItemAlreadyExistsError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord

INPROGRESS = "INPROGRESS"
COMPLETED = "COMPLETED"
# Powertools' default attribute names, as every record written so far holds them. The first two are
# named in expressions directly; `status` and `data` are reserved words, so they take placeholders.
EXPIRY = "expiration"  # the idempotency table's TTL attribute (`memo.tables.IDEMPOTENCY`)
LOCK = "in_progress_expiration"
# A record that was there when the run read it is taken over only while it is still dead: expired, or
# an INPROGRESS record whose lock expired (a run of an earlier release that died).
TAKEOVER_CONDITION = f"attribute_not_exists(id) OR {EXPIRY} < :now OR (#s = :p AND {LOCK} < :ms)"


@dataclass
class _Claim:
    """The record this thread's run will write when its turn records, and whether its turn did."""

    key: dict[str, Any]
    expiry: int
    taken_over: bool  # a dead record was there when the run read it
    completed_in_transaction: bool = False


def _dead(record: Mapping[str, Any], now: dt.datetime) -> bool:
    """The claim's rule: an expired record (DynamoDB deletes expired items late), or an INPROGRESS
    record whose lock expired, is as good as gone."""
    if int(record[EXPIRY]["N"]) < int(now.timestamp()):
        return True
    lock = record.get(LOCK)
    return (
        record["status"]["S"] == INPROGRESS
        and lock is not None
        and int(lock["N"]) < int(now.timestamp() * 1000)
    )


class TurnIdempotency(DynamoDBPersistenceLayer):
    """Powertools' layer, keyed by the WhatsApp message id, whose record the turn writes in its own
    transaction (one claim per thread: a Lambda turns one message at a time)."""

    def __init__(self, *, table_name: str, boto3_client: Any) -> None:
        super().__init__(
            table_name=table_name,
            key_attr="id",
            expiry_attr=EXPIRY,
            in_progress_expiry_attr=LOCK,
            boto3_client=boto3_client,
        )
        self._local = threading.local()

    def _put_record(self, data_record: DataRecord) -> None:
        """Powertools' claim: refused (with the record) when the message is turned or being turned;
        else remembered, to be written by the turn's transaction or Powertools' completion."""
        self._local.claim = None
        key = self._get_key(data_record.idempotency_key)
        held = self.client.get_item(TableName=self.table_name, Key=key, ConsistentRead=True).get("Item")
        if held is not None and not _dead(held, dt.datetime.now()):
            old = self._item_to_data_record(held)
            self._validate_payload(data_payload=data_record, stored_data_record=old)
            self._save_to_cache(data_record=old)
            raise IdempotencyItemAlreadyExistsError(old_data_record=old)
        assert data_record.expiry_timestamp is not None  # Powertools sets it with every claim
        self._local.claim = _Claim(key=key, expiry=data_record.expiry_timestamp, taken_over=held is not None)

    def completion_for(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """The TransactWriteItems entry that writes this thread's record COMPLETED with `result`, on
        the condition that no other run wrote it since this one read it; None when this run holds no
        claim (the turn then claims its reply by other means)."""
        claim: _Claim | None = getattr(self._local, "claim", None)
        if claim is None:
            return None
        put: dict[str, Any] = {
            "TableName": self.table_name,
            "Item": {
                **claim.key,
                EXPIRY: {"N": str(claim.expiry)},
                self.status_attr: {"S": COMPLETED},
                self.data_attr: {"S": json.dumps(dict(result), separators=(",", ":"), sort_keys=True)},
            },
            "ConditionExpression": "attribute_not_exists(id)",
        }
        if claim.taken_over:
            now = dt.datetime.now()
            put["ConditionExpression"] = TAKEOVER_CONDITION
            put["ExpressionAttributeNames"] = {"#s": self.status_attr}
            put["ExpressionAttributeValues"] = {
                ":now": {"N": str(int(now.timestamp()))},
                ":ms": {"N": str(int(now.timestamp() * 1000))},
                ":p": {"S": INPROGRESS},
            }
        return {"Put": put}

    def completed_in_transaction(self) -> None:
        """The turn's transaction wrote (or found written) this thread's record: Powertools must not
        write its completion again."""
        claim: _Claim | None = getattr(self._local, "claim", None)
        if claim is not None:
            claim.completed_in_transaction = True

    def _update_record(self, data_record: DataRecord) -> None:
        claim: _Claim | None = getattr(self._local, "claim", None)
        self._local.claim = None
        if claim is not None and claim.completed_in_transaction and data_record.status == COMPLETED:
            return
        # Powertools' completion (`DynamoDBPersistenceLayer._update_record`) of a turn that recorded
        # nothing: the whole record in one put (no INPROGRESS record was written before it).
        item = {
            **self._get_key(data_record.idempotency_key),
            EXPIRY: {"N": str(data_record.expiry_timestamp)},
            self.status_attr: {"S": data_record.status},
            self.data_attr: {"S": data_record.response_data},
        }
        if self.payload_validation_enabled:
            item[self.validation_key_attr] = {"S": data_record.payload_hash}
        self.client.put_item(TableName=self.table_name, Item=item)

    def _delete_record(self, data_record: DataRecord) -> None:
        # Powertools deletes the claim of a turn that failed, so a redelivery may turn the message.
        # This layer wrote nothing before the turn; a turn that committed before it failed leaves its
        # record completed, so a redelivery is answered from it rather than turned a second time.
        # The claim stays this thread's until its next message: the failure reply of a turn that
        # failed on its last receive writes the record with it (`TurnEngine.give_up`).
        return


def idempotency_store(dynamodb: Any, table_name: str) -> TurnIdempotency:
    """Records keyed by the WhatsApp message id, written with the given DynamoDB client."""
    return TurnIdempotency(table_name=table_name, boto3_client=dynamodb)
