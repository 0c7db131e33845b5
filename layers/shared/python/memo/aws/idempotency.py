"""The turn path's idempotency records: Powertools' DynamoDB persistence layer on the idempotency table."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer


def idempotency_store(dynamodb: Any, table_name: str) -> DynamoDBPersistenceLayer:
    """Records keyed by the WhatsApp message id, written with the given DynamoDB client."""
    return DynamoDBPersistenceLayer(table_name=table_name, boto3_client=dynamodb)
