"""The stateful property test on the DynamoDB store (moto; one mock, a fresh table per example)."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

import boto3
from hypothesis import HealthCheck, settings
from moto import mock_aws

from caseplatform.ports import CaseStore
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.integration.caseplatform.conftest import create_cases_table
from tests.unit.caseplatform.stateful import CaseMachine


class DynamoCaseMachine(CaseMachine):
    def make_store(self) -> CaseStore:
        client = boto3.client("dynamodb", region_name="us-east-1")
        self._client, self._table = client, f"hitl-prop-{uuid.uuid4().hex[:12]}"
        create_cases_table(client, self._table)
        return DynamoCaseStore(self._table, client, sleep=lambda _: None)

    def teardown(self) -> None:
        self._client.delete_table(TableName=self._table)


class TestDynamoCaseMachine(DynamoCaseMachine.TestCase):  # type: ignore[name-defined,misc]
    settings = settings(
        max_examples=6, stateful_step_count=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    _mock: ClassVar[Any]

    @classmethod
    def setUpClass(cls) -> None:
        cls._mock = mock_aws()
        cls._mock.start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls._mock.stop()
