"""botocore errors as Memo's domain errors (`memo.aws.faults`): what a retry can get past is a
`TransientFault`, anything else a `ServiceFault`."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, NoCredentialsError

from memo.aws.faults import call, cancellation_reasons, fault
from memo.errors import ServiceFault, TransientFault


def _error(code: str, status: int = 400, **extra: Any) -> ClientError:
    response: Any = {
        "Error": {"Code": code, "Message": ""},
        "ResponseMetadata": {"HTTPStatusCode": status},
        **extra,
    }
    return ClientError(response, "PutItem")


@pytest.mark.parametrize(
    "error",
    [
        _error("ProvisionedThroughputExceededException"),
        _error("InternalServerError", 500),
        _error("Whatever", 503),
        _error(
            "TransactionCanceledException",
            CancellationReasons=[{"Code": "None"}, {"Code": "TransactionConflict"}],
        ),
        EndpointConnectionError(endpoint_url="https://dynamodb"),
    ],
)
def test_what_a_retry_can_get_past_is_transient(error: Exception) -> None:
    assert isinstance(fault(error), TransientFault)  # type: ignore[arg-type]


@pytest.mark.parametrize("error", [_error("ValidationException"), NoCredentialsError()])
def test_anything_else_is_a_service_fault(error: Exception) -> None:
    found = fault(error)  # type: ignore[arg-type]
    assert isinstance(found, ServiceFault) and not isinstance(found, TransientFault)


def test_a_call_raises_the_domain_error_from_the_sdks() -> None:
    def throttled(**request: Any) -> None:
        raise _error("ThrottlingException")

    with pytest.raises(TransientFault) as raised:
        call(throttled, TableName="t")
    assert isinstance(raised.value.__cause__, ClientError)
    assert call(lambda **request: request, TableName="t") == {"TableName": "t"}


def test_a_cancelled_transactions_reasons_in_request_order() -> None:
    cancelled = _error(
        "TransactionCanceledException",
        CancellationReasons=[{"Code": "ConditionalCheckFailed"}, {"Code": "None"}],
    )
    assert cancellation_reasons(cancelled) == ["ConditionalCheckFailed", "None"]
    assert cancellation_reasons(_error("ValidationException")) == []
