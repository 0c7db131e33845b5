"""botocore errors turned into Memo's domain errors, for every adapter of `memo.aws`.

`call(operation, **request)` runs one SDK call; an error the adapter does not handle itself comes
out as a `TransientFault` (throttling, a 5xx, a timeout, a lost connection: the codes and exception
classes botocore's own standard retry mode treats as retryable) or a `ServiceFault` (anything else).
An adapter that expects a specific code (a schedule that is gone, an execution that exists) catches
`ClientError`, reads `error_code` and passes every other error to `fault`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from botocore.exceptions import BotoCoreError, ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotoConnectionError

from memo.errors import ServiceFault, TransientFault

T = TypeVar("T")

THROTTLING_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "RequestLimitExceeded",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "RequestThrottled",
        "SlowDown",
        "PriorRequestNotComplete",
        "EC2ThrottledException",
    }
)
TRANSIENT_CODES = frozenset(
    {
        "RequestTimeout",
        "RequestTimeoutException",
        "InternalServerError",
        "InternalServerException",
        "InternalFailure",
        "ServiceUnavailable",
        "ServiceUnavailableException",
    }
)
# Reasons of a cancelled DynamoDB transaction that a retry can get past.
TRANSIENT_CANCELLATIONS = frozenset(
    {"ThrottlingError", "ProvisionedThroughputExceeded", "TransactionConflict"}
)
TRANSACTION_CANCELED = "TransactionCanceledException"


def error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def cancellation_codes(exc: ClientError) -> set[str]:
    """The per-item reason codes of a `TransactionCanceledException` (empty for other errors)."""
    return set(cancellation_reasons(exc))


def cancellation_reasons(exc: ClientError) -> list[str]:
    """The reason code of each item of a cancelled transaction, in the request's order ("None" for
    an item that was not the cause); empty for other errors."""
    if error_code(exc) != TRANSACTION_CANCELED:
        return []
    reasons = exc.response.get("CancellationReasons") or []
    return [str(reason.get("Code", "")) for reason in reasons]


def is_transient(exc: ClientError | BotoCoreError) -> bool:
    if isinstance(exc, BotoCoreError):
        return isinstance(exc, BotoConnectionError | HTTPClientError)
    code = error_code(exc)
    if code in THROTTLING_CODES or code in TRANSIENT_CODES:
        return True
    if cancellation_codes(exc) & TRANSIENT_CANCELLATIONS:
        return True
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return isinstance(status, int) and (status >= 500 or status == 429)


def fault(exc: ClientError | BotoCoreError) -> ServiceFault:
    """The domain error for an SDK error no adapter handles (raise it `from exc`)."""
    name = error_code(exc) if isinstance(exc, ClientError) else type(exc).__name__
    if is_transient(exc):
        return TransientFault(f"AWS call failed transiently ({name})")
    return ServiceFault(f"AWS call failed ({name})")


def call(operation: Callable[..., T], /, **request: Any) -> T:
    """Run one SDK call; its errors come out as `TransientFault` or `ServiceFault`."""
    try:
        return operation(**request)
    except (ClientError, BotoCoreError) as exc:
        raise fault(exc) from exc
