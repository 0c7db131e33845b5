"""SQS adapters: the turn queue (`TurnQueue`, FIFO: group = thread, dedup id = wamid) and the
withdrawals queue (`WithdrawalNotices`: a case the user withdrew, for the review Lambda to end its wait)."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from memo.errors import EnqueueFailed
from memo.observability import logger

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient

    from memo.ingress.messages import QueuedMessage

SQS_BATCH = 10
MAX_DEDUP_ID = 128


def dedup_id(wamid: str) -> str:
    """SQS dedup ids are <= 128 chars of [A-Za-z0-9!-~]; wamids fit, but hash anything that does not."""
    if len(wamid) <= MAX_DEDUP_ID and wamid.isascii() and wamid.isprintable() and " " not in wamid:
        return wamid
    return hashlib.sha256(wamid.encode()).hexdigest()


def group_id(thread_id: str) -> str:
    return hashlib.sha256(thread_id.encode()).hexdigest()[:64]


class SqsTurnQueue:
    def __init__(self, sqs: SQSClient, queue_url: str) -> None:
        self._sqs = sqs
        self._queue_url = queue_url

    def enqueue(self, messages: list[QueuedMessage]) -> None:
        failed: list[str] = []
        for start in range(0, len(messages), SQS_BATCH):
            chunk = messages[start : start + SQS_BATCH]
            response = self._sqs.send_message_batch(
                QueueUrl=self._queue_url,
                Entries=[
                    {
                        "Id": str(index),
                        "MessageBody": message.to_json(),
                        "MessageGroupId": group_id(message.thread_id),
                        "MessageDeduplicationId": dedup_id(message.wamid),
                    }
                    for index, message in enumerate(chunk)
                ],
            )
            failed.extend(entry.get("Code", "unknown") for entry in response.get("Failed", []))
        if failed:
            logger.error("ENQUEUE_FAILED", extra={"failed": len(failed), "codes": sorted(set(failed))})
            raise EnqueueFailed(f"{len(failed)} of {len(messages)} messages could not be enqueued")


class SqsWithdrawalNotices:
    """One message per withdrawn case, `{"case_id": ...}`: the review Lambda reads the case's history
    and fails the waiting step's task token (`memo.operator_review.withdraw.WithdrawnSteps`)."""

    def __init__(self, sqs: SQSClient, queue_url: str) -> None:
        self._sqs = sqs
        self._queue_url = queue_url

    def withdrawn(self, case_id: str) -> None:
        from memo.aws.faults import call  # not at import: the ingress path imports this module

        call(self._sqs.send_message, QueueUrl=self._queue_url, MessageBody=json.dumps({"case_id": case_id}))
