"""What every DynamoDB adapter of `memo.aws` shares.

- `to_item` / `from_item`: plain Python values <-> DynamoDB's attribute-value format;
- `conditional_write`: the one place a lost condition (`ConditionalCheckFailedException`, or a
  transaction cancelled for a `ConditionalCheckFailed` reason) becomes `ConditionFailed`;
- `batch_write`: BatchWriteItem in chunks of 25, retrying `UnprocessedItems` with backoff a bounded
  number of times, then `UnprocessedWrites`.
Every other error comes out as `memo.aws.faults` maps it (`TransientFault` / `ServiceFault`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer
from botocore.exceptions import BotoCoreError, ClientError

from memo.aws.faults import cancellation_codes, error_code, fault
from memo.errors import ConditionFailed, UnprocessedWrites

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

T = TypeVar("T")

BATCH_LIMIT = 25
BATCH_ATTEMPTS = 5
BATCH_BACKOFF_SECONDS = 0.05
CONDITIONAL_CHECK_FAILED = "ConditionalCheckFailedException"

_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


def _to_dynamo(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, dict):
        return {k: _to_dynamo(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_to_dynamo(v) for v in value]
    return value


def _from_dynamo(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _from_dynamo(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_dynamo(v) for v in value]
    if isinstance(value, Binary):
        return getattr(value, "value")  # noqa: B009 - the bytes written (the stubs lack `value`)
    return value


def to_item(values: dict[str, Any]) -> dict[str, Any]:
    return {k: _serializer.serialize(_to_dynamo(v)) for k, v in values.items() if v is not None}


def from_item(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _from_dynamo(_deserializer.deserialize(v)) for k, v in item.items()}


def condition_failed(exc: ClientError) -> bool:
    return error_code(exc) == CONDITIONAL_CHECK_FAILED or "ConditionalCheckFailed" in cancellation_codes(exc)


def conditional_write(operation: Callable[..., T], /, **request: Any) -> T:
    """Run one conditional write (PutItem, UpdateItem, DeleteItem, TransactWriteItems); a lost
    condition raises `ConditionFailed`, any other error a `TransientFault` or `ServiceFault`."""
    try:
        return operation(**request)
    except ClientError as exc:
        if condition_failed(exc):
            raise ConditionFailed(f"the condition of {type(exc).__name__} was not met") from exc
        raise fault(exc) from exc
    except BotoCoreError as exc:
        raise fault(exc) from exc


def batch_write(
    dynamodb: DynamoDBClient,
    table: str,
    requests: list[dict[str, Any]],
    *,
    sleep: Callable[[float], None] = time.sleep,
    attempts: int = BATCH_ATTEMPTS,
    backoff_seconds: float = BATCH_BACKOFF_SECONDS,
) -> None:
    """Put/Delete requests of one table, 25 per BatchWriteItem. Unprocessed items are sent again
    after `backoff_seconds * 2**attempt`, at most `attempts` calls per chunk; what is still
    unprocessed after the last call raises `UnprocessedWrites`."""
    for start in range(0, len(requests), BATCH_LIMIT):
        pending: dict[str, Any] = {table: requests[start : start + BATCH_LIMIT]}
        for attempt in range(attempts):
            try:
                response = dynamodb.batch_write_item(RequestItems=pending)
            except (ClientError, BotoCoreError) as exc:
                raise fault(exc) from exc
            pending = response.get("UnprocessedItems") or {}
            if not pending:
                break
            if attempt + 1 < attempts:
                sleep(backoff_seconds * 2**attempt)
        else:
            raise UnprocessedWrites(len(pending.get(table, [])))
