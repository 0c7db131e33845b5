"""The process's boto3 clients (`memo.aws.clients`): one per service, region and endpoint, built on
first use, and built again after a reset."""

from __future__ import annotations

from memo.aws import clients
from memo.settings import AwsSettings


def test_one_client_per_service_and_endpoint_until_a_reset() -> None:
    clients.reset_clients()
    aws = AwsSettings(AWS_REGION="eu-west-1", AWS_ENDPOINT_URL="http://localhost:4566")
    first = clients.client_for("dynamodb", aws)
    assert clients.client_for("dynamodb", aws) is first
    assert clients.client("dynamodb", "eu-west-1", "http://localhost:4566") is first
    assert first.meta.endpoint_url == "http://localhost:4566" and first.meta.region_name == "eu-west-1"
    assert clients.client_for("sqs", aws) is not first
    clients.reset_clients()
    assert clients.client_for("dynamodb", aws) is not first
    clients.reset_clients()
