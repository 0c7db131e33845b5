"""What every adapter of the items table shares: a conditional create, a consistent read of one item
and a paged, consistent query of one kind; tombstoned items (kept for undo,
`memo.aws.items_tombstones`) are never read back. Keys and item formats: `memo.aws.items_keys`."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from memo.aws.dynamo import conditional_write, guard, to_item
from memo.aws.faults import call
from memo.aws.items_keys import UNDO_KEY, M, model_of
from memo.errors import ConditionFailed
from memo.observability import logger

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class ItemsAccess:
    """The items table through one DynamoDB client."""

    def __init__(
        self, dynamodb_client: DynamoDBClient, table_name: str, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self._ddb = dynamodb_client
        self._table = table_name
        self._sleep = sleep  # backoff between retries of unprocessed batch deletes (injectable for tests)

    def _put_new(self, pk: str, sk: str, kind: str, values: dict[str, Any]) -> bool:
        """Create the item; False if one with its key exists already (a retried create)."""
        # Over DynamoDB's item limit: `ItemTooLarge` (logged) before the write; nothing is stored.
        item = guard(to_item({**values, "pk": pk, "sk": sk, "kind": kind}), what=kind)
        try:
            conditional_write(
                self._ddb.put_item,
                TableName=self._table,
                Item=item,
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ConditionFailed:
            logger.info("ITEM_ALREADY_EXISTS", extra={"kind": kind})
            return False
        return True

    def _get(self, pk: str, sk: str, model: type[M]) -> M | None:
        response = call(
            self._ddb.get_item, TableName=self._table, Key=to_item({"pk": pk, "sk": sk}), ConsistentRead=True
        )
        raw = response.get("Item")
        return model_of(model, raw) if raw and UNDO_KEY not in raw else None

    def _query(self, pk: str, prefix: str) -> Iterator[dict[str, Any]]:
        kwargs: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            # Tombstoned items (kept for undo) are left out by DynamoDB, not sent and dropped here.
            "FilterExpression": "attribute_not_exists(#undo)",
            "ExpressionAttributeNames": {"#undo": UNDO_KEY},
            "ExpressionAttributeValues": to_item({":pk": pk, ":prefix": prefix}),
            "ConsistentRead": True,
        }
        while True:
            response = call(self._ddb.query, **kwargs)
            yield from (raw for raw in response.get("Items", []) if UNDO_KEY not in raw)
            last = response.get("LastEvaluatedKey")
            if not last:
                return
            kwargs["ExclusiveStartKey"] = last
