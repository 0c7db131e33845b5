"""The local AWS: moto in-process by default, or any endpoint given by AWS_ENDPOINT_URL.

Tables are created from the same `memo.tables` specs the CDK stack uses; the turn queue is a FIFO
queue with a dead-letter queue, and the withdrawals queue a standard one with its own, as deployed.
The case platform's notice bus (EventBridge) and archive bucket (S3) are created as well. In-process
moto keeps them in memory only: what the bus carried and what the retention job archived are gone
when the process ends (the state file keeps the tables and schedules, `memo.local.persist`).
"""

from __future__ import annotations

import json
import os
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

import boto3
from botocore.exceptions import ClientError

from memo import tables
from memo.local.moto_fit import fit_moto

LOCAL_REGION = "us-east-1"
# The case platform's notice bus and archive bucket (named by CloudFormation when deployed).
EVENT_BUS_DEFAULT_NAME = "memo-hitl-notices"
ARCHIVE_BUCKET_DEFAULT_NAME = "memo-hitl-archive"


@dataclass(frozen=True)
class LocalResources:
    queue_url: str
    queue_arn: str
    dlq_url: str
    table_names: dict[str, str]
    withdrawal_queue_url: str = ""  # the turn's withdrawals, for the review handler
    withdrawal_queue_arn: str = ""
    event_bus_name: str = ""  # the agents' notices, put by the review handler
    archive_bucket: str = ""  # the retention job's archive, written by the escalation handler


def use_fake_credentials(environ: MutableMapping[str, str]) -> None:
    """moto needs credentials to sign with; never pick up a developer's real ones."""
    environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    environ.setdefault("AWS_SECURITY_TOKEN", "testing")
    environ.setdefault("AWS_SESSION_TOKEN", "testing")
    environ.setdefault("AWS_DEFAULT_REGION", environ.get("AWS_REGION", LOCAL_REGION))
    environ.setdefault("AWS_REGION", environ["AWS_DEFAULT_REGION"])


def start_moto() -> Any:
    """Start moto's in-process mock unless AWS_ENDPOINT_URL points at another AWS (returns the mock)."""
    if os.environ.get("AWS_ENDPOINT_URL"):
        return None
    from moto import mock_aws

    fit_moto()

    mock = mock_aws()
    mock.start()
    return mock


def client(service: str) -> Any:
    return boto3.session.Session().client(
        service,  # type: ignore[call-overload]
        region_name=os.environ.get("AWS_REGION", LOCAL_REGION),
        endpoint_url=os.environ.get("AWS_ENDPOINT_URL") or None,
    )


def create_resources(prefix: str = "") -> LocalResources:
    dynamodb = client("dynamodb")
    names: dict[str, str] = {}
    for spec in tables.ALL_TABLES:
        name = prefix + spec.default_name
        names[spec.env_var] = name
        try:
            dynamodb.create_table(**spec.create_table_kwargs(name))
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ResourceInUseException":
                raise
        if spec.ttl_attribute:
            dynamodb.update_time_to_live(
                TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute}
            )
    dlq_url, dlq_arn = _queue(prefix + "memo-turns-dlq.fifo", {"FifoQueue": "true"})
    queue_url, queue_arn = _queue(
        prefix + tables.TURN_QUEUE_DEFAULT_NAME,
        {
            "FifoQueue": "true",
            "ContentBasedDeduplication": "false",
            "VisibilityTimeout": "60",
            "RedrivePolicy": _redrive(dlq_arn, tables.TURN_QUEUE_MAX_RECEIVE_COUNT),
        },
    )
    _, withdrawal_dlq_arn = _queue(prefix + tables.WITHDRAWAL_QUEUE_DEFAULT_NAME + "-dlq", {})
    withdrawal_url, withdrawal_arn = _queue(
        prefix + tables.WITHDRAWAL_QUEUE_DEFAULT_NAME,
        {"RedrivePolicy": _redrive(withdrawal_dlq_arn, tables.WITHDRAWAL_QUEUE_MAX_RECEIVE_COUNT)},
    )
    return LocalResources(
        queue_url=queue_url,
        queue_arn=queue_arn,
        dlq_url=dlq_url,
        table_names=names,
        withdrawal_queue_url=withdrawal_url,
        withdrawal_queue_arn=withdrawal_arn,
        event_bus_name=_event_bus(prefix + EVENT_BUS_DEFAULT_NAME),
        archive_bucket=_bucket(prefix + ARCHIVE_BUCKET_DEFAULT_NAME),
    )


def _queue(name: str, attributes: dict[str, str]) -> tuple[str, str]:
    """The queue's URL and ARN (created when missing)."""
    sqs = client("sqs")
    url = str(sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"])
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return url, str(arn)


def _event_bus(name: str) -> str:
    """The event bus `name` (created when missing)."""
    try:
        client("events").create_event_bus(Name=name)
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ResourceAlreadyExistsException":
            raise
    return name


def _bucket(name: str) -> str:
    """The bucket `name` (created when missing; outside us-east-1 S3 wants the region named)."""
    s3 = client("s3")
    region = s3.meta.region_name
    configuration = (
        {} if region == "us-east-1" else {"CreateBucketConfiguration": {"LocationConstraint": region}}
    )
    try:
        s3.create_bucket(Bucket=name, **configuration)
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "BucketAlreadyOwnedByYou":
            raise
    return name


def _redrive(dead_letter_arn: str, max_receive_count: int) -> str:
    return json.dumps({"deadLetterTargetArn": dead_letter_arn, "maxReceiveCount": max_receive_count})


def sqs_client() -> Any:
    return client("sqs")
