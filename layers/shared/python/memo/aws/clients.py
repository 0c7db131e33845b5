"""boto3 clients built lazily (never at import) and once per process, honouring AWS_ENDPOINT_URL."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import boto3
from botocore.config import Config

from memo.settings import AwsSettings

_RETRIES = Config(retries={"mode": "standard", "max_attempts": 3}, connect_timeout=3, read_timeout=10)


@lru_cache(maxsize=16)
def client(service: str, region: str, endpoint_url: str | None) -> Any:
    return boto3.session.Session().client(
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
