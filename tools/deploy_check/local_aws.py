"""A local AWS account for the deploy check: moto as a server in its own process, holding the
template's tables, queues, secrets, topics, Scheduler groups and state machine, created from their
properties in the synthesized template and named as CloudFormation would name them.

The secrets start as the template creates them; the WhatsApp secret is then completed as
docs/deploy.md tells ops to (`app_secret`, `access_token`), and the OpenAI key stays empty (the
rule planner: no call leaves this machine).
"""

from __future__ import annotations

import json
import socket
import subprocess  # nosec B404 - moto's server with a fixed argument list, no shell
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from tools.deploy_check.assembly import STATE_MACHINE_TYPE, CloudAssembly, state_machine_definition
from tools.deploy_check.intrinsics import Account, physical_attributes, resolve

REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's account
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
}
# What ops put into the WhatsApp secret after the first deploy (docs/deploy.md).
OPS_FILLED = {"app_secret": "deploy-check-app-secret", "access_token": "deploy-check-access-token"}
GENERATED_SECRET = "deploycheckgenerated0123456789abcdefghij"  # noqa: S105 - local only
_SERVER_START_SECONDS = 60.0
_GSI_KEYS = ("IndexName", "KeySchema", "Projection")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + _SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"moto's server exited ({process.returncode}):\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"moto's server did not listen on port {port} within {_SERVER_START_SECONDS:.0f} s")


@contextmanager
def moto_server(log: Path) -> Iterator[str]:
    """moto's server (the test virtualenv's moto) on a free loopback port; yields its endpoint URL."""
    port = free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(  # noqa: S603 - fixed argument list, no shell  # nosec B603
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_for_port(port, process, log)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@dataclass
class LocalAccount:
    """The resources created, with the attributes a function's environment resolves against."""

    endpoint: str
    attributes: dict[str, dict[str, str]]
    secrets: dict[str, dict[str, str]] = field(default_factory=dict)  # logical id -> its JSON value
    pseudo: dict[str, str] = field(default_factory=dict)

    def client(self, service: str) -> Any:
        return boto3.session.Session(
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
            aws_session_token=CREDENTIALS["AWS_SESSION_TOKEN"],
            region_name=REGION,
        ).client(service, endpoint_url=self.endpoint)  # type: ignore[call-overload]

    def resolve(self, value: Any) -> Any:
        return resolve(value, self.attributes, self.pseudo)


def table_arguments(name: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """CreateTable's arguments for a template's table (Table or GlobalTable), on demand."""
    arguments: dict[str, Any] = {
        "TableName": name,
        "KeySchema": properties["KeySchema"],
        "AttributeDefinitions": properties["AttributeDefinitions"],
        "BillingMode": "PAY_PER_REQUEST",
    }
    indexes = [{k: i[k] for k in _GSI_KEYS if k in i} for i in properties.get("GlobalSecondaryIndexes", [])]
    if indexes:
        arguments["GlobalSecondaryIndexes"] = indexes
    return arguments


def queue_attributes(properties: Mapping[str, Any], account: LocalAccount) -> dict[str, str]:
    """CreateQueue's attributes for a template's queue (values resolved, as strings)."""
    names = ("FifoQueue", "ContentBasedDeduplication", "VisibilityTimeout", "MessageRetentionPeriod")
    attributes = {
        k: str(properties[k]).lower() if isinstance(properties[k], bool) else str(properties[k])
        for k in names
        if k in properties
    }
    if "RedrivePolicy" in properties:
        attributes["RedrivePolicy"] = json.dumps(account.resolve(properties["RedrivePolicy"]))
    return attributes


def secret_value(properties: Mapping[str, Any]) -> dict[str, str]:
    """The secret's JSON as CloudFormation creates it, then completed as ops do."""
    if isinstance(properties.get("SecretString"), str):
        value = json.loads(properties["SecretString"])
    else:
        generate = properties.get("GenerateSecretString") or {}
        value = json.loads(generate.get("SecretStringTemplate") or "{}")
        if generate.get("GenerateStringKey"):
            value[generate["GenerateStringKey"]] = GENERATED_SECRET
    for key, filled in OPS_FILLED.items():
        if value.get(key) == "":
            value[key] = filled
    return {str(k): str(v) for k, v in value.items()}


def create_account(assembly: CloudAssembly, endpoint: str, stack: str) -> LocalAccount:
    """Every table, queue, secret, topic, Scheduler group and state machine of the template."""
    names = Account(ACCOUNT, REGION, stack)
    account = LocalAccount(
        endpoint, physical_attributes(assembly.template, names), pseudo=names.pseudo_parameters
    )
    _tables(assembly, account)
    _queues(assembly, account)
    _secrets(assembly, account)
    sns, scheduler = account.client("sns"), account.client("scheduler")
    for logical_id in assembly.resources("AWS::SNS::Topic"):
        sns.create_topic(Name=account.attributes[logical_id]["TopicName"])
    for logical_id in assembly.resources("AWS::Scheduler::ScheduleGroup"):
        scheduler.create_schedule_group(Name=account.attributes[logical_id]["Ref"])
    _state_machines(assembly, account)
    return account


def _tables(assembly: CloudAssembly, account: LocalAccount) -> None:
    dynamodb = account.client("dynamodb")
    tables = {
        **assembly.resources("AWS::DynamoDB::GlobalTable"),
        **assembly.resources("AWS::DynamoDB::Table"),
    }
    for logical_id, resource in tables.items():
        name, properties = account.attributes[logical_id]["Ref"], resource["Properties"]
        dynamodb.create_table(**table_arguments(name, properties))
        ttl = properties.get("TimeToLiveSpecification")
        if ttl and ttl.get("Enabled"):
            dynamodb.update_time_to_live(
                TableName=name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": ttl["AttributeName"]},
            )


def _queues(assembly: CloudAssembly, account: LocalAccount) -> None:
    sqs = account.client("sqs")
    queues = assembly.resources("AWS::SQS::Queue")
    # Dead-letter queues first: a queue's redrive policy names its dead-letter queue's ARN.
    for logical_id, resource in sorted(queues.items(), key=lambda q: "RedrivePolicy" in q[1]["Properties"]):
        attributes = account.attributes[logical_id]
        url = sqs.create_queue(
            QueueName=attributes["QueueName"], Attributes=queue_attributes(resource["Properties"], account)
        )["QueueUrl"]
        attributes.update({"Ref": url, "QueueUrl": url})


def _secrets(assembly: CloudAssembly, account: LocalAccount) -> None:
    secretsmanager = account.client("secretsmanager")
    for logical_id, resource in assembly.resources("AWS::SecretsManager::Secret").items():
        value = secret_value(resource["Properties"])
        name = account.attributes[logical_id]["Name"]
        arn = secretsmanager.create_secret(Name=name, SecretString=json.dumps(value))["ARN"]
        account.attributes[logical_id].update({"Ref": arn, "Id": arn})
        account.secrets[logical_id] = value


def _state_machines(assembly: CloudAssembly, account: LocalAccount) -> None:
    sfn = account.client("stepfunctions")
    for logical_id, resource in assembly.resources(STATE_MACHINE_TYPE).items():
        text, substitutions = state_machine_definition(assembly, logical_id)
        for name, value in account.resolve(dict(substitutions)).items():
            text = text.replace("${" + name + "}", str(value))
        json.loads(text)  # still JSON once every substitution is in
        attributes = account.attributes[logical_id]
        arn = sfn.create_state_machine(
            name=attributes["Name"],
            definition=text,
            roleArn=account.resolve(resource["Properties"]["RoleArn"]),
        )["stateMachineArn"]
        attributes.update({"Ref": arn, "Arn": arn})
