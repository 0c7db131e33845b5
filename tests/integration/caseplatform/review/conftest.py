"""The review API over both stores: SQLite (a fresh file) and DynamoDB (moto)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, cast

import boto3
import pytest
from moto import mock_aws

from caseplatform.review.approvals import ReviewService
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.conftest import TABLE, SerializedClient, create_cases_table
from tests.integration.caseplatform.review.harness import ReviewClient, seed_adapters
from tests.unit.caseplatform.factories import FakeClock

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "dynamodb"])
def cases(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock) -> Iterator[CaseService]:
    if request.param == "sqlite":
        store = SqliteCaseStore(tmp_path / "hitl.db")
        service = CaseService(store, clock=clock)
        seed_adapters(service)
        yield service
        store.close()
    else:
        with mock_aws():
            client = SerializedClient(boto3.client("dynamodb", region_name="us-east-1"))
            create_cases_table(client)
            service = CaseService(
                DynamoCaseStore(TABLE, cast("DynamoDBClient", client), sleep=lambda _: None), clock=clock
            )
            seed_adapters(service)
            yield service


@pytest.fixture
def api(cases: CaseService) -> ReviewClient:
    return ReviewClient(ReviewService(cases))
