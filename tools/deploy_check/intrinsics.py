"""The template's values as CloudFormation would give them: intrinsic functions resolved, and every
resource given the physical name and ARN that CloudFormation would generate for it.

`physical_attributes` names each resource as CloudFormation does when the template gives no name
(`<stack>-<logical id>-<13 characters>`, cut to the service's limit), so the resolved environment
variables have the length they have when deployed. `resolve` evaluates `Ref`, `Fn::GetAtt`,
`Fn::Join`, `Fn::Sub` and `Fn::Select` over those attributes; any other intrinsic is an error, so the
check never runs a function with an environment it only guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The random part of a generated name (13 characters, as CloudFormation's).
GENERATED_SUFFIX = "1A2B3C4D5E6F7"
_SUB_VARIABLE = re.compile(r"\$\{([^}!][^}]*)\}")

Attributes = Mapping[str, Mapping[str, str]]


class UnresolvedIntrinsic(ValueError):
    """A value whose intrinsic function, resource or attribute the check cannot resolve."""


@dataclass(frozen=True)
class Account:
    """Where the resources are named: `account` id, `region`, `stack` name and the partition."""

    account: str
    region: str
    stack: str
    partition: str = "aws"

    @property
    def pseudo_parameters(self) -> dict[str, str]:
        return {
            "AWS::AccountId": self.account,
            "AWS::Region": self.region,
            "AWS::Partition": self.partition,
            "AWS::StackName": self.stack,
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::StackId": f"arn:{self.partition}:cloudformation:{self.region}:{self.account}:stack/"
            f"{self.stack}/00000000-0000-0000-0000-000000000000",
        }


def generated_name(stack: str, logical_id: str, limit: int, suffix: str = "") -> str:
    """CloudFormation's name for an unnamed resource: stack, logical id and a random part, the
    logical id shortened so that the whole (with `suffix`, e.g. `.fifo`) fits `limit` characters."""
    fixed = len(stack) + len(GENERATED_SUFFIX) + 2 + len(suffix)
    room = max(1, limit - fixed)
    return f"{stack}-{logical_id[:room]}-{GENERATED_SUFFIX}{suffix}"


def _named(properties: Mapping[str, Any], key: str) -> str | None:
    value = properties.get(key)
    return value if isinstance(value, str) else None


def _attributes(logical_id: str, resource: Mapping[str, Any], account: Account) -> dict[str, str]:
    """Ref and the attributes the template reads (`Arn`, `QueueUrl`, ...) of one resource."""
    kind = str(resource.get("Type", ""))
    props: Mapping[str, Any] = resource.get("Properties") or {}
    p, r, a = account.partition, account.region, account.account
    stack = account.stack
    if kind in ("AWS::DynamoDB::GlobalTable", "AWS::DynamoDB::Table"):
        name = _named(props, "TableName") or generated_name(stack, logical_id, 255)
        return {"Ref": name, "Arn": f"arn:{p}:dynamodb:{r}:{a}:table/{name}"}
    if kind == "AWS::SQS::Queue":
        fifo = ".fifo" if props.get("FifoQueue") else ""
        name = _named(props, "QueueName") or generated_name(stack, logical_id, 80, fifo)
        url = f"https://sqs.{r}.amazonaws.com/{a}/{name}"
        return {"Ref": url, "QueueUrl": url, "QueueName": name, "Arn": f"arn:{p}:sqs:{r}:{a}:{name}"}
    if kind == "AWS::SecretsManager::Secret":
        name = _named(props, "Name") or generated_name(stack, logical_id, 256)
        arn = f"arn:{p}:secretsmanager:{r}:{a}:secret:{name}-AbCdEf"
        return {"Ref": arn, "Id": arn, "Name": name}
    if kind == "AWS::Lambda::Function":
        name = _named(props, "FunctionName") or generated_name(stack, logical_id, 64)
        return {"Ref": name, "Arn": f"arn:{p}:lambda:{r}:{a}:function:{name}"}
    if kind == "AWS::IAM::Role":
        name = _named(props, "RoleName") or generated_name(stack, logical_id, 64)
        return {"Ref": name, "Arn": f"arn:{p}:iam::{a}:role/{name}", "RoleId": "AROA" + "X" * 17}
    if kind == "AWS::StepFunctions::StateMachine":
        name = _named(props, "StateMachineName") or generated_name("", logical_id, 80).lstrip("-")
        arn = f"arn:{p}:states:{r}:{a}:stateMachine:{name}"
        return {"Ref": arn, "Arn": arn, "Name": name}
    if kind == "AWS::SNS::Topic":
        name = _named(props, "TopicName") or generated_name(stack, logical_id, 256)
        arn = f"arn:{p}:sns:{r}:{a}:{name}"
        return {"Ref": arn, "TopicArn": arn, "TopicName": name}
    if kind == "AWS::Logs::LogGroup":
        name = _named(props, "LogGroupName") or generated_name(stack, logical_id, 512)
        return {"Ref": name, "Arn": f"arn:{p}:logs:{r}:{a}:log-group:{name}:*"}
    if kind == "AWS::Scheduler::ScheduleGroup":
        name = _named(props, "Name") or generated_name(stack, logical_id, 64)
        return {"Ref": name, "Arn": f"arn:{p}:scheduler:{r}:{a}:schedule-group/{name}"}
    if kind == "AWS::ApiGatewayV2::Api":
        api_id = "a1b2c3d4e5"
        return {
            "Ref": api_id,
            "ApiId": api_id,
            "ApiEndpoint": f"https://{api_id}.execute-api.{r}.amazonaws.com",
        }
    if kind == "AWS::Cognito::UserPoolDomain":
        return {"Ref": _named(props, "Domain") or f"memo-review-{a}"}
    if kind == "AWS::Cognito::UserPoolClient":
        return {"Ref": "a1b2c3d4e5f6g7h8i9j0k1l2m3", "ClientId": "a1b2c3d4e5f6g7h8i9j0k1l2m3"}
    if kind == "AWS::Cognito::UserPool":
        pool = f"{r}_AbCdEfGhI"
        return {"Ref": pool, "Arn": f"arn:{p}:cognito-idp:{r}:{a}:userpool/{pool}", "ProviderName": ""}
    service = kind.split("::")[1].lower() if kind.count("::") == 2 else "unknown"
    name = generated_name(stack, logical_id, 128)
    return {"Ref": name, "Arn": f"arn:{p}:{service}:{r}:{a}:{name}"}


def physical_attributes(template: Mapping[str, Any], account: Account) -> dict[str, dict[str, str]]:
    """Every resource's Ref and attributes as CloudFormation would generate them in `account`."""
    resources: Mapping[str, Any] = template.get("Resources") or {}
    return {
        logical_id: _attributes(logical_id, resource, account) for logical_id, resource in resources.items()
    }


def resolve(value: Any, attributes: Attributes, pseudo: Mapping[str, str]) -> Any:
    """`value` with every intrinsic function evaluated against `attributes` and `pseudo` parameters."""
    if isinstance(value, list):
        return [resolve(item, attributes, pseudo) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) != 1 or not next(iter(value)).startswith(("Ref", "Fn::")):
        return {key: resolve(item, attributes, pseudo) for key, item in value.items()}
    ((function, argument),) = value.items()
    if function == "Ref":
        return _ref(str(argument), attributes, pseudo)
    if function == "Fn::GetAtt":
        logical_id, attribute = argument.split(".", 1) if isinstance(argument, str) else argument
        return _attribute(logical_id, attribute, attributes)
    if function == "Fn::Join":
        separator, parts = argument
        return str(separator).join(str(resolve(part, attributes, pseudo)) for part in parts)
    if function == "Fn::Select":
        index, items = argument
        return resolve(items, attributes, pseudo)[int(resolve(index, attributes, pseudo))]
    if function == "Fn::Sub":
        text, variables = (argument, {}) if isinstance(argument, str) else argument
        return _sub(
            text, {k: resolve(v, attributes, pseudo) for k, v in variables.items()}, attributes, pseudo
        )
    raise UnresolvedIntrinsic(f"{function} is not resolved by the deploy check")


def _ref(name: str, attributes: Attributes, pseudo: Mapping[str, str]) -> str:
    if name in pseudo:
        return pseudo[name]
    return _attribute(name, "Ref", attributes)


def _attribute(logical_id: str, attribute: str, attributes: Attributes) -> str:
    try:
        return attributes[logical_id][attribute]
    except KeyError:
        raise UnresolvedIntrinsic(f"no {attribute} for resource {logical_id}") from None


def _sub(text: str, variables: Mapping[str, Any], attributes: Attributes, pseudo: Mapping[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in variables:
            return str(variables[name])
        if name in pseudo:
            return pseudo[name]
        logical_id, _, attribute = name.partition(".")
        return _attribute(logical_id, attribute or "Ref", attributes)

    return _SUB_VARIABLE.sub(one, text)
