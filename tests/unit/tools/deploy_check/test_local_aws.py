"""The template's resources created on moto as CloudFormation would create them."""

from __future__ import annotations

import json

from tools.deploy_check.local_aws import (
    GENERATED_SECRET,
    OPS_FILLED,
    LocalAccount,
    queue_attributes,
    secret_value,
    table_arguments,
)


def test_a_global_table_becomes_an_on_demand_table_with_its_keys_and_indexes() -> None:
    properties = {
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
                "WriteOnDemandThroughputSettings": {"MaxWriteRequestUnits": 10},  # GlobalTable only
            }
        ],
        "Replicas": [{"Region": {"Ref": "AWS::Region"}}],
    }
    arguments = table_arguments("T", properties)
    assert arguments["BillingMode"] == "PAY_PER_REQUEST" and arguments["TableName"] == "T"
    assert arguments["GlobalSecondaryIndexes"] == [
        {
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }
    ]
    assert "Replicas" not in arguments


def test_a_queues_attributes_are_strings_and_its_redrive_policy_names_the_dlq() -> None:
    account = LocalAccount("http://127.0.0.1:1", {"Dlq": {"Arn": "arn:aws:sqs:us-east-1:1:dlq.fifo"}})
    properties = {
        "FifoQueue": True,
        "ContentBasedDeduplication": False,
        "VisibilityTimeout": 360,
        "RedrivePolicy": {"deadLetterTargetArn": {"Fn::GetAtt": ["Dlq", "Arn"]}, "maxReceiveCount": 5},
        "SqsManagedSseEnabled": True,
    }
    attributes = queue_attributes(properties, account)
    assert attributes == {
        "FifoQueue": "true",
        "ContentBasedDeduplication": "false",
        "VisibilityTimeout": "360",
        "RedrivePolicy": json.dumps(
            {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:1:dlq.fifo", "maxReceiveCount": 5}
        ),
    }


def test_the_whatsapp_secret_is_generated_then_completed_as_ops_do() -> None:
    properties = {
        "GenerateSecretString": {
            "GenerateStringKey": "verify_token",
            "SecretStringTemplate": '{"app_secret": "", "access_token": ""}',
        }
    }
    assert secret_value(properties) == {**OPS_FILLED, "verify_token": GENERATED_SECRET}


def test_the_openai_key_stays_empty_so_no_call_leaves_the_machine() -> None:
    assert secret_value({"SecretString": '{"api_key": ""}'}) == {"api_key": ""}
