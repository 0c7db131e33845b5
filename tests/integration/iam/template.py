"""Each role's policy as the synthesized template gives it, resolved to the local stack's ARNs.

`role_grants(synthesized, names)` reads every statement attached to each of Memo's roles (the role's
own `Policies` and the `AWS::IAM::Policy` resources naming it; a managed policy would be refused, none
is attached) and splits it into atomic grants: one action on one resource under the statement's
condition. The template's intrinsics (`Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::Select`,
`Fn::Split`) are resolved against `LocalNames`: what each logical id is called in the local stack
(account 123456789012, us-east-1, the tables, queues, notice bus and archive bucket of
`memo.local.aws`, the secrets, topic and functions `tests.integration.iam.harness` creates). A reference to anything without a local
counterpart fails the resolution, so a new resource in a role's policy cannot go untested.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.infra.conftest import Synthesized

ACCOUNT = "123456789012"
REGION = "us-east-1"
PSEUDO = {
    "AWS::AccountId": ACCOUNT,
    "AWS::Region": REGION,
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
    "AWS::StackName": "MemoStack",
}


@dataclass(frozen=True)
class LocalResource:
    """A template resource in the local stack: its ARN (`Fn::GetAtt ... Arn`) and what `Ref` gives."""

    arn: str
    ref: str


@dataclass(frozen=True, order=True)
class Grant:
    """One action on one resource (an ARN, maybe with `*`), under the statement's condition (JSON)."""

    action: str
    resource: str
    condition: str = ""

    @property
    def key(self) -> str:
        """`action resource` with the resource as the local stack names it, read alike in every run
        (a secret's ARN ends with six random characters)."""
        return f"{self.action} {alias(self.resource)}"

    def statement(self) -> dict[str, Any]:
        statement: dict[str, Any] = {"Effect": "Allow", "Action": self.action, "Resource": self.resource}
        if self.condition:
            statement["Condition"] = json.loads(self.condition)
        return statement


def alias(resource: str) -> str:
    """An ARN without its partition, service, region and account (`table/memo-items`)."""
    if not resource.startswith("arn:"):
        return resource
    rest = resource.split(":", 5)[5]
    return re.sub(r"^(secret:.+)-[A-Za-z0-9]{6}$", r"\1", rest)


@dataclass
class LocalNames:
    """Logical id -> local resource, plus resolvers by resource type for the rest (log groups)."""

    resources: dict[str, LocalResource] = field(default_factory=dict)
    by_type: dict[str, Callable[[str], LocalResource]] = field(default_factory=dict)

    def resolve(self, logical_id: str, types: Mapping[str, str]) -> LocalResource:
        if logical_id in self.resources:
            return self.resources[logical_id]
        kind = types.get(logical_id, "?")
        if kind in self.by_type:
            return self.by_type[kind](logical_id)
        raise KeyError(f"{logical_id} ({kind}) has no counterpart in the local stack")


class Resolver:
    def __init__(self, template: Mapping[str, Any], names: LocalNames) -> None:
        self._types = {lid: str(r["Type"]) for lid, r in template["Resources"].items()}
        self._names = names

    def __call__(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) != 1:
            return {k: self(v) for k, v in value.items()}
        ((name, arg),) = value.items()
        if name == "Ref":
            return PSEUDO[arg] if arg in PSEUDO else self._names.resolve(arg, self._types).ref
        if name == "Fn::GetAtt":
            logical_id, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
            if attribute != "Arn":
                raise KeyError(f"Fn::GetAtt {logical_id}.{attribute}: only Arn is resolved")
            return self._names.resolve(logical_id, self._types).arn
        if name == "Fn::Join":
            separator, parts = arg
            return str(separator).join(str(self(p)) for p in parts)
        if name == "Fn::Select":
            index, items = arg
            return self(items)[int(self(index))]
        if name == "Fn::Split":
            separator, text = arg
            return str(self(text)).split(separator)
        if name == "Fn::Sub":
            return self._sub(arg)
        if name.startswith("Fn::"):
            raise KeyError(f"intrinsic {name} is not resolved")
        return {name: self(arg)}

    def _sub(self, arg: Any) -> str:
        text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], arg[1])

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name in variables:
                return str(self(variables[name]))
            if name in PSEUDO:
                return PSEUDO[name]
            if name.endswith(".Arn"):
                return str(self({"Fn::GetAtt": [name[: -len(".Arn")], "Arn"]}))
            return str(self({"Ref": name}))

        return re.sub(r"\$\{([^}!][^}]*)\}", one, text)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def role_statements(template: Mapping[str, Any], role_id: str) -> Iterator[dict[str, Any]]:
    """Every statement the template attaches to the role `role_id`."""
    role = template["Resources"][role_id]["Properties"]
    if role.get("ManagedPolicyArns"):
        raise ValueError(f"{role_id} has managed policies, which this harness cannot resolve")
    for policy in role.get("Policies", []):
        yield from _as_list(policy["PolicyDocument"]["Statement"])
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::IAM::Policy" and {"Ref": role_id} in resource["Properties"].get(
            "Roles", []
        ):
            yield from _as_list(resource["Properties"]["PolicyDocument"]["Statement"])


def grants(statements: Iterator[dict[str, Any]], resolve: Resolver) -> frozenset[Grant]:
    """The statements split into atomic grants (every statement of Memo's roles allows)."""
    found: set[Grant] = set()
    for statement in statements:
        if statement.get("Effect") != "Allow" or "NotAction" in statement or "NotResource" in statement:
            raise ValueError(f"only Allow statements of Action and Resource are read: {statement}")
        condition = (
            json.dumps(resolve(statement["Condition"]), sort_keys=True) if "Condition" in statement else ""
        )
        for action in _as_list(statement["Action"]):
            for resource in _as_list(resolve(statement["Resource"])):
                found.add(Grant(str(action), str(resource), condition))
    return frozenset(found)


def role_grants(
    synthesized: Synthesized, roles: Mapping[str, Any], names: LocalNames
) -> dict[str, frozenset[Grant]]:
    """`roles`: role key -> the role construct. Each role's atomic grants, resolved locally."""
    template = synthesized.template_json
    resolve = Resolver(template, names)
    return {
        key: grants(role_statements(template, synthesized.logical_id(role)), resolve)
        for key, role in roles.items()
    }
