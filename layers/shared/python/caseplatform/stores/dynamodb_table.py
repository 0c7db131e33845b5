"""The case table as the DynamoDB store's parts talk to it: the client, items (dicts of Python
values, laid out by `caseplatform.stores.dynamodb_items`) serialized to and from the wire format,
paged queries, conditional puts and transactions. The only module of the case platform that calls
the AWS SDK; requests and responses are typed with boto3-stubs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import boto3  # the case platform's one module that calls the AWS SDK
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import BotoCoreError, ClientError

from caseplatform.model import Page
from caseplatform.stores.dynamodb_items import adapter_pk, cursor_of, start_key

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import (
        AttributeValueTypeDef,
        PutTypeDef,
        QueryInputTypeDef,
        TransactWriteItemTypeDef,
    )

# How many times a write that lost a race (a cancelled transaction) is read and decided again.
MAX_ATTEMPTS = 25
_SER = TypeSerializer()
_DES = TypeDeserializer()

# A cancelled transaction's reason for one of its operations: `Code` ("None" when that operation
# was not the cause) and, when asked for, the `Item` its condition failed on (wire format).
Reason = Mapping[str, Any]


def dynamodb_client(region: str | None = None, endpoint_url: str | None = None) -> DynamoDBClient:
    """A DynamoDB client for `DynamoCaseStore` (region and endpoint from the environment when None)."""
    return boto3.client("dynamodb", region_name=region, endpoint_url=endpoint_url)


def connect(table_name: str, region: str | None = None, endpoint_url: str | None = None) -> DynamoDBClient:
    """A client for the existing table `table_name` (region, endpoint and credentials from the
    environment when None); ValueError saying what is missing: a region, credentials, the endpoint,
    the table or the right to read it."""
    try:
        client = dynamodb_client(region, endpoint_url)
        client.describe_table(TableName=table_name)
    except BotoCoreError as error:
        raise ValueError(f"DynamoDB table {table_name!r}: {error}") from error
    except ClientError as error:
        message = error.response.get("Error", {}).get("Message", "")
        raise ValueError(f"DynamoDB table {table_name!r}: {_error_code(error)}: {message}") from error
    return client


def serialize(item: Mapping[str, Any]) -> dict[str, AttributeValueTypeDef]:
    """An item (or key, or expression values) in the wire format; None values are left out."""
    return {key: _SER.serialize(value) for key, value in item.items() if value is not None}


def deserialize(item: Mapping[str, AttributeValueTypeDef]) -> dict[str, Any]:
    """An item from the wire format; numbers come back as int (the table stores no fractions)."""
    plain = {key: _DES.deserialize(value) for key, value in item.items()}
    return {key: int(value) if isinstance(value, Decimal) else value for key, value in plain.items()}


def reason_code(reason: Reason) -> str:
    return str(reason.get("Code") or "None")


def failed(reason: Reason) -> bool:
    """The operation's condition did not hold."""
    return reason_code(reason) == "ConditionalCheckFailed"


def _error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


class DynamoTable:
    """One case table on one client; `sleep` paces the retries of lost races."""

    def __init__(
        self, table_name: str, client: DynamoDBClient, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.table_name = table_name
        self._client = client
        self._sleep = sleep

    def _get(self, pk: str, sk: str) -> dict[str, Any] | None:
        """One item, read strongly consistent."""
        response = self._client.get_item(
            TableName=self.table_name, Key=serialize({"pk": pk, "sk": sk}), ConsistentRead=True
        )
        item = response.get("Item")
        return None if item is None else deserialize(item)

    def _put(
        self, item: Mapping[str, Any], condition: str | None = None, values: Mapping[str, Any] | None = None
    ) -> PutTypeDef:
        """A put of `item`, written only if `condition` (with its expression `values`) holds."""
        put: PutTypeDef = {"TableName": self.table_name, "Item": serialize(item)}
        if condition:
            put["ConditionExpression"] = condition
        if values is not None:
            put["ExpressionAttributeValues"] = serialize(values)
        return put

    def _put_if_absent(self, item: Mapping[str, Any]) -> bool:
        """Write `item` unless an item with its key exists; False when one did (nothing written)."""
        try:
            self._client.put_item(**self._put(item, "attribute_not_exists(pk)"))
        except ClientError as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise
            return False
        return True

    def _active_check(self, adapter_id: str, version: int) -> TransactWriteItemTypeDef:
        """The transaction's condition that `version` is still the adapter's active schema."""
        return {
            "ConditionCheck": {
                "TableName": self.table_name,
                "Key": serialize({"pk": adapter_pk(adapter_id), "sk": "ACTIVE"}),
                "ConditionExpression": "schema_version = :active",
                "ExpressionAttributeValues": serialize({":active": version}),
            }
        }

    def _transact(self, operations: list[TransactWriteItemTypeDef]) -> list[Reason] | None:
        """Run a transaction; None on success, else the per-operation cancellation reasons."""
        try:
            self._client.transact_write_items(TransactItems=operations)
        except ClientError as error:
            if _error_code(error) != "TransactionCanceledException":
                raise
            reasons: list[Reason] = [dict(r) for r in error.response.get("CancellationReasons") or []]
            return reasons or [{} for _ in operations]
        return None

    def _backoff(self, attempt: int) -> None:
        self._sleep(random.uniform(0, 0.002 * (attempt + 1)))  # noqa: S311 - jitter, not security

    def _query(
        self,
        key_condition: str,
        values: Mapping[str, Any],
        *,
        index: str | None = None,
        limit: int,
        cursor: str | None,
        forward: bool,
        keep: Callable[[dict[str, Any]], bool] = lambda item: True,
    ) -> Page[dict[str, Any]]:
        """Query one index, filter in Python, and cut a page of `limit`; the cursor is the key of the
        last item returned, so the next page starts right after it whatever the filter skipped."""
        request: QueryInputTypeDef = {
            "TableName": self.table_name,
            "KeyConditionExpression": key_condition,
            "ExpressionAttributeValues": serialize(values),
            "ScanIndexForward": forward,
            "Limit": max(limit + 1, 25),
        }
        if index is None:
            request["ConsistentRead"] = True
        else:
            request["IndexName"] = index
        if cursor is not None:
            request["ExclusiveStartKey"] = serialize(start_key(cursor))
        found: list[dict[str, Any]] = []
        while True:
            response = self._client.query(**request)
            for raw in response.get("Items", []):
                item = deserialize(raw)
                if keep(item):
                    found.append(item)
                    if len(found) > limit:
                        return Page(found[:limit], cursor_of(found[limit - 1], index))
            last = response.get("LastEvaluatedKey")
            if last is None:
                return Page(found, None)
            request["ExclusiveStartKey"] = last

    def _query_all(
        self, key_condition: str, values: Mapping[str, Any], *, index: str | None = None
    ) -> Iterator[dict[str, Any]]:
        cursor: str | None = None
        while True:
            page = self._query(key_condition, values, index=index, limit=500, cursor=cursor, forward=True)
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor
