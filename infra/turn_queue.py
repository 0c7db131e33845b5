"""The SQS FIFO queue between webhook ingress and the turn path, with its dead-letter queue.

Ordering: MessageGroupId = thread (the WhatsApp user), so one user's turns run one at a time and in
order. Deduplication: content-based deduplication is off; the sender supplies the WhatsApp message id
(wamid) as MessageDeduplicationId, so a redelivered webhook within SQS's 5-minute window is dropped
by SQS itself (Powertools idempotency catches later ones).

Least privilege: the sender gets SendMessage on the queue only; the consumer's role what Lambda's
event source mapping calls with it (ReceiveMessage, DeleteMessage, GetQueueAttributes: `consume`,
shared with the review function's withdrawals queue), not `grant_consume_messages`' GetQueueUrl and
ChangeMessageVisibility, which nothing calls.
"""

from __future__ import annotations

from aws_cdk import Duration, Names
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from memo import tables

# What Lambda's event source mapping calls with the consumer's role (AWSLambdaSQSQueueExecutionRole).
CONSUMER_ACTIONS = ("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes")

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
        """SendMessage (the ingress's SendMessageBatch is authorized by it) on this queue only."""
        function.add_to_role_policy(
            iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[self.queue.queue_arn])
        )

    def add_consumer(self, function: lambda_.Function, *, batch_size: int, max_concurrency: int) -> None:
        """Trigger `function` with batches of turns; it reports failed items (partial batch response)."""
        consume(self.queue, function, batch_size=batch_size, max_concurrency=max_concurrency)


def consume(
    queue: sqs.IQueue,
    function: lambda_.Function,
    *,
    batch_size: int,
    max_concurrency: int | None = None,
) -> lambda_.EventSourceMapping:
    """`function` triggered by batches of `queue`, reporting failed items (partial batch response),
    with only the queue actions the event source mapping calls with the function's role.

    The mapping keeps the id `SqsEventSource` gives it, so its logical id (and the deployed mapping)
    stays the same: CloudFormation would otherwise create a second mapping of the same queue and
    function before deleting the first, which Lambda refuses."""
    function.add_to_role_policy(
        iam.PolicyStatement(actions=list(CONSUMER_ACTIONS), resources=[queue.queue_arn])
    )
    return function.add_event_source_mapping(
        f"SqsEventSource:{Names.node_unique_id(queue.node)}",
        event_source_arn=queue.queue_arn,
        batch_size=batch_size,
        max_concurrency=max_concurrency,
        report_batch_item_failures=True,
    )
