"""boto3 clients built lazily (never at import) and once per process, honouring AWS_ENDPOINT_URL.

Every client comes from one boto3 session per process: a session loads botocore's endpoint and
partition data (megabytes of JSON) when its first client is made, so a session per client paid that
again for each (the webhook's first request builds two clients: Secrets Manager and SQS).

The services the adapters of `memo.aws` call come back typed with boto3-stubs' clients; the stubs
are a development dependency only (imported for the type checker, never at run time).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, overload

import boto3
from botocore.config import Config

if TYPE_CHECKING:  # the webhook's ingress builds its queue client without the pydantic settings
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_scheduler import EventBridgeSchedulerClient
    from mypy_boto3_secretsmanager import SecretsManagerClient
    from mypy_boto3_sqs import SQSClient
    from mypy_boto3_ssm import SSMClient
    from mypy_boto3_stepfunctions import SFNClient

    from memo.settings import AwsSettings

_RETRIES = Config(retries={"mode": "standard", "max_attempts": 3}, connect_timeout=3, read_timeout=10)


# A boto3 session is not thread-safe (its clients are): its clients are made one at a time.
SESSION_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def session() -> boto3.session.Session:
    """The process's boto3 session (Powertools' providers are built on it too)."""
    return boto3.session.Session()


@lru_cache(maxsize=16)
def _cached_client(service: str, region: str, endpoint_url: str | None) -> Any:
    with SESSION_LOCK:
        return session().client(
            service,  # type: ignore[call-overload]
            region_name=region,
            endpoint_url=endpoint_url,
            config=_RETRIES,
        )


@overload
def client(service: Literal["dynamodb"], region: str, endpoint_url: str | None) -> DynamoDBClient: ...
@overload
def client(service: Literal["sqs"], region: str, endpoint_url: str | None) -> SQSClient: ...
@overload
def client(service: Literal["stepfunctions"], region: str, endpoint_url: str | None) -> SFNClient: ...
@overload
def client(
    service: Literal["scheduler"], region: str, endpoint_url: str | None
) -> EventBridgeSchedulerClient: ...
@overload
def client(
    service: Literal["secretsmanager"], region: str, endpoint_url: str | None
) -> SecretsManagerClient: ...
@overload
def client(service: Literal["ssm"], region: str, endpoint_url: str | None) -> SSMClient: ...
@overload
def client(service: str, region: str, endpoint_url: str | None) -> Any: ...
def client(service: str, region: str, endpoint_url: str | None) -> Any:
    """The process's one client of `service` in `region` (at `endpoint_url` when given)."""
    return _cached_client(service, region, endpoint_url)


@overload
def client_for(service: Literal["dynamodb"], aws: AwsSettings) -> DynamoDBClient: ...
@overload
def client_for(service: Literal["sqs"], aws: AwsSettings) -> SQSClient: ...
@overload
def client_for(service: Literal["stepfunctions"], aws: AwsSettings) -> SFNClient: ...
@overload
def client_for(service: Literal["scheduler"], aws: AwsSettings) -> EventBridgeSchedulerClient: ...
@overload
def client_for(service: Literal["secretsmanager"], aws: AwsSettings) -> SecretsManagerClient: ...
@overload
def client_for(service: Literal["ssm"], aws: AwsSettings) -> SSMClient: ...
@overload
def client_for(service: str, aws: AwsSettings) -> Any: ...
def client_for(service: str, aws: AwsSettings) -> Any:
    """`client` in the region and at the endpoint of the function's settings."""
    return client(service, aws.aws_region, aws.aws_endpoint_url)


def reset_clients() -> None:
    """The local stack and tests start a fresh moto between runs."""
    _cached_client.cache_clear()
    session.cache_clear()
