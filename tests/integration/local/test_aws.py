"""The local AWS: the tables of `memo.tables` (with their TTL), the FIFO turn queue with its
dead-letter queue, the case platform's notice bus and archive bucket, as deployed; fake credentials
that never replace real settings."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from moto import mock_aws

from memo import tables
from memo.local.aws import (
    ARCHIVE_BUCKET_DEFAULT_NAME,
    EVENT_BUS_DEFAULT_NAME,
    client,
    create_resources,
    use_fake_credentials,
)


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        yield


def test_the_resources_are_the_deployed_ones(aws: None) -> None:
    resources = create_resources(prefix="t-")
    assert resources.table_names == {spec.env_var: "t-" + spec.default_name for spec in tables.ALL_TABLES}
    dynamodb = client("dynamodb")
    for spec in tables.ALL_TABLES:
        ttl = dynamodb.describe_time_to_live(TableName="t-" + spec.default_name)["TimeToLiveDescription"]
        assert (ttl.get("AttributeName") if spec.ttl_attribute else None) == spec.ttl_attribute
    attributes = client("sqs").get_queue_attributes(QueueUrl=resources.queue_url, AttributeNames=["All"])[
        "Attributes"
    ]
    assert attributes["FifoQueue"] == "true" and resources.queue_arn.endswith(".fifo")
    redrive = json.loads(attributes["RedrivePolicy"])
    assert redrive["maxReceiveCount"] == tables.TURN_QUEUE_MAX_RECEIVE_COUNT
    assert redrive["deadLetterTargetArn"].endswith("t-memo-turns-dlq.fifo")


def test_the_notice_bus_and_the_archive_bucket_are_there(aws: None) -> None:
    resources = create_resources(prefix="t-")
    assert (resources.event_bus_name, resources.archive_bucket) == (
        "t-" + EVENT_BUS_DEFAULT_NAME,
        "t-" + ARCHIVE_BUCKET_DEFAULT_NAME,
    )
    assert (
        client("events").describe_event_bus(Name=resources.event_bus_name)["Name"] == resources.event_bus_name
    )
    client("s3").head_bucket(Bucket=resources.archive_bucket)


def test_creating_the_resources_twice_is_fine(aws: None) -> None:
    assert create_resources() == create_resources()


def test_outside_us_east_1_the_bucket_is_created_in_the_region(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    with mock_aws():
        resources = create_resources()
        assert create_resources() == resources  # a second run finds the bucket it owns
        location = client("s3").get_bucket_location(Bucket=resources.archive_bucket)["LocationConstraint"]
    assert location == "eu-west-1"


def test_fake_credentials_never_replace_given_ones() -> None:
    environ = {"AWS_ACCESS_KEY_ID": "real", "AWS_REGION": "eu-west-1"}
    use_fake_credentials(environ)
    assert environ["AWS_ACCESS_KEY_ID"] == "real" and environ["AWS_SECRET_ACCESS_KEY"] == "testing"
    assert environ["AWS_DEFAULT_REGION"] == environ["AWS_REGION"] == "eu-west-1"
