"""SQS FIFO adapter of the `TurnQueue` port: group = thread, dedup id = wamid."""

from __future__ import annotations

import hashlib
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
