"""boto3 clients built lazily (never at import) and once per process, honouring AWS_ENDPOINT_URL.

Every client comes from one boto3 session per process: a session loads botocore's endpoint and
partition data (megabytes of JSON) when its first client is made, so a session per client paid that
again for each (the webhook's first request builds two clients: Secrets Manager and SQS).
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config

if TYPE_CHECKING:  # the webhook's ingress builds its queue client without the pydantic settings
    from memo.settings import AwsSettings

_RETRIES = Config(retries={"mode": "standard", "max_attempts": 3}, connect_timeout=3, read_timeout=10)


# A boto3 session is not thread-safe (its clients are): its clients are made one at a time.
SESSION_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def session() -> boto3.session.Session:
    """The process's boto3 session (Powertools' providers are built on it too)."""
    return boto3.session.Session()


@lru_cache(maxsize=16)
def client(service: str, region: str, endpoint_url: str | None) -> Any:
    with SESSION_LOCK:
        return session().client(
            service,  # type: ignore[call-overload]
            region_name=region,
            endpoint_url=endpoint_url,
            config=_RETRIES,
        )


def client_for(service: str, aws: AwsSettings) -> Any:
    return client(service, aws.aws_region, aws.aws_endpoint_url)


def reset_clients() -> None:
    """The local stack and tests start a fresh moto between runs."""
    client.cache_clear()
    session.cache_clear()
