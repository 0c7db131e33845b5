"""Reading the synthesized template: resources, references and the statements of a role's policies."""

from __future__ import annotations

import json
from typing import Any

from .conftest import Synthesized


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def ref(logical_id: str) -> dict[str, str]:
    return {"Ref": logical_id}


def arn(logical_id: str) -> dict[str, list[str]]:
    return {"Fn::GetAtt": [logical_id, "Arn"]}


def only(resources: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    assert len(resources) == 1, sorted(resources)
    return next(iter(resources.items()))


def role_statements(synth: Synthesized, role_logical_id: str) -> list[dict[str, Any]]:
    statements = []
    for policy in synth.resources("AWS::IAM::Policy").values():
        if ref(role_logical_id) in policy["Properties"]["Roles"]:
            statements.extend(policy["Properties"]["PolicyDocument"]["Statement"])
    return statements


def actions_by_resource(statements: list[dict[str, Any]]) -> dict[str, set[str]]:
    by_resource: dict[str, set[str]] = {}
    for statement in statements:
        assert statement["Effect"] == "Allow"
        for resource in as_list(statement["Resource"]):
            key = json.dumps(resource, sort_keys=True)
            by_resource.setdefault(key, set()).update(as_list(statement["Action"]))
    return by_resource


def queue_and_dead_letter_queue(synth: Synthesized) -> list[tuple[str, dict[str, Any]]]:
    queue = synth.logical_id(synth.stack.turn_queue.queue)
    dead_letter_queue = synth.logical_id(synth.stack.turn_queue.dead_letter_queue)
    resources = synth.template_json["Resources"]
    return [(queue, resources[queue]), (dead_letter_queue, resources[dead_letter_queue])]


def alarms_by_metric(synth: Synthesized) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Alarms keyed by (namespace, metric, the first dimension's value as JSON)."""
    return {
        (
            a["Properties"]["Namespace"],
            a["Properties"]["MetricName"],
            json.dumps(a["Properties"]["Dimensions"][0]["Value"], sort_keys=True),
        ): a["Properties"]
        for a in synth.resources("AWS::CloudWatch::Alarm").values()
    }
