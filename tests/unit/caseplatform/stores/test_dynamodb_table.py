"""The DynamoDB store's table access: items to and from the wire format, and a cancelled
transaction answered with its reasons (any other error raised)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from botocore.exceptions import ClientError

from caseplatform.stores.dynamodb_table import DynamoTable, deserialize, failed, reason_code, serialize


def test_an_item_goes_to_the_wire_without_its_none_values_and_comes_back_with_ints() -> None:
    wire = serialize({"pk": "CASE#1", "version": 3, "open_question": None, "tags": ["a"]})
    assert wire == {"pk": {"S": "CASE#1"}, "version": {"N": "3"}, "tags": {"L": [{"S": "a"}]}}
    assert deserialize(wire) == {"pk": "CASE#1", "version": 3, "tags": ["a"]}
    assert type(deserialize({"n": {"N": "7"}})["n"]) is int
    assert deserialize({"n": {"N": "7"}})["n"] == Decimal(7)


class _Client:
    def __init__(self, error: ClientError | None) -> None:
        self.error = error
        self.calls: list[Any] = []

    def transact_write_items(self, **request: Any) -> dict[str, Any]:
        self.calls.append(request)
        if self.error is not None:
            raise self.error
        return {}


def _error(code: str, reasons: list[dict[str, Any]] | None = None) -> ClientError:
    response: dict[str, Any] = {"Error": {"Code": code, "Message": "no"}}
    if reasons is not None:
        response["CancellationReasons"] = reasons
    return ClientError(response, "TransactWriteItems")  # type: ignore[arg-type]


def test_a_transaction_answers_none_when_written_and_its_reasons_when_cancelled() -> None:
    operation: Any = {"Put": {"TableName": "t", "Item": {}}}
    written = _Client(None)
    assert DynamoTable("t", written)._transact([operation]) is None  # type: ignore[arg-type]
    assert written.calls == [{"TransactItems": [operation]}]

    cancelled = _Client(
        _error("TransactionCanceledException", [{"Code": "None"}, {"Code": "ConditionalCheckFailed"}])
    )
    reasons = DynamoTable("t", cancelled)._transact([operation, operation])  # type: ignore[arg-type]
    assert reasons is not None
    assert [reason_code(r) for r in reasons] == ["None", "ConditionalCheckFailed"]
    assert [failed(r) for r in reasons] == [False, True]

    # A cancellation without reasons still answers one (empty) reason per operation.
    unexplained = _Client(_error("TransactionCanceledException"))
    assert DynamoTable("t", unexplained)._transact([operation, operation]) == [{}, {}]  # type: ignore[arg-type]


def test_any_other_error_of_a_transaction_is_raised() -> None:
    throttled = _Client(_error("ProvisionedThroughputExceededException"))
    with pytest.raises(ClientError):
        DynamoTable("t", throttled)._transact([{"Put": {"TableName": "t", "Item": {}}}])  # type: ignore[arg-type]
