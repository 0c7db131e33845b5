"""The SQS FIFO queue between webhook ingress and the turn path, with its dead-letter queue.

Ordering: MessageGroupId = thread (the WhatsApp user), so one user's turns run one at a time and in
order. Deduplication: content-based deduplication is off; the sender supplies the WhatsApp message id
(wamid) as MessageDeduplicationId, so a redelivered webhook within SQS's 5-minute window is dropped
by SQS itself (Powertools idempotency catches later ones).
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as event_sources
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from memo import tables

# SQS recommends a visibility timeout of at least six times the consumer's timeout, so that messages
# are not handed out again while Lambda's poller still retries a throttled invocation.
VISIBILITY_TIMEOUT_FACTOR = 6


class TurnQueue(Construct):
    """FIFO queue + FIFO dead-letter queue; SSL enforced, SQS-managed encryption.

    A turn that fails `max_receive_count` times moves to the dead-letter queue (and its thread moves
    on); the default is the local stack's (`memo.tables.TURN_QUEUE_MAX_RECEIVE_COUNT`).
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        consumer_timeout: Duration,
        max_receive_count: int = tables.TURN_QUEUE_MAX_RECEIVE_COUNT,
    ) -> None:
        super().__init__(scope, construct_id)
        self.max_receive_count = max_receive_count
        self.dead_letter_queue = sqs.Queue(
            self,
            "DeadLetterQueue",
            fifo=True,
            content_based_deduplication=False,
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            fifo=True,
            content_based_deduplication=False,
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=Duration.seconds(consumer_timeout.to_seconds() * VISIBILITY_TIMEOUT_FACTOR),
            retention_period=Duration.days(4),
            dead_letter_queue=sqs.DeadLetterQueue(
                queue=self.dead_letter_queue, max_receive_count=max_receive_count
            ),
        )

    def grant_send(self, function: lambda_.IFunction) -> None:
        self.queue.grant_send_messages(function)

    def add_consumer(self, function: lambda_.IFunction, *, batch_size: int, max_concurrency: int) -> None:
        """Trigger `function` with batches of turns; it reports failed items (partial batch response)."""
        function.add_event_source(
            event_sources.SqsEventSource(
                self.queue,
                batch_size=batch_size,
                max_concurrency=max_concurrency,
                report_batch_item_failures=True,
            )
        )
