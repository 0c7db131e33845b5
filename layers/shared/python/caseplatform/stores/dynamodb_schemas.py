"""The DynamoDB store's adapter schema registry: versions (`ADAPTER#<id> / V#<ver>`), the ACTIVE
pointer with a copy of the active version, and the per-store cache of the active schema a command
decides on.

The cache is filled by every read of an ACTIVE item. A write decided on it carries a condition
check that the version is still the active one, so a stale cache costs a cancelled transaction,
never a decision on the wrong schema; `served` records, per thread, which schemas a decision in
progress was given and whether from the cache.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from caseplatform.errors import (
    AdapterNotFound,
    ConcurrentModification,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.model import SchemaRecord
from caseplatform.stores.dynamodb_items import (
    active_item,
    adapter_pk,
    schema_from_item,
    schema_item,
    version_sk,
)
from caseplatform.stores.dynamodb_table import MAX_ATTEMPTS, DynamoTable, serialize

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef


class DynamoSchemaRegistry(DynamoTable):
    def __init__(
        self, table_name: str, client: DynamoDBClient, *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        super().__init__(table_name, client, sleep=sleep)
        # The last ACTIVE item read per adapter, and per thread the schemas a decision in progress
        # was given: {adapter_id: (version, from the cache)}.
        self._active: dict[str, SchemaRecord] = {}
        self._decision = threading.local()

    def put_schema(self, record: SchemaRecord) -> SchemaRecord:
        if not self._put_if_absent(schema_item(record)):
            existing = self.get_schema(record.adapter_id, record.schema_version)
            if existing is None or existing.schema != record.schema:
                raise SchemaVersionExists(record.adapter_id, record.schema_version)
            return existing
        return SchemaRecord(
            record.adapter_id, record.schema_version, record.schema, False, record.updated_at_ms
        )

    def get_schema(self, adapter_id: str, schema_version: int) -> SchemaRecord | None:
        item = self._get(adapter_pk(adapter_id), version_sk(schema_version))
        return None if item is None else schema_from_item(item)

    def active_schema(self, adapter_id: str) -> SchemaRecord | None:
        item = self._get(adapter_pk(adapter_id), "ACTIVE")
        if item is None:
            self._active.pop(adapter_id, None)
            return None
        record = schema_from_item({**item, "is_active": 1})
        self._active[adapter_id] = record
        return record

    def decision_schema(self, adapter_id: str) -> SchemaRecord | None:
        cached = self._active.get(adapter_id)
        record = cached if cached is not None else self.active_schema(adapter_id)
        served: dict[str, tuple[int, bool]] | None = getattr(self._decision, "served", None)
        if served is not None and record is not None:
            served[adapter_id] = (record.schema_version, cached is not None)
        return record

    def list_schemas(self, adapter_id: str | None = None) -> list[SchemaRecord]:
        if adapter_id is None:
            items = self._query_all("gsi3pk = :p", {":p": "SCHEMAS"}, index="GSI3")
        else:
            items = self._query_all(
                "pk = :p AND begins_with(sk, :v)", {":p": adapter_pk(adapter_id), ":v": "V#"}
            )
        return [schema_from_item(item) for item in items]

    def activate_schema(self, adapter_id: str, schema_version: int, now_ms: int) -> int | None:
        pk = adapter_pk(adapter_id)
        for attempt in range(MAX_ATTEMPTS):
            versions = list(self._query_all("pk = :p AND begins_with(sk, :v)", {":p": pk, ":v": "V#"}))
            if not versions:
                raise AdapterNotFound(adapter_id)
            target = next((v for v in versions if v["schema_version"] == schema_version), None)
            if target is None:
                raise SchemaVersionNotFound(adapter_id, schema_version)
            pointer = self._get(pk, "ACTIVE")
            previous = None if pointer is None else int(pointer["schema_version"])
            if previous == schema_version:
                return previous
            operations = []
            if previous is not None:
                operations.append(self._set_active(pk, previous, 0, now_ms))
            operations.append(self._set_active(pk, schema_version, 1, now_ms))
            if previous is None:
                put = self._put(active_item(target, now_ms), "attribute_not_exists(pk)")
            else:
                put = self._put(active_item(target, now_ms), "schema_version = :prev", {":prev": previous})
            operations.append({"Put": put})
            if self._transact(operations) is None:
                self._active[adapter_id] = schema_from_item(
                    {**target, "is_active": 1, "updated_at_ms": now_ms}
                )
                return previous
            self._backoff(attempt)
        raise ConcurrentModification(f"activate_schema {adapter_id} lost {MAX_ATTEMPTS} races")

    def _set_active(self, pk: str, version: int, value: int, now_ms: int) -> TransactWriteItemTypeDef:
        return {
            "Update": {
                "TableName": self.table_name,
                "Key": serialize({"pk": pk, "sk": version_sk(version)}),
                "UpdateExpression": "SET is_active = :a, updated_at_ms = :t",
                "ConditionExpression": "attribute_exists(pk)",
                "ExpressionAttributeValues": serialize({":a": value, ":t": now_ms}),
            }
        }

    def _forget_active(self, adapter_id: str) -> None:
        """Drop the cached active schema (a write found it stale)."""
        self._active.pop(adapter_id, None)
