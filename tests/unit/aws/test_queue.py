"""The turn queue on SQS FIFO (`memo.aws.queue`): one message group per thread, deduplicated by the
wamid, ten to a request; a refused message fails the enqueue so Meta retries. The withdrawals queue:
one message per withdrawn case, naming only the case; a refused send fails the turn."""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError

from memo.aws.queue import SqsTurnQueue, SqsWithdrawalNotices, dedup_id, group_id
from memo.errors import EnqueueFailed, ServiceFault, TransientFault
from memo.ingress.messages import QueuedMessage
from memo.operator_review.withdraw import notice_case_id


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


class _Withdrawals:
    def __init__(self, error: str | None = None) -> None:
        self.sent: list[dict[str, Any]] = []
        self._error = error

    def send_message(self, **request: Any) -> dict[str, Any]:
        if self._error:
            raise ClientError({"Error": {"Code": self._error, "Message": "no"}}, "SendMessage")
        self.sent.append(request)
        return {"MessageId": "m1"}


def test_a_withdrawn_case_is_sent_as_its_id_only() -> None:
    sqs = _Withdrawals()
    SqsWithdrawalNotices(sqs, "https://sqs/withdrawals").withdrawn("HITL-1")  # type: ignore[arg-type]
    (sent,) = sqs.sent
    assert sent["QueueUrl"] == "https://sqs/withdrawals"
    assert json.loads(sent["MessageBody"]) == {"case_id": "HITL-1"}  # no token, no user, no thread
    assert notice_case_id(sent["MessageBody"]) == "HITL-1"  # what the review Lambda reads back


@pytest.mark.parametrize(
    ("code", "error"), [("ThrottlingException", TransientFault), ("AccessDenied", ServiceFault)]
)
def test_a_refused_send_fails_the_withdrawal(code: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        SqsWithdrawalNotices(_Withdrawals(code), "https://sqs/withdrawals").withdrawn("HITL-1")  # type: ignore[arg-type]
