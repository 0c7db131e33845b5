"""The adapters' tests reuse the moto fixtures of the stages that use those adapters, plus a moto
DynamoDB with the conversation table (`conversation_db`) or the items table (`items_db`)."""

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo import tables
from tests.integration.executor.conftest import aws, dynamodb, ledger
from tests.integration.reminders.conftest import local_aws

__all__ = ["aws", "conversation_db", "dynamodb", "items_db", "ledger", "local_aws"]


def _table(spec: tables.TableSpec) -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**spec.create_table_kwargs())
        yield client


@pytest.fixture
def conversation_db() -> Iterator[Any]:
    yield from _table(tables.CONVERSATION)


@pytest.fixture
def items_db() -> Iterator[Any]:
    yield from _table(tables.ITEMS)
