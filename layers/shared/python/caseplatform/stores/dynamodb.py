"""DynamoDB store (deployed): one table, `TransactWriteItems` and condition expressions.

The store is put together from its parts, each in its own module:
    the table layout (keys, items <-> records, cursors)    caseplatform.stores.dynamodb_items
    the client, serialization, paged queries, transactions  caseplatform.stores.dynamodb_table
    the adapter schema registry and active-schema cache     caseplatform.stores.dynamodb_schemas
    the queries                                             caseplatform.stores.dynamodb_reads
    the writes (one read + one transaction per command)     caseplatform.stores.dynamodb_writes
    projection maintenance (drift, repair)                  caseplatform.stores.dynamodb_projection
"""

from __future__ import annotations

from caseplatform.stores.dynamodb_projection import DynamoProjection
from caseplatform.stores.dynamodb_table import MAX_ATTEMPTS, connect, dynamodb_client


class DynamoCaseStore(DynamoProjection):
    """The `CaseStore` on one DynamoDB table: `DynamoCaseStore(table_name, client, sleep=...)`."""


__all__ = ["MAX_ATTEMPTS", "DynamoCaseStore", "connect", "dynamodb_client"]
