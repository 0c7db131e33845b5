"""The case platform in the stack: escalation sweep on a schedule, least privilege on the cases table."""

from __future__ import annotations

import json
from typing import Any

from aws_cdk.assertions import Match

from infra.case_platform import CASE_STORE_ACTIONS
from memo import tables

from .conftest import Synthesized


def _escalation_function(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    functions = synthesized.template.find_resources(
        "AWS::Lambda::Function", {"Properties": {"Description": Match.string_like_regexp("escalat")}}
    )
    assert len(functions) == 1
    return next(iter(functions.items()))


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
