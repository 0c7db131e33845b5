"""Fixtures of the case platform conformance suite: every store-level test runs on SQLite and on
DynamoDB (moto), through the same `CaseService`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import boto3
import pytest
from moto import mock_aws

from caseplatform.ports import CaseStore
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from caseplatform.stores.sqlite import SqliteCaseStore
from memo import tables
from tests.unit.caseplatform.factories import FakeClock

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

TABLE = "hitl-cases-test"


class SerializedClient:
    """A boto3 client whose calls run one at a time.

    Real DynamoDB executes each request atomically; moto's in-process backend does not (a cancelled
    transaction restores a deep copy of the table, which can undo a concurrent commit). Serializing
    requests gives moto the atomicity DynamoDB has, while threads still interleave between requests,
    which is where the store's own read-decide-write races are."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return attribute(*args, **kwargs)

        return call


def create_cases_table(client: Any, name: str = TABLE) -> None:
    client.create_table(**tables.CASES.create_table_kwargs(name))


@pytest.fixture(params=["sqlite", "dynamodb"])
def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], CaseStore]]:
    """Builds stores over one database: call it again for a second client of the same data."""
    if request.param == "sqlite":
        stores: list[SqliteCaseStore] = []

        def make_sqlite() -> CaseStore:
            store = SqliteCaseStore(tmp_path / "hitl.db")
            stores.append(store)
            return store

        yield make_sqlite
        for store in stores:
            store.close()
    else:
        with mock_aws():
            client = SerializedClient(boto3.client("dynamodb", region_name="us-east-1"))
            create_cases_table(client)
            yield lambda: DynamoCaseStore(TABLE, cast("DynamoDBClient", client), sleep=lambda _: None)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(store_factory: Callable[[], CaseStore]) -> CaseStore:
    return store_factory()


@pytest.fixture
def service(store: CaseStore, clock: FakeClock) -> CaseService:
    svc = CaseService(store, clock=clock)
    svc.ensure_default_adapters()
    return svc
