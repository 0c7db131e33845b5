"""The local poller: hands the turn queue's messages to the webhook handler as SQS events, and those
of any other queue added with `add_source` (the withdrawals queue, to the review handler).

Like Lambda's event source mapping for FIFO queues: up to 10 messages per batch, successful records
deleted, failed ones (batchItemFailures) made visible again for redelivery; after the queue's
maxReceiveCount they move to the dead-letter queue. And like it, one sender's backlog does not hold
the others up: the mapping turns the batches of different message groups (threads) side by side,
while a group with a batch in flight gets no other. Here each poll receives until the turn queue has
no group free (up to `MAX_BATCHES_IN_FLIGHT` batches, each received while the earlier ones are in
flight, so the queue skips their groups), then runs them one after the other, the smaller first: a
second user's message waits for at most the batch that was running when it came, not for the whole
flood; then one batch of each other queue. That is `poll_once` and `drain`, which the tests call. A
started poller (`make run`, `make serve`, `make bench`) runs `WORKERS` threads that each receive a
batch and run it, side by side as Lambda does: a second user's turn runs beside the flood's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError

from memo.local.context import LocalLambdaContext
from memo.local.events import sqs_event
from memo.local.functions import Handler

# Lambda turns the groups of a FIFO queue side by side (one batch per group at a time); here up to this
# many batches are received per poll, each of groups the earlier ones left free.
MAX_BATCHES_IN_FLIGHT = 10
# The threads of a started poller: Lambda's concurrent invocations, each turning other senders.
WORKERS = 4


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
        self._counting = threading.Lock()
        self._threads: list[threading.Thread] = []
        self.batches = 0

    def add_source(self, source: QueueSource) -> None:
        """Poll `source` too, after the turn queue and the queues added before it."""
        self._others.append(source)

    def poll_once(self) -> int:
        """Receive a batch of the turn queue for every message group that has none in flight, run them
        in turn, then one batch of each other queue; returns how many messages were received."""
        turns = self._turns()
        batches: list[list[dict[str, Any]]] = []
        while len(batches) < MAX_BATCHES_IN_FLIGHT:
            messages = self._receive(turns)
            if not messages:
                break
            batches.append(messages)
        # Lambda runs them side by side; one after the other here, the smaller first, so a sender
        # with one message waits for no flooding sender's batch of this poll.
        for messages in sorted(batches, key=len):
            self._run(turns, messages)
        received = sum(len(messages) for messages in batches)
        for source in self._others:
            messages = self._receive(source)
            if messages:
                self._run(source, messages)
            received += len(messages)
        return received

    def _turns(self) -> QueueSource:
        return QueueSource(self._sqs, self._queue_url, self._queue_arn, self._handler)

    def _receive(self, source: QueueSource) -> list[dict[str, Any]]:
        response = source.sqs.receive_message(
            QueueUrl=source.queue_url,
            MaxNumberOfMessages=10,
            WaitTimeSeconds=0,
            AttributeNames=["All"],
            MessageSystemAttributeNames=["All"],
        )
        return list(response.get("Messages", []))

    def _run(self, source: QueueSource, messages: list[dict[str, Any]]) -> None:
        with self._counting:
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

    def drain(self, max_batches: int = 100) -> int:
        """Run batches until every queue is empty (tests call this instead of waiting on a thread)."""
        total = 0
        for _ in range(max_batches):
            received = self.poll_once()
            if not received:
                break
            total += received
        return total

    def start(self, interval: float = 0.05, *, workers: int = WORKERS) -> None:
        """Poll on `workers` threads, each receiving a batch and running it, as Lambda's concurrent
        invocations do: a batch in flight keeps its groups from the others, so each thread's turns
        are of other senders."""

        def loop() -> None:
            while not self._stop.is_set():
                ran = 0
                for source in (self._turns(), *self._others):
                    messages = self._receive(source)
                    if messages:
                        self._run(source, messages)
                    ran += len(messages)
                if not ran:
                    self._stop.wait(interval)

        self._threads = [
            threading.Thread(target=loop, name=f"memo-fifo-poller-{n}", daemon=True) for n in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
