"""The local poller: hands the turn queue's messages to the webhook handler as SQS events, and those
of any other queue added with `add_source` (the withdrawals queue, to the review handler).

Like Lambda's event source mapping: up to 10 messages per batch, successful records deleted, failed
ones (batchItemFailures) made visible again for redelivery; after the queue's maxReceiveCount they
move to the dead-letter queue. Each round polls every queue once, the turn queue first.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError

from memo.local.context import LocalLambdaContext
from memo.local.events import sqs_event
from memo.local.functions import Handler


@dataclass(frozen=True)
class QueueSource:
    """One queue and the handler its event source mapping invokes, polled with `sqs`."""

    sqs: Any
    queue_url: str
    queue_arn: str
    handler: Handler


class FifoPoller:
    def __init__(self, sqs: Any, queue_url: str, queue_arn: str, handler: Handler) -> None:
        self._sqs = sqs
        self._queue_url = queue_url
        self._queue_arn = queue_arn
        self._handler = handler  # the turn queue's (tests replace it to make the turn crash)
        self._others: list[QueueSource] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.batches = 0

    def add_source(self, source: QueueSource) -> None:
        """Poll `source` too, after the turn queue and the queues added before it."""
        self._others.append(source)

    def poll_once(self) -> int:
        """Receive one batch of each queue and run it; returns how many messages were received."""
        turns = QueueSource(self._sqs, self._queue_url, self._queue_arn, self._handler)
        return sum(self._poll(source) for source in (turns, *self._others))

    def _poll(self, source: QueueSource) -> int:
        response = source.sqs.receive_message(
            QueueUrl=source.queue_url,
            MaxNumberOfMessages=10,
            WaitTimeSeconds=0,
            AttributeNames=["All"],
            MessageSystemAttributeNames=["All"],
        )
        messages = response.get("Messages", [])
        if not messages:
            return 0
        self.batches += 1
        try:
            result = source.handler(sqs_event(messages, source.queue_arn), LocalLambdaContext()) or {}
            failed = {f["itemIdentifier"] for f in result.get("batchItemFailures", [])}
        except BatchProcessingError:
            failed = {m["MessageId"] for m in messages}  # every record failed: the whole batch retries
        for message in messages:
            if message["MessageId"] in failed:
                source.sqs.change_message_visibility(
                    QueueUrl=source.queue_url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0
                )
            else:
                source.sqs.delete_message(QueueUrl=source.queue_url, ReceiptHandle=message["ReceiptHandle"])
        return len(messages)

    def drain(self, max_batches: int = 100) -> int:
        """Run batches until every queue is empty (tests call this instead of waiting on a thread)."""
        total = 0
        for _ in range(max_batches):
            received = self.poll_once()
            if not received:
                break
            total += received
        return total

    def start(self, interval: float = 0.05) -> None:
        def loop() -> None:
            while not self._stop.is_set():
                if not self.poll_once():
                    self._stop.wait(interval)

        self._thread = threading.Thread(target=loop, name="memo-fifo-poller", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
