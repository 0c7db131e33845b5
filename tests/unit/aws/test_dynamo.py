"""`memo.aws.dynamo`: the one conditional-write helper and the one batch-write helper, on a fake client;
DynamoDB's item size rule and the guard of the items that grow."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ParamValidationError
from hypothesis import given
from hypothesis import strategies as st

from memo.aws.dynamo import (
    ITEM_LIMIT_BYTES,
    batch_write,
    conditional_write,
    guard,
    item_bytes,
    to_item,
    value_bytes,
)
from memo.errors import ConditionFailed, ItemTooLarge, ServiceFault, TransientFault, UnprocessedWrites


def client_error(code: str, *, status: int = 400, reasons: list[str] | None = None) -> ClientError:
    response: dict[str, Any] = {
        "Error": {"Code": code, "Message": code},
        "ResponseMetadata": {"HTTPStatusCode": status},
    }
    if reasons is not None:
        response["CancellationReasons"] = [{"Code": reason} for reason in reasons]
    return ClientError(response, "PutItem")  # type: ignore[arg-type]


def failing(exc: Exception) -> Any:
    def operation(**request: Any) -> Any:
        raise exc

    return operation


def test_a_conditional_write_that_wins_returns_the_response() -> None:
    calls: list[dict[str, Any]] = []

    def put_item(**request: Any) -> dict[str, Any]:
        calls.append(request)
        return {"Attributes": {"pk": {"S": "x"}}}

    response = conditional_write(put_item, TableName="t", ConditionExpression="attribute_not_exists(pk)")

    assert response == {"Attributes": {"pk": {"S": "x"}}}
    assert calls == [{"TableName": "t", "ConditionExpression": "attribute_not_exists(pk)"}]


@pytest.mark.parametrize(
    "error",
    [
        client_error("ConditionalCheckFailedException"),
        client_error("TransactionCanceledException", reasons=["None", "ConditionalCheckFailed"]),
    ],
    ids=["single item", "transaction"],
)
def test_a_lost_condition_is_condition_failed(error: ClientError) -> None:
    with pytest.raises(ConditionFailed) as lost:
        conditional_write(failing(error))
    assert lost.value.__cause__ is error


@pytest.mark.parametrize(
    "error",
    [
        client_error("ProvisionedThroughputExceededException"),
        client_error("ThrottlingException"),
        client_error("InternalServerError", status=500),
        client_error("SomethingNew", status=503),
        client_error("TransactionCanceledException", reasons=["ThrottlingError", "None"]),
        EndpointConnectionError(endpoint_url="http://localhost"),
    ],
    ids=["throughput", "throttling", "5xx", "unknown 5xx", "throttled transaction", "no connection"],
)
def test_throttling_server_errors_and_lost_connections_are_transient(error: Exception) -> None:
    with pytest.raises(TransientFault):
        conditional_write(failing(error))


@pytest.mark.parametrize(
    "error",
    [
        client_error("AccessDeniedException"),
        client_error("ResourceNotFoundException"),
        client_error("TransactionCanceledException", reasons=["ValidationError"]),
        ParamValidationError(report="bad"),
    ],
    ids=["access denied", "no table", "invalid transaction", "bad request"],
)
def test_other_errors_are_service_faults_not_transient(error: Exception) -> None:
    with pytest.raises(ServiceFault) as fault:
        conditional_write(failing(error))
    assert not isinstance(fault.value, TransientFault)


class FakeBatchClient:
    """Leaves every item unprocessed for the first `stuck` calls, then writes them."""

    def __init__(self, stuck: int) -> None:
        self.stuck = stuck
        self.calls: list[int] = []
        self.written: list[dict[str, Any]] = []

    def batch_write_item(self, RequestItems: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        (requests,) = RequestItems.values()
        self.calls.append(len(requests))
        if self.stuck > 0:
            self.stuck -= 1
            return {"UnprocessedItems": RequestItems}
        self.written.extend(requests)
        return {"UnprocessedItems": {}}


def puts(n: int) -> list[dict[str, Any]]:
    return [{"PutRequest": {"Item": {"pk": {"S": str(i)}}}} for i in range(n)]


def test_a_batch_is_written_25_at_a_time() -> None:
    client = FakeBatchClient(stuck=0)
    delays: list[float] = []

    batch_write(client, "t", puts(60), sleep=delays.append)

    assert client.calls == [25, 25, 10]
    assert len(client.written) == 60 and delays == []


def test_unprocessed_items_are_retried_with_growing_backoff() -> None:
    client = FakeBatchClient(stuck=2)
    delays: list[float] = []

    batch_write(client, "t", puts(3), sleep=delays.append)

    assert client.calls == [3, 3, 3]
    assert delays == [0.05, 0.1]
    assert len(client.written) == 3


def test_a_batch_that_stays_unprocessed_gives_up_after_the_bounded_attempts() -> None:
    client = FakeBatchClient(stuck=99)
    delays: list[float] = []

    with pytest.raises(UnprocessedWrites) as gave_up:
        batch_write(client, "t", puts(4), sleep=delays.append, attempts=3)

    assert gave_up.value.count == 4
    assert client.calls == [4, 4, 4]
    assert delays == [0.05, 0.1]  # no pointless wait after the last attempt


def test_a_throttled_batch_call_is_a_transient_fault() -> None:
    class Throttled:
        def batch_write_item(self, **request: Any) -> Any:
            raise client_error("ThrottlingException")

    with pytest.raises(TransientFault):
        batch_write(Throttled(), "t", puts(1), sleep=lambda _: None)


# --- the item size rule ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "size"),
    [
        ({"S": "abc"}, 3),
        ({"S": "שלום"}, 8),  # UTF-8: two bytes a Hebrew letter
        ({"S": "👍"}, 4),
        ({"N": "12345"}, 3),
        ({"B": b"\x00" * 10}, 10),
        ({"BOOL": True}, 1),
        ({"NULL": True}, 1),
        ({"L": [{"S": "ab"}, {"N": "1"}]}, 3 + (2 + 1) + (1 + 1)),
        ({"M": {"k": {"S": "ab"}}}, 3 + 1 + 2 + 1),
    ],
)
def test_each_kind_of_value_counts_as_dynamodb_counts_it(value: dict, size: int) -> None:
    assert value_bytes(value) == size


def test_an_item_counts_its_names_and_its_values() -> None:
    assert item_bytes(to_item({"pk": "USER#1", "text": "hello"})) == 2 + 6 + 4 + 5


def test_an_item_at_the_limit_passes_and_one_byte_more_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    name = "t"
    at_limit = to_item({name: "x" * (ITEM_LIMIT_BYTES - len(name))})
    assert guard(at_limit, what="note") == at_limit
    over = to_item({name: "x" * (ITEM_LIMIT_BYTES - len(name) + 1)})
    with pytest.raises(ItemTooLarge) as refused:
        guard(over, what="note")
    assert (refused.value.what, refused.value.size, refused.value.limit) == (
        "note",
        ITEM_LIMIT_BYTES + 1,
        ITEM_LIMIT_BYTES,
    )


@given(st.text(max_size=200))
def test_a_string_weighs_its_utf8_bytes(text: str) -> None:
    assert value_bytes({"S": text}) == len(text.encode("utf-8", "surrogatepass"))
