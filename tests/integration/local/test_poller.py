"""The local FIFO poller hands the turn queue's messages to the handler in order, as SQS events,
deletes what succeeded and makes a failed record visible again for redelivery."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from moto import mock_aws

from memo.local.aws import LocalResources, create_resources, sqs_client
from memo.local.poller import FifoPoller


@pytest.fixture
def resources() -> Iterator[LocalResources]:
    with mock_aws():
        yield create_resources()


class Handler:
    def __init__(self, fail: set[str] | None = None) -> None:
        self.bodies: list[str] = []
        self.fail = fail or set()

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        failures = []
        for record in event["Records"]:
            self.bodies.append(record["body"])
            if record["body"] in self.fail:
                self.fail.discard(record["body"])  # fails once, then goes through
                failures.append({"itemIdentifier": record["messageId"]})
        return {"batchItemFailures": failures}


def _send(resources: LocalResources, *bodies: str) -> None:
    sqs = sqs_client()
    for n, body in enumerate(bodies):
        sqs.send_message(
            QueueUrl=resources.queue_url,
            MessageBody=body,
            MessageGroupId="972501234567",
            MessageDeduplicationId=f"d{n}",
        )


def test_messages_are_handed_over_in_order_and_deleted(resources: LocalResources) -> None:
    handler = Handler()
    _send(resources, *[f"m{n}" for n in range(12)])
    poller = FifoPoller(sqs_client(), resources.queue_url, resources.queue_arn, handler)
    assert poller.drain() == 12
    assert handler.bodies == [f"m{n}" for n in range(12)]
    assert poller.batches == 2  # at most ten messages a batch
    assert poller.poll_once() == 0


def test_a_failed_record_is_delivered_again(resources: LocalResources) -> None:
    handler = Handler(fail={"m1"})
    _send(resources, "m0", "m1")
    poller = FifoPoller(sqs_client(), resources.queue_url, resources.queue_arn, handler)
    poller.drain()
    assert handler.bodies.count("m1") == 2 and handler.bodies.count("m0") == 1
    assert poller.poll_once() == 0


def test_another_sender_is_not_held_behind_a_backlog(resources: LocalResources) -> None:
    """Like Lambda's event source mapping, a poll takes one batch per message group: a second
    sender's message is handed over with one batch of a flooding sender's (before it: the smaller
    batch first), not after all of them."""
    handler = Handler()
    _send(resources, *[f"m{n}" for n in range(30)])
    sqs_client().send_message(
        QueueUrl=resources.queue_url,
        MessageBody="other",
        MessageGroupId="972500000002",
        MessageDeduplicationId="o",
    )
    poller = FifoPoller(sqs_client(), resources.queue_url, resources.queue_arn, handler)
    assert poller.poll_once() == 11
    assert handler.bodies == ["other", *[f"m{n}" for n in range(10)]]  # the smaller batch first
    assert poller.drain() == 20
    assert [b for b in handler.bodies if b != "other"] == [f"m{n}" for n in range(30)]
