"""moto with the ledger table (from the shared spec), and the executor runtime with fakes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from memo import tables
from memo.aws.clients import reset_clients
from memo.aws.ledger_table import DynamoLedger
from memo.settings import ExecutorSettings
from memo.wiring import reset_runtime, use_runtime
from memo.wiring.executor import ExecutorRuntime
from tests.support.clock import FakeClock
from tests.unit.executor.fakes import T0, CountingCapabilities

DAY = 24 * 3600


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        reset_clients()
        yield
    reset_clients()


@pytest.fixture
def dynamodb(aws: None) -> Any:
    client = boto3.client("dynamodb", region_name="us-east-1")
    client.create_table(**tables.LEDGER.create_table_kwargs())
    return client


@pytest.fixture
def ledger(dynamodb: Any) -> DynamoLedger:
    return DynamoLedger(dynamodb, tables.LEDGER.default_name, ttl_seconds=14 * DAY)


@pytest.fixture
def capabilities() -> CountingCapabilities:
    return CountingCapabilities()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def runtime(dynamodb: Any, capabilities: CountingCapabilities, clock: FakeClock) -> Iterator[ExecutorRuntime]:
    """The executor Lambda's runtime from its settings, with the fake capabilities and clock."""
    runtime = ExecutorRuntime(ExecutorSettings.from_env(os.environ), capabilities=capabilities, clock=clock)
    use_runtime(runtime)
    yield runtime
    reset_runtime(ExecutorRuntime)
