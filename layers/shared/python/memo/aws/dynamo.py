"""What every DynamoDB adapter of `memo.aws` shares.

- `to_item` / `from_item`: plain Python values <-> DynamoDB's attribute-value format;
- `conditional_write`: the one place a lost condition (`ConditionalCheckFailedException`, or a
  transaction cancelled for a `ConditionalCheckFailed` reason) becomes `ConditionFailed`;
- `batch_write`: BatchWriteItem in chunks of 25, retrying `UnprocessedItems` with backoff a bounded
  number of times, then `UnprocessedWrites`;
- `item_bytes` / `guard`: DynamoDB's item size rule, and the guard of every write whose item can grow.
  DynamoDB refuses an item over 400 KB; the guard reads that as 400,000 bytes, the lower of its two
  readings (AWS accepts a little more, about 409 KB). An item's size is the sum of its attributes'
  names and values: a string is its UTF-8 bytes, a binary its bytes, a number about one byte per two
  digits plus one, a boolean or null one byte, a list or map three bytes plus, per element, one byte
  and the element (and, in a map, the element's name). `guard` measures an item before the request
  goes out: over the limit it logs ITEM_TOO_LARGE (the kind of item, its size, the limit) and raises
  `ItemTooLarge`, so the caller answers clearly rather than meeting the service's ValidationException.
Every other error comes out as `memo.aws.faults` maps it (`TransientFault` / `ServiceFault`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer
from botocore.exceptions import BotoCoreError, ClientError

from memo.aws.faults import cancellation_codes, error_code, fault
from memo.errors import ConditionFailed, ItemTooLarge, UnprocessedWrites
from memo.observability import logger

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


#: DynamoDB's limit on one item (names and values), in bytes: 400 KB read as 400,000.
ITEM_LIMIT_BYTES = 400_000


def value_bytes(value: Mapping[str, Any]) -> int:
    """One attribute value (`{"S": ...}`, `{"M": {...}}`, ...) by DynamoDB's size rule."""
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode("utf-8", "surrogatepass"))
    if kind == "N":
        return len(str(inner).lstrip("-").replace(".", "")) // 2 + 1
    if kind == "B":
        return len(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + value_bytes(v) + 1 for k, v in inner.items())
    if kind == "L":
        return 3 + sum(value_bytes(v) + 1 for v in inner)
    # SS, NS, BS: the members' bytes
    return sum(len(member.encode()) if isinstance(member, str) else len(member) for member in inner)


def item_bytes(item: Mapping[str, Any]) -> int:
    """An item in attribute-value form (`to_item`'s output) by DynamoDB's size rule."""
    return sum(len(name.encode()) + value_bytes(value) for name, value in item.items())


def guard(item: Mapping[str, Any], *, what: str, limit: int = ITEM_LIMIT_BYTES) -> dict[str, Any]:
    """`item` as it is when it fits; else ITEM_TOO_LARGE is logged and `ItemTooLarge` raised."""
    size = item_bytes(item)
    if size > limit:
        logger.error("ITEM_TOO_LARGE", extra={"item": what, "bytes": size, "limit": limit})
        raise ItemTooLarge(what, size, limit)
    return dict(item)


def fits(item: Mapping[str, Any], limit: int = ITEM_LIMIT_BYTES) -> bool:
    return item_bytes(item) <= limit
