"""The case platform in the stack: escalation sweep on a schedule, least privilege on the cases table,
the agents' notice bus and the retention job's archive bucket."""

from __future__ import annotations

import json
from typing import Any

from aws_cdk.assertions import Match

from infra.case_platform import ARCHIVE_ACTIONS, CASE_STORE_ACTIONS
from memo import tables
from memo.settings import EscalationSettings

from .conftest import Synthesized


def _escalation_function(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    functions = synthesized.template.find_resources(
        "AWS::Lambda::Function", {"Properties": {"Description": Match.string_like_regexp("escalat")}}
    )
    ((logical_id, function),) = functions.items()
    return logical_id, dict(function)


def test_the_sweep_runs_hourly_on_a_schedule(synthesized: Synthesized) -> None:
    logical_id, function = _escalation_function(synthesized)
    assert tables.CASES.env_var in function["Properties"]["Environment"]["Variables"]
    rules = synthesized.template.find_resources("AWS::Events::Rule")
    (rule,) = [
        r
        for r in rules.values()
        if r["Properties"]["Targets"][0]["Arn"]["Fn::GetAtt"][0] == logical_id
        and "Input" not in r["Properties"]["Targets"][0]  # the daily drift job has its own rule
    ]
    assert rule["Properties"]["ScheduleExpression"] == "rate(1 hour)"


def test_the_sweep_reserves_no_concurrency_unless_asked(
    synthesized: Synthesized, variant: Synthesized
) -> None:
    """A new account's concurrency quota leaves nothing to reserve (any reservation rolls the stack
    back), and the sweep is safe to run concurrently: off by default, one sweep at a time on request."""
    _, function = _escalation_function(synthesized)
    assert "ReservedConcurrentExecutions" not in function["Properties"]
    assert synthesized.stack.settings.escalation_reserve_concurrency is False
    _, reserved = _escalation_function(variant)
    assert reserved["Properties"]["ReservedConcurrentExecutions"] == 1


def test_both_rules_retry_then_dead_letter_what_they_could_not_deliver(synthesized: Synthesized) -> None:
    logical_id, _ = _escalation_function(synthesized)
    queue = synthesized.logical_id(synthesized.stack.case_platform.dead_letter_queue)
    targets = [
        target
        for rule in synthesized.resources("AWS::Events::Rule").values()
        for target in rule["Properties"]["Targets"]
        if target["Arn"] == {"Fn::GetAtt": [logical_id, "Arn"]}
    ]
    assert len(targets) == 3  # the hourly sweep, the daily drift check and the daily retention run
    for target in targets:
        assert target["DeadLetterConfig"] == {"Arn": {"Fn::GetAtt": [queue, "Arn"]}}
        assert target["RetryPolicy"] == {"MaximumRetryAttempts": 2, "MaximumEventAgeInSeconds": 3600}
    # EventBridge may send to it for these rules only; the stack alarms on its depth.
    (policy,) = [
        p["Properties"]["PolicyDocument"]["Statement"]
        for p in synthesized.resources("AWS::SQS::QueuePolicy").values()
        if {"Ref": queue} in p["Properties"]["Queues"]
    ]
    senders = [s for s in policy if s["Effect"] == "Allow"]
    assert {s["Principal"]["Service"] for s in senders} == {"events.amazonaws.com"}
    assert {json.dumps(s["Condition"]["ArnEquals"]["aws:SourceArn"]) for s in senders} == {
        json.dumps({"Fn::GetAtt": [rule_id, "Arn"]}) for rule_id in synthesized.resources("AWS::Events::Rule")
    }
    depth = [
        a["Properties"]
        for a in synthesized.resources("AWS::CloudWatch::Alarm").values()
        if a["Properties"]["MetricName"] == "ApproximateNumberOfMessagesVisible"
        and a["Properties"]["Dimensions"][0]["Value"] == {"Fn::GetAtt": [queue, "QueueName"]}
    ]
    assert len(depth) == 1 and depth[0]["Threshold"] == 0


def test_the_sweep_may_only_touch_the_cases_table_and_the_indexes_it_queries(
    synthesized: Synthesized,
) -> None:
    """The case store's item actions on the table (no DeleteItem, no schema UpdateItem: the sweep
    registers nothing), Query on the two indexes its queries read (GSI1, GSI4) only."""
    _, function = _escalation_function(synthesized)
    role_ref = function["Properties"]["Role"]["Fn::GetAtt"][0]
    policies = synthesized.template.find_resources(
        "AWS::IAM::Policy", {"Properties": {"Roles": [{"Ref": role_ref}]}}
    )
    statements = [s for p in policies.values() for s in p["Properties"]["PolicyDocument"]["Statement"]]
    dynamo = [s for s in statements if any(str(a).startswith("dynamodb:") for a in _list(s["Action"]))]
    on_table, on_indexes = dynamo
    assert sorted(_list(on_table["Action"])) == sorted(CASE_STORE_ACTIONS)
    assert len(_list(on_table["Resource"])) == 1
    assert _list(on_indexes["Action"]) == ["dynamodb:Query"]
    indexes = [json.dumps(r) for r in _list(on_indexes["Resource"])]
    assert [
        name for name in ("GSI1", "GSI2", "GSI3", "GSI4") if any(f"/index/{name}" in r for r in indexes)
    ] == ["GSI1", "GSI4"]
    assert "*" not in str(dynamo)
    assert "dynamodb:DeleteItem" not in CASE_STORE_ACTIONS and "dynamodb:UpdateItem" not in CASE_STORE_ACTIONS


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def test_escalations_publish_to_an_encrypted_topic_linking_the_review_page(synthesized: Synthesized) -> None:
    _, function = _escalation_function(synthesized)
    variables = function["Properties"]["Environment"]["Variables"]
    assert "ESCALATION_TOPIC_ARN" in variables and "REVIEW_URL" in variables
    topics = synthesized.template.find_resources(
        "AWS::SNS::Topic", {"Properties": {"DisplayName": "HITL escalations"}}
    )
    (topic,) = topics.values()
    assert topic["Properties"]["KmsMasterKeyId"]
    role_ref = function["Properties"]["Role"]["Fn::GetAtt"][0]
    policies = synthesized.template.find_resources(
        "AWS::IAM::Policy", {"Properties": {"Roles": [{"Ref": role_ref}]}}
    )
    statements = [s for p in policies.values() for s in p["Properties"]["PolicyDocument"]["Statement"]]
    assert any("sns:Publish" in _list(s["Action"]) for s in statements)


def test_drift_runs_daily_and_the_platform_alarms_notify_the_alarm_topic(synthesized: Synthesized) -> None:
    rules = synthesized.template.find_resources(
        "AWS::Events::Rule", {"Properties": {"ScheduleExpression": "rate(1 day)"}}
    )
    assert any('"job":"drift"' in str(r["Properties"]["Targets"][0].get("Input")) for r in rules.values())
    assert any('"job":"retention"' in str(r["Properties"]["Targets"][0].get("Input")) for r in rules.values())
    alarms = synthesized.template.find_resources("AWS::CloudWatch::Alarm")
    names = {a["Properties"].get("MetricName") for a in alarms.values()}
    assert {"HitlCasesPastSla", "HitlEscalationNotifyFailed", "HitlProjectionDrift"} <= names
    past_sla = next(a for a in alarms.values() if a["Properties"].get("MetricName") == "HitlCasesPastSla")
    assert past_sla["Properties"]["AlarmActions"]
    assert past_sla["Properties"]["Dimensions"] == [{"Name": "service", "Value": "memo"}]


# --- the agents' notice bus and the archive bucket ---------------------------------------------------


def _statements_by_role(synthesized: Synthesized) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for policy in synthesized.resources("AWS::IAM::Policy").values():
        for role in policy["Properties"]["Roles"]:
            found.setdefault(role["Ref"], []).extend(policy["Properties"]["PolicyDocument"]["Statement"])
    return found


def _granted(synthesized: Synthesized, prefix: str) -> dict[str, list[tuple[list[str], Any]]]:
    """Role -> (actions, resource) of each statement allowing an action of the service `prefix`."""
    return {
        role: [
            (_list(s["Action"]), s["Resource"])
            for s in statements
            if any(str(a).startswith(prefix) for a in _list(s["Action"]))
        ]
        for role, statements in _statements_by_role(synthesized).items()
        if any(str(a).startswith(prefix) for s in statements for a in _list(s["Action"]))
    }


def test_agents_hear_of_cases_on_a_bus_only_the_review_function_puts_to(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    bus = synthesized.logical_id(stack.case_platform.event_bus)
    assert list(synthesized.resources("AWS::Events::EventBus")) == [bus]
    # Agents bring their own rules: the stack adds none on the bus, and no archive of it.
    assert not [
        r for r in synthesized.resources("AWS::Events::Rule").values() if "EventBusName" in r["Properties"]
    ]
    assert synthesized.resources("AWS::Events::Archive") == {}
    review = synthesized.logical_id(stack.review.function.role)
    assert _granted(synthesized, "events:") == {
        review: [(["events:PutEvents"], {"Fn::GetAtt": [bus, "Arn"]})]
    }
    review_function = synthesized.template_json["Resources"][
        synthesized.logical_id(stack.review.function.function)
    ]
    assert review_function["Properties"]["Environment"]["Variables"]["HITL_EVENT_BUS_NAME"] == {"Ref": bus}
    outputs = synthesized.template_json["Outputs"]
    assert outputs["HitlEventBusName"]["Value"] == {"Ref": bus}
    assert outputs["HitlEventBusArn"]["Value"] == {"Fn::GetAtt": [bus, "Arn"]}


def test_the_archive_bucket_is_private_encrypted_versioned_logged_and_kept(synthesized: Synthesized) -> None:
    platform = synthesized.stack.case_platform
    bucket_id = synthesized.logical_id(platform.archive_bucket)
    logs_id = synthesized.logical_id(platform.archive_access_logs)
    assert set(synthesized.resources("AWS::S3::Bucket")) == {bucket_id, logs_id}
    for logical_id in (bucket_id, logs_id):
        resource = synthesized.template_json["Resources"][logical_id]
        properties = resource["Properties"]
        assert (resource["DeletionPolicy"], resource["UpdateReplacePolicy"]) == ("Retain", "Retain")
        assert "BucketName" not in properties  # a redeployment after `cdk destroy` makes a new one
        assert properties["PublicAccessBlockConfiguration"] == {
            "BlockPublicAcls": True,
            "BlockPublicPolicy": True,
            "IgnorePublicAcls": True,
            "RestrictPublicBuckets": True,
        }
        (encryption,) = properties["BucketEncryption"]["ServerSideEncryptionConfiguration"]
        assert encryption["ServerSideEncryptionByDefault"] == {"SSEAlgorithm": "AES256"}
        assert _denies_plain_http(synthesized, logical_id)
    archive = synthesized.template_json["Resources"][bucket_id]["Properties"]
    assert archive["VersioningConfiguration"] == {"Status": "Enabled"}
    assert archive["OwnershipControls"] == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}  # no ACLs
    assert archive["LoggingConfiguration"] == {
        "DestinationBucketName": {"Ref": logs_id},
        "LogFilePrefix": "archive/",
    }
    (rule,) = archive["LifecycleConfiguration"]["Rules"]
    assert rule["Status"] == "Enabled" and "ExpirationInDays" not in rule  # nothing archived expires
    assert rule["Transitions"] == [{"StorageClass": "GLACIER", "TransitionInDays": 90}]
    assert rule["NoncurrentVersionTransitions"] == [{"StorageClass": "GLACIER", "TransitionInDays": 90}]
    outputs = synthesized.template_json["Outputs"]
    assert outputs["HitlArchiveBucketName"]["Value"] == {"Ref": bucket_id}


def _denies_plain_http(synthesized: Synthesized, bucket_id: str) -> bool:
    statements = [
        s
        for policy in synthesized.resources("AWS::S3::BucketPolicy").values()
        if policy["Properties"]["Bucket"] == {"Ref": bucket_id}
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
    ]
    return any(
        s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
        for s in statements
    )


def test_the_retention_job_may_only_put_archived_cases_in_the_bucket(synthesized: Synthesized) -> None:
    platform = synthesized.stack.case_platform
    bucket_id = synthesized.logical_id(platform.archive_bucket)
    _, function = _escalation_function(synthesized)
    variables = function["Properties"]["Environment"]["Variables"]
    assert variables["HITL_ARCHIVE_BUCKET"] == {"Ref": bucket_id}
    plain = {k: v if isinstance(v, str) else "resolved-at-deploy-time" for k, v in variables.items()}
    assert EscalationSettings.from_env(plain).archive_bucket == "resolved-at-deploy-time"
    escalation_role = synthesized.logical_id(platform.escalation.role)
    objects = {"Fn::Join": ["", [{"Fn::GetAtt": [bucket_id, "Arn"]}, "/*"]]}
    # No read, list or delete, on no other bucket, by no other role.
    assert _granted(synthesized, "s3:") == {escalation_role: [(["s3:PutObject"], objects)]}
    assert list(ARCHIVE_ACTIONS) == ["s3:PutObject"]
