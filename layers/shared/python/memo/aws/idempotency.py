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
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer
from aws_lambda_powertools.utilities.idempotency.persistence.datarecord import DataRecord

INPROGRESS = "INPROGRESS"
COMPLETED = "COMPLETED"


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
        super().__init__(table_name=table_name, boto3_client=boto3_client)
        self._local = threading.local()

    def _put_record(self, data_record: DataRecord) -> None:
        self._local.lock = None
        super()._put_record(data_record)
        if data_record.in_progress_expiry_timestamp is not None:
            self._local.lock = _Lock(
                key=self._get_key(data_record.idempotency_key),
                in_progress_expiry=data_record.in_progress_expiry_timestamp,
            )

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
                "UpdateExpression": "SET #status = :completed, #data = :data",
                "ConditionExpression": "#status = :inprogress AND #lock = :lock",
                "ExpressionAttributeNames": {
                    "#status": self.status_attr,
                    "#data": self.data_attr,
                    "#lock": self.in_progress_expiry_attr,
                },
                "ExpressionAttributeValues": {
                    ":completed": {"S": COMPLETED},
                    ":inprogress": {"S": INPROGRESS},
                    ":data": {"S": json.dumps(dict(result), separators=(",", ":"), sort_keys=True)},
                    ":lock": {"N": str(lock.in_progress_expiry)},
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
        super()._update_record(data_record)

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
