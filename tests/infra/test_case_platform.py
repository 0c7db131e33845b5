"""The case platform in the stack: escalation sweep on a schedule, least privilege on the cases table."""

from __future__ import annotations

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
    assert function["Properties"]["ReservedConcurrentExecutions"] == 1


def test_the_sweep_may_only_touch_the_cases_table_and_its_named_indexes(synthesized: Synthesized) -> None:
    _, function = _escalation_function(synthesized)
    role_ref = function["Properties"]["Role"]["Fn::GetAtt"][0]
    policies = synthesized.template.find_resources(
        "AWS::IAM::Policy", {"Properties": {"Roles": [{"Ref": role_ref}]}}
    )
    statements = [s for p in policies.values() for s in p["Properties"]["PolicyDocument"]["Statement"]]
    dynamo = [s for s in statements if any(str(a).startswith("dynamodb:") for a in _list(s["Action"]))]
    assert len(dynamo) == 1
    assert sorted(_list(dynamo[0]["Action"])) == sorted(CASE_STORE_ACTIONS)
    resources = _list(dynamo[0]["Resource"])
    assert len(resources) == 1 + len(tables.CASES.gsis)
    assert "*" not in str(resources)


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
    alarms = synthesized.template.find_resources("AWS::CloudWatch::Alarm")
    names = {a["Properties"].get("MetricName") for a in alarms.values()}
    assert {"HitlCasesPastSla", "HitlEscalationNotifyFailed", "HitlProjectionDrift"} <= names
    past_sla = next(a for a in alarms.values() if a["Properties"].get("MetricName") == "HitlCasesPastSla")
    assert past_sla["Properties"]["AlarmActions"]
    assert past_sla["Properties"]["Dimensions"] == [{"Name": "service", "Value": "memo"}]
