"""The turn queue on SQS FIFO (`memo.aws.queue`): one message group per thread, deduplicated by the
wamid, ten to a request; a refused message fails the enqueue so Meta retries."""

from __future__ import annotations

from typing import Any

import pytest

from memo.aws.queue import SqsTurnQueue, dedup_id, group_id
from memo.errors import EnqueueFailed
from memo.ingress.messages import QueuedMessage


class _Sqs:
    def __init__(self, failed: int = 0) -> None:
        self.batches: list[list[dict[str, Any]]] = []
        self._failed = failed

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> dict[str, Any]:
        self.batches.append(Entries)
        return {"Failed": [{"Id": e["Id"], "Code": "InternalError"} for e in Entries[: self._failed]]}


def _message(i: int) -> QueuedMessage:
    return QueuedMessage(
        wamid=f"wamid.{i}", thread_id="972501234567", phone_number_id="p1", timestamp=1, type="text"
    )


def test_each_message_in_its_threads_group_deduplicated_by_its_wamid() -> None:
    sqs = _Sqs()
    SqsTurnQueue(sqs, "https://sqs/q.fifo").enqueue([_message(i) for i in range(12)])  # type: ignore[arg-type]
    assert [len(batch) for batch in sqs.batches] == [10, 2]
    first = sqs.batches[0][0]
    assert first["MessageDeduplicationId"] == "wamid.0"
    assert first["MessageGroupId"] == group_id("972501234567") and len(first["MessageGroupId"]) == 64


def test_a_refused_message_fails_the_enqueue() -> None:
    with pytest.raises(EnqueueFailed, match="1 of 2"):
        SqsTurnQueue(_Sqs(failed=1), "https://sqs/q.fifo").enqueue([_message(1), _message(2)])  # type: ignore[arg-type]


def test_a_dedup_id_sqs_would_refuse_is_hashed() -> None:
    assert dedup_id("wamid.ok") == "wamid.ok"
    assert len(dedup_id("x" * 200)) == 64 and len(dedup_id("with space")) == 64
