"""The review submit Lambda's runtime on moto: its case service makes the `memo_operation` adapter carry
the policy's configuration (once per container, a new version only when the policy changed), and its
task-token store is on the ledger table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from memo import tables
from memo.aws import clients
from memo.operator_review.cases import ADAPTER_ID
from memo.settings import ConfigurationError
from memo.wiring import reset_runtime
from memo.wiring.review_submit import ReviewSubmitRuntime


@pytest.fixture
def dynamodb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        for spec in (tables.CASES, tables.LEDGER):
            client.create_table(**spec.create_table_kwargs())
        clients.reset_clients()
        reset_runtime()
        yield client
    reset_runtime()
    clients.reset_clients()


def _adapter(runtime: ReviewSubmitRuntime) -> tuple[int, dict[str, Any]]:
    active = runtime.cases.store.active_schema(ADAPTER_ID)
    assert active is not None
    return active.schema_version, active.schema["x-hitl"]


def test_the_adapter_carries_the_policys_configuration_once(
    dynamodb: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = ReviewSubmitRuntime.current()
    assert runtime.cases is runtime.cases
    version, x_hitl = _adapter(runtime)
    assert (version, x_hitl["required_approvers"]) == (1, 1)

    reset_runtime()  # the next container, the same policy: the same version
    assert _adapter(ReviewSubmitRuntime.current())[0] == 1

    monkeypatch.setenv("MEMO_REVIEW_POLICY", json.dumps({"adapter": {"required_approvers": 2}}))
    reset_runtime()  # a container with a changed policy: a new version, active
    version, x_hitl = _adapter(ReviewSubmitRuntime.current())
    assert (version, x_hitl["required_approvers"]) == (2, 2)


def test_the_tables_are_the_configured_ones(dynamodb: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASES_TABLE_NAME", "other-cases")
    with pytest.raises(ClientError) as missing:
        _ = ReviewSubmitRuntime.current().cases
    assert missing.value.response["Error"]["Code"] == "ResourceNotFoundException"
    assert ReviewSubmitRuntime.current().settings.ledger_table == tables.LEDGER.default_name


def test_a_too_short_table_name_names_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEDGER_TABLE_NAME", "x")
    reset_runtime()
    with pytest.raises(ConfigurationError, match="LEDGER_TABLE_NAME"):
        ReviewSubmitRuntime.current()
    reset_runtime()
