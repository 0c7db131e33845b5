"""The turn path's idempotency records: Powertools' DynamoDB persistence layer on the idempotency table,
completed by the turn's own transaction.

Powertools writes the record INPROGRESS before the turn runs (its conditional PutItem, unchanged:
a message already turned, or being turned elsewhere, stops there). A turn that remembers something
then completes the record *inside* the one TransactWriteItems that records its memory and any
change of its pending question (`completion_for`), before it sends anything: the record's
completion is the claim of the turn's reply, so a rerun of the same message never answers twice,
and Powertools' own completion write (an UpdateItem per turn) is skipped. Paths that record
nothing (silent events, statuses, group messages) are completed by Powertools as usual.

The completion's condition is this run's lock (status INPROGRESS with the in-progress expiry this
run wrote): a run whose lock expired and was taken over can never complete the record, nor send.

The records keep Powertools' key and attribute names (`id`, `expiration` — the table's TTL —,
`status`, `in_progress_expiration`, `data`), so every record a release wrote before is read and
honoured as it is. Only the requests are shorter: attributes are named in the expressions directly,
except DynamoDB's reserved words (`status`, `data`), and the INPROGRESS put's condition drops
`attribute_exists(in_progress_expiration)`, which its comparison implies (a comparison with a
missing attribute is false). Same claim: a new key, an expired record, or an INPROGRESS record
whose lock expired is taken; anything else (a live lock, a completed record) refuses the put and
returns the record (`ReturnValuesOnConditionCheckFailure`).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyItemAlreadyExistsError,
    IdempotencyValidationError,
)
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord
from botocore.exceptions import ClientError

INPROGRESS = "INPROGRESS"
COMPLETED = "COMPLETED"
# Powertools' default attribute names, as every record written so far holds them. The first two are
# named in expressions directly; `status` and `data` are reserved words, so they take placeholders.
EXPIRY = "expiration"  # the idempotency table's TTL attribute (`memo.tables.IDEMPOTENCY`)
LOCK = "in_progress_expiration"
# Taken when the key is new, the record expired, or its in-progress lock expired.
CLAIM_CONDITION = f"attribute_not_exists(id) OR {EXPIRY} < :now OR (#s = :p AND {LOCK} < :ms)"


@dataclass
class _Lock:
    """The record this thread wrote INPROGRESS, and whether its turn completed it in a transaction."""

    key: dict[str, Any]
    in_progress_expiry: int
    completed_in_transaction: bool = False


class TurnIdempotency(DynamoDBPersistenceLayer):
    """Powertools' layer, keyed by the WhatsApp message id, whose completion the turn can fold into
    its own transaction (one lock per thread: a Lambda turns one message at a time)."""

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
        self._local.lock = None
        self._claim(data_record)
        if data_record.in_progress_expiry_timestamp is not None:
            self._local.lock = _Lock(
                key=self._get_key(data_record.idempotency_key),
                in_progress_expiry=data_record.in_progress_expiry_timestamp,
            )

    def _claim(self, data_record: DataRecord) -> None:
        """Powertools' INPROGRESS put (`DynamoDBPersistenceLayer._put_record`), same item, same
        claim, same errors, in a shorter request."""
        item = {
            **self._get_key(data_record.idempotency_key),
            EXPIRY: {"N": str(data_record.expiry_timestamp)},
            self.status_attr: {"S": data_record.status},
        }
        if data_record.in_progress_expiry_timestamp is not None:
            item[LOCK] = {"N": str(data_record.in_progress_expiry_timestamp)}
        if self.payload_validation_enabled and data_record.payload_hash:
            item[self.validation_key_attr] = {"S": data_record.payload_hash}
        now = dt.datetime.now()
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item=item,
                ConditionExpression=CLAIM_CONDITION,
                ExpressionAttributeNames={"#s": self.status_attr},
                ExpressionAttributeValues={
                    ":now": {"N": str(int(now.timestamp()))},
                    ":ms": {"N": str(int(now.timestamp() * 1000))},
                    ":p": {"S": INPROGRESS},
                },
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise
            held = cast(dict[str, Any], exc.response).get("Item")
            if held is None:
                raise IdempotencyItemAlreadyExistsError() from exc
            old = self._item_to_data_record(held)
            try:
                self._validate_payload(data_payload=data_record, stored_data_record=old)
                self._save_to_cache(data_record=old)
            except IdempotencyValidationError as invalid:
                raise invalid from exc
            raise IdempotencyItemAlreadyExistsError(old_data_record=old) from exc

    def completion_for(self, result: Mapping[str, Any]) -> dict[str, Any] | None:
        """The TransactWriteItems entry that completes this thread's INPROGRESS record with
        `result`, conditioned on this run still holding it; None when no record is held (the turn
        then claims its reply by other means)."""
        lock: _Lock | None = getattr(self._local, "lock", None)
        if lock is None:
            return None
        return {
            "Update": {
                "TableName": self.table_name,
                "Key": lock.key,
                # The expiry stays the one Powertools' INPROGRESS put wrote (turn start + 8 days).
                "UpdateExpression": "SET #s = :c, #d = :d",
                "ConditionExpression": f"#s = :p AND {LOCK} = :l",
                "ExpressionAttributeNames": {"#s": self.status_attr, "#d": self.data_attr},
                "ExpressionAttributeValues": {
                    ":c": {"S": COMPLETED},
                    ":p": {"S": INPROGRESS},
                    ":d": {"S": json.dumps(dict(result), separators=(",", ":"), sort_keys=True)},
                    ":l": {"N": str(lock.in_progress_expiry)},
                },
            }
        }

    def completed_in_transaction(self) -> None:
        """The turn's transaction completed (or lost) this thread's record: Powertools must not
        write its completion again."""
        lock: _Lock | None = getattr(self._local, "lock", None)
        if lock is not None:
            lock.completed_in_transaction = True

    def _update_record(self, data_record: DataRecord) -> None:
        lock: _Lock | None = getattr(self._local, "lock", None)
        self._local.lock = None
        if lock is not None and lock.completed_in_transaction and data_record.status == COMPLETED:
            return
        # Powertools' completion (`DynamoDBPersistenceLayer._update_record`) in a shorter request.
        update = f"SET #d = :d, {EXPIRY} = :e, #s = :s"
        names = {"#d": self.data_attr, "#s": self.status_attr}
        values: dict[str, Any] = {
            ":d": {"S": data_record.response_data},
            ":e": {"N": str(data_record.expiry_timestamp)},
            ":s": {"S": data_record.status},
        }
        if self.payload_validation_enabled:
            update += ", #v = :v"
            names["#v"] = self.validation_key_attr
            values[":v"] = {"S": data_record.payload_hash}
        self.client.update_item(
            TableName=self.table_name,
            Key=self._get_key(data_record.idempotency_key),
            UpdateExpression=update,
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=values,
        )

    def _delete_record(self, data_record: DataRecord) -> None:
        lock: _Lock | None = getattr(self._local, "lock", None)
        self._local.lock = None
        if lock is not None and lock.completed_in_transaction:
            # The turn committed before it failed: the record stays completed, so a redelivery is
            # answered from it rather than turned (and answered) a second time.
            return
        super()._delete_record(data_record)


def idempotency_store(dynamodb: Any, table_name: str) -> TurnIdempotency:
    """Records keyed by the WhatsApp message id, written with the given DynamoDB client."""
    return TurnIdempotency(table_name=table_name, boto3_client=dynamodb)
