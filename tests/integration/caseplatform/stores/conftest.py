"""A DynamoDB case store on moto with a fresh cases table, and the service over it (on the `clock`
fixture)."""

from __future__ import annotations

from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.integration.caseplatform.conftest import TABLE, create_cases_table
from tests.unit.caseplatform.factories import FakeClock


@pytest.fixture
def dynamo_store() -> Iterator[DynamoCaseStore]:
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        create_cases_table(client)
        yield DynamoCaseStore(TABLE, client, sleep=lambda _: None)


@pytest.fixture
def dynamo_service(dynamo_store: DynamoCaseStore, clock: FakeClock) -> CaseService:
    service = CaseService(dynamo_store, clock=clock)
    service.ensure_default_adapters()
    return service
