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
        r for r in rules.values() if r["Properties"]["Targets"][0]["Arn"]["Fn::GetAtt"][0] == logical_id
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
