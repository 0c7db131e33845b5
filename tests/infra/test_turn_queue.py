"""The turn queue: FIFO, redrive to a FIFO dead-letter queue, TLS only, the webhook as consumer."""

from __future__ import annotations

from memo import tables

from .conftest import Synthesized
from .template_queries import arn, only, queue_and_dead_letter_queue, ref


def test_turn_queue_is_fifo_without_content_dedup_and_redrives_to_a_fifo_dlq(
    synthesized: Synthesized,
) -> None:
    (_, queue), (dlq_id, dlq) = queue_and_dead_letter_queue(synthesized)
    for props in (queue["Properties"], dlq["Properties"]):
        assert props["FifoQueue"] is True
        assert props["ContentBasedDeduplication"] is False  # the sender supplies the wamid
        assert props["SqsManagedSseEnabled"] is True
    # The same number of attempts as the local stack gives a turn before its dead-letter queue.
    assert queue["Properties"]["RedrivePolicy"] == {
        "deadLetterTargetArn": arn(dlq_id),
        "maxReceiveCount": tables.TURN_QUEUE_MAX_RECEIVE_COUNT,
    }
    assert dlq["Properties"]["MessageRetentionPeriod"] == 14 * 24 * 3600


def test_every_queue_refuses_requests_without_tls(synthesized: Synthesized) -> None:
    queue_ids = set(synthesized.resources("AWS::SQS::Queue"))
    assert queue_ids == {
        *(queue_id for queue_id, _ in queue_and_dead_letter_queue(synthesized)),
        synthesized.logical_id(synthesized.stack.reminders.dead_letter_queue),
        synthesized.logical_id(synthesized.stack.reminders.schedule_dead_letter_queue),
        synthesized.logical_id(synthesized.stack.case_platform.dead_letter_queue),
        synthesized.logical_id(synthesized.stack.review.withdrawals),
        synthesized.logical_id(synthesized.stack.review.withdrawal_dead_letters),
    }
    protected: set[str] = set()
    for policy in synthesized.resources("AWS::SQS::QueuePolicy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            if statement["Effect"] == "Deny" and statement["Condition"] == {
                "Bool": {"aws:SecureTransport": "false"}
            }:
                protected.update(q["Ref"] for q in policy["Properties"]["Queues"])
    assert protected == queue_ids


def test_turn_queue_triggers_the_webhook_function_with_partial_batch_failures(
    synthesized: Synthesized,
) -> None:
    queue_arn = arn(synthesized.logical_id(synthesized.stack.turn_queue.queue))
    mappings = synthesized.resources("AWS::Lambda::EventSourceMapping")
    _, mapping = only({k: m for k, m in mappings.items() if m["Properties"]["EventSourceArn"] == queue_arn})
    props = mapping["Properties"]
    assert props["FunctionName"] == ref(synthesized.logical_id(synthesized.stack.webhook.function))
    assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert props["BatchSize"] == 1
    assert props["ScalingConfig"] == {"MaximumConcurrency": 10}
