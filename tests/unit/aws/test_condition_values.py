"""The item a lost conditional write found, read from its own error (`memo.aws.condition_values`)."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from memo.aws.condition_values import lost_writes, old_item
from memo.errors import ConditionFailed


def _lost(response: dict[str, Any]) -> ConditionFailed:
    try:
        try:
            raise ClientError(response, "PutItem")  # type: ignore[arg-type]
        except ClientError as exc:
            raise ConditionFailed("lost") from exc
    except ConditionFailed as lost:
        return lost


def test_a_lost_write_brings_back_the_item_it_found() -> None:
    lost = _lost(
        {"Error": {"Code": "ConditionalCheckFailedException"}, "Item": {"pk": {"S": "a"}, "n": {"N": "2"}}}
    )
    assert old_item(lost) == {"pk": "a", "n": 2}
    assert old_item(_lost({"Error": {"Code": "ConditionalCheckFailedException"}})) is None
    assert old_item(ConditionFailed("no cause")) is None


def test_a_cancelled_transaction_says_which_writes_lost() -> None:
    lost = _lost(
        {
            "Error": {"Code": "TransactionCanceledException"},
            "CancellationReasons": [
                {"Code": "None"},
                {"Code": "ConditionalCheckFailed", "Item": {"pk": {"S": "b"}}},
            ],
        }
    )
    assert lost_writes(lost) == {1}
    assert old_item(lost, index=1) == {"pk": "b"}
    assert old_item(lost, index=0) is None and old_item(lost, index=5) is None
