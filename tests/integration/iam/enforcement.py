"""moto's IAM enforcement, made to check what AWS checks for the services Memo calls.

moto authenticates a request (signature, access key of an IAM user) and checks its action once
`INITIAL_NO_AUTH_ACTION_COUNT` is reached; but it checks the action against resource "*" for every
service except SQS, IAM and STS (`BaseResponse.call_action` asks the response class for
`_determine_resource`, which only those define), evaluates conditions only with `StringEquals` (and
a failed condition of an Allow statement denies everything), and names DynamoDB's transactions as
actions IAM does not have. In this harness only:

- `_determine_resource` is added to the response classes of DynamoDB (the table or index ARN),
  Step Functions (state machine or execution ARN; "*" for task tokens, which name no resource),
  EventBridge Scheduler (the schedule ARN), Secrets Manager (the secret ARN), SNS (the topic ARN) and
  Lambda (the function ARN, with its qualifier); S3 requests (which moto authorizes apart, on
  `arn:aws:s3:::<bucket>[/<key>]`) are checked the same way;
- every request signed by a role's IAM user is checked as the list of accesses AWS authorizes for it
  (`accesses`): one per item of a TransactWriteItems (PutItem, UpdateItem, DeleteItem or
  ConditionCheckItem on that item's table) or TransactGetItems, one per table of a batch, one
  events:PutEvents per entry of a PutEvents on the entry's event bus, Lambda's Invoke as
  lambda:InvokeFunction, SQS's batch calls as their single actions, and the iam:PassRole a
  CreateSchedule/UpdateSchedule makes of its target's role for the Scheduler;
- each access is evaluated against the user's policies as IAM does (`allowed`): action and resource
  with wildcards, conditions with their operators (`dynamodb:LeadingKeys` is the partition key of
  the item or query; `iam:PassedToService` the Scheduler), an unknown operator refused loudly.

Requests signed by any other key (the local stack's own machinery, the test's setup and checks) are
not checked. Every checked access is recorded in `Ledger`, allowed or denied, with the role.
"""

from __future__ import annotations

import fnmatch
import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from moto.core.authorization import ActionAuthenticatorMixin, enable_iam_authentication
from moto.core.exceptions import AccessDeniedError
from moto.iam.access_control import IAMRequest, S3IAMRequest
from moto.iam.models import Policy

from tests.integration.iam.template import ACCOUNT, REGION

SCHEDULER_SERVICE = "scheduler.amazonaws.com"
TRANSACT_ACTIONS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}
SINGLE_ACTIONS = {
    "lambda:Invoke": "lambda:InvokeFunction",
    "sqs:SendMessageBatch": "sqs:SendMessage",
    "sqs:DeleteMessageBatch": "sqs:DeleteMessage",
    "sqs:ChangeMessageVisibilityBatch": "sqs:ChangeMessageVisibility",
}


class UnsupportedCondition(AssertionError):
    """A policy condition this harness does not evaluate: extend `condition_holds`."""


@dataclass(frozen=True)
class Access:
    action: str
    resource: str
    context: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def values(self, key: str) -> tuple[str, ...] | None:
        return dict(self.context).get(key)


@dataclass
class Ledger:
    """Every checked access, by role: what IAM allowed and what it denied."""

    allowed: list[tuple[str, Access]] = field(default_factory=list)
    denied: list[tuple[str, Access]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, role: str, access: Access, *, granted: bool) -> None:
        with self.lock:
            (self.allowed if granted else self.denied).append((role, access))

    def clear(self) -> None:
        with self.lock:
            self.allowed.clear()
            self.denied.clear()


# --- evaluation ---------------------------------------------------------------------------------


def _like(pattern: str, value: str, *, case: bool = True) -> bool:
    if not case:
        pattern, value = pattern.lower(), value.lower()
    return fnmatch.fnmatchcase(value, pattern.replace("[", "[[]"))


def _any(patterns: Any, value: str, *, case: bool = True) -> bool:
    return any(_like(p, value, case=case) for p in (patterns if isinstance(patterns, list) else [patterns]))


_OPERATORS: Mapping[str, Callable[[str, str], bool]] = {
    "StringEquals": lambda expected, actual: expected == actual,
    "StringLike": lambda expected, actual: _like(expected, actual),
    "ArnEquals": lambda expected, actual: expected == actual,
    "ArnLike": lambda expected, actual: _like(expected, actual),
}


def condition_holds(operator: str, key: str, expected: Any, access: Access) -> bool:
    """One condition of a statement, as IAM evaluates it (a missing key: false, but true for
    `ForAllValues`)."""
    qualifier, _, name = operator.rpartition(":")
    test = _OPERATORS.get(name)
    if test is None or qualifier not in {"", "ForAllValues", "ForAnyValue"}:
        raise UnsupportedCondition(f"{operator} is not evaluated by this harness")
    wanted = expected if isinstance(expected, list) else [expected]
    actual = access.values(key) or ()
    matches = [any(test(w, a) for w in wanted) for a in actual]
    if qualifier == "ForAllValues":
        return all(matches)
    return any(matches)


def _statement_applies(statement: Mapping[str, Any], access: Access) -> bool:
    if not _any(statement.get("Action", []), access.action, case=False):
        return False
    if not _any(statement.get("Resource", []), access.resource):
        return False
    return all(
        condition_holds(operator, key, expected, access)
        for operator, block in statement.get("Condition", {}).items()
        for key, expected in block.items()
    )


def allowed(documents: list[dict[str, Any]], access: Access) -> bool:
    """An explicit Deny wins; otherwise any Allow that applies; otherwise the implicit deny."""
    verdict = False
    for document in documents:
        statements = document["Statement"]
        for statement in statements if isinstance(statements, list) else [statements]:
            if _statement_applies(statement, access):
                if statement["Effect"] == "Deny":
                    return False
                verdict = True
    return verdict


def _document(policy: Any) -> dict[str, Any]:
    """A policy as moto's `collect_policies` gives it (as `moto.iam.access_control.IAMPolicy` reads it)."""
    if isinstance(policy, Policy):
        text = next(v.document for v in policy.versions if v.is_default)
    elif isinstance(policy, str):
        text = policy
    else:
        text = policy["policy_document"]
    document: dict[str, Any] = json.loads(text) if isinstance(text, str) else text
    return document


class CheckedRequest(IAMRequest):
    """moto's IAM request (signature, access key), checking every access of the request."""

    def __init__(self, *args: Any, role: str, accesses: list[Access], ledger: Ledger, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.role, self.accesses, self.ledger = role, accesses, ledger

    def check_signature(self) -> None:
        """Not checked: the keys are the harness's own, found by `IAMRequest` (an unknown key is still
        refused), and moto recomputes the signature of a REST request with a query string from its
        parsed parameters (DeleteSchedule's `groupName`), which then never matches."""

    def check_action_permitted(self, resource: str) -> None:
        documents = [_document(p) for p in self._access_key.collect_policies()]
        for access in self.accesses:
            granted = allowed(documents, access)
            self.ledger.record(self.role, access, granted=granted)
            if not granted:
                raise AccessDeniedError(
                    user_arn=self._access_key.arn, action=f"{access.action} on {access.resource}"
                )


# --- what a request asks for -----------------------------------------------------------------------


def _body(response: Any) -> dict[str, Any]:
    """A JSON request's body (moto has parsed some already)."""
    body = response.body
    if isinstance(body, dict):
        return body
    return dict(json.loads(body)) if body else {}


def _table_arn(name: str) -> str:
    return f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"


def _key_value(value: Mapping[str, Any]) -> str:
    ((_, scalar),) = value.items()
    return str(scalar)


class DynamoAccesses:
    """The accesses of one DynamoDB request (its body), with each item's partition key."""

    def __init__(self, response: Any) -> None:
        self._backend = response.dynamodb_backend
        self._body = _body(response)

    def _leading(self, table: str, item: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        hash_key = self._backend.get_table(table).hash_key_attr
        return (("dynamodb:LeadingKeys", (_key_value(item[hash_key]),)),) if hash_key in item else ()

    def _item(self, action: str, table: str, item: Mapping[str, Any]) -> Access:
        return Access(f"dynamodb:{action}", _table_arn(table), self._leading(table, item))

    def __call__(self, operation: str) -> list[Access]:
        body = self._body
        if operation == "TransactWriteItems":
            return [
                self._item(
                    TRANSACT_ACTIONS[kind], request["TableName"], request.get("Item") or request["Key"]
                )
                for entry in body["TransactItems"]
                for kind, request in entry.items()
            ]
        if operation == "TransactGetItems":
            return [
                self._item("GetItem", e["Get"]["TableName"], e["Get"]["Key"]) for e in body["TransactItems"]
            ]
        if operation in {"BatchWriteItem", "BatchGetItem"}:
            return [
                self._batch(operation, table, requests) for table, requests in body["RequestItems"].items()
            ]
        table = body.get("TableName", "")
        if operation in {"GetItem", "PutItem", "UpdateItem", "DeleteItem"}:
            return [self._item(operation, table, body.get("Item") or body["Key"])]
        arn = _table_arn(table) + (f"/index/{body['IndexName']}" if body.get("IndexName") else "")
        return [
            Access(f"dynamodb:{operation}", arn, self._query_leading(table) if operation == "Query" else ())
        ]

    def _batch(self, operation: str, table: str, requests: Any) -> Access:
        if operation == "BatchGetItem":
            items = requests["Keys"]
        else:
            items = [r.get("PutRequest", {}).get("Item") or r["DeleteRequest"]["Key"] for r in requests]
        hash_key = self._backend.get_table(table).hash_key_attr
        keys = tuple(sorted({_key_value(i[hash_key]) for i in items}))
        return Access(f"dynamodb:{operation}", _table_arn(table), (("dynamodb:LeadingKeys", keys),))

    def _query_leading(self, table: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        body = self._body
        names = body.get("ExpressionAttributeNames", {})
        hash_key = self._backend.get_table(table).hash_key_attr
        for name, placeholder in re.findall(r"([#\w]+)\s*=\s*(:\w+)", body.get("KeyConditionExpression", "")):
            if names.get(name, name) == hash_key:
                value = _key_value(body["ExpressionAttributeValues"][placeholder])
                return (("dynamodb:LeadingKeys", (value,)),)
        return ()


def _event_bus_arn(name: str) -> str:
    """An entry's bus (a name or an ARN; none: the account's default bus)."""
    return name if name.startswith("arn:") else f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{name}"


def _scheduler_resource(response: Any) -> str:
    path = urlparse(response.uri).path
    name = unquote(path.rstrip("/").split("/")[-1])
    query = parse_qs(urlparse(response.uri).query)
    group = response._get_param("GroupName") or (query.get("groupName") or ["default"])[0]
    return f"arn:aws:scheduler:{REGION}:{ACCOUNT}:schedule/{group}/{name}"


def _lambda_resource(response: Any) -> str:
    parts = urlparse(response.uri).path.split("/")
    name = unquote(parts[parts.index("functions") + 1])
    arn = name if name.startswith("arn:") else f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"
    qualifier = parse_qs(urlparse(response.uri).query).get("Qualifier")
    return f"{arn}:{qualifier[0]}" if qualifier else arn


def _secret_resource(response: Any) -> str:
    secret_id = response._get_param("SecretId")
    try:
        return str(response.backend.describe_secret(secret_id).arn)
    except Exception:  # noqa: BLE001 - a secret that does not exist: the action is checked on "*"
        return "*"


def _states_resource(response: Any) -> str:
    return str(response._get_param("stateMachineArn") or response._get_param("executionArn") or "*")


def _dynamodb_resource(response: Any) -> str:
    body = _body(response)
    return _table_arn(body["TableName"]) if "TableName" in body else "*"


RESOURCES: Mapping[str, tuple[str, str, Callable[[Any], str]]] = {
    "dynamodb": ("moto.dynamodb.responses", "DynamoHandler", _dynamodb_resource),
    "states": ("moto.stepfunctions.responses", "StepFunctionResponse", _states_resource),
    "scheduler": ("moto.scheduler.responses", "EventBridgeSchedulerResponse", _scheduler_resource),
    "secretsmanager": ("moto.secretsmanager.responses", "SecretsManagerResponse", _secret_resource),
    "sns": ("moto.sns.responses", "SNSResponse", lambda r: str(r._get_param("TopicArn") or "*")),
    "lambda": ("moto.awslambda.responses", "LambdaResponse", _lambda_resource),
}


def accesses(response: Any, service: str, operation: str, resource: str) -> list[Access]:
    """What AWS authorizes for this request (see the module's docstring)."""
    if service == "dynamodb":
        return DynamoAccesses(response)(operation)
    if service == "events" and operation == "PutEvents":
        entries = _body(response).get("Entries", [])
        return [
            Access("events:PutEvents", _event_bus_arn(e.get("EventBusName") or "default")) for e in entries
        ]
    action = SINGLE_ACTIONS.get(f"{service}:{operation}", f"{service}:{operation}")
    found = [Access(action, resource)]
    if service == "scheduler" and operation in {"CreateSchedule", "UpdateSchedule"}:
        role_arn = (response._get_param("Target") or {}).get("RoleArn", "*")
        found.append(Access("iam:PassRole", role_arn, (("iam:PassedToService", (SCHEDULER_SERVICE,)),)))
    return found


# --- installation ------------------------------------------------------------------------------------


def _access_key(headers: Mapping[str, str]) -> str:
    match = re.search(r"Credential=([^/]+)/", headers.get("Authorization", ""))
    return match.group(1) if match else ""


def _service(headers: Mapping[str, str]) -> str:
    match = re.search(r"Credential=[^/]+/[^/]+/[^/]+/([^/]+)/", headers.get("Authorization", ""))
    return match.group(1) if match else ""


@contextmanager
def enforced(users: Mapping[str, str], ledger: Ledger) -> Iterator[None]:
    """Within: IAM enforced for every request signed by one of `users` (access key id -> role). Any
    other IAM user's key (`AKIA...`: a role of a stack stopped before, whose execution thread still
    runs) is refused as moto refuses an unknown key; the local stack's own key is not checked."""
    import importlib

    def authorize(
        self: Any, resource: str = "*", operation: str | None = None, base: Any = IAMRequest
    ) -> None:
        key = _access_key(self.headers)
        role = users.get(key)
        if role is None:
            if key.startswith("AKIA"):
                self._authenticate_and_authorize_action(base, resource)  # InvalidClientTokenId
            return  # the local stack's machinery, the test's own setup and checks
        service = _service(self.headers)
        checks = accesses(self, service, operation or self._get_action(), resource)
        request = partial(CheckedRequest, role=role, accesses=checks, ledger=ledger)
        self._authenticate_and_authorize_action(request, resource)

    def authorize_s3(self: Any, bucket_name: str | None = None, key_name: str | None = None) -> None:
        """As moto names an S3 request's resource; the action is the one moto set for the request."""
        path = f"{bucket_name or '*'}/{key_name}" if key_name else (bucket_name or "*")
        authorize(self, f"arn:aws:s3:::{path}", operation=self.data["Action"], base=S3IAMRequest)

    with ExitStack() as stack:
        for module_name, class_name, resolve in RESOURCES.values():
            response_class = getattr(importlib.import_module(module_name), class_name)
            stack.enter_context(
                _attribute(response_class, "_determine_resource", lambda self, r=resolve: r(self))
            )
        stack.enter_context(
            _attribute(ActionAuthenticatorMixin, "_authenticate_and_authorize_normal_action", authorize)
        )
        stack.enter_context(
            _attribute(ActionAuthenticatorMixin, "_authenticate_and_authorize_s3_action", authorize_s3)
        )
        stack.enter_context(enable_iam_authentication())
        yield


@contextmanager
def _attribute(owner: Any, name: str, value: Any) -> Iterator[None]:
    missing = object()
    old = owner.__dict__.get(name, missing)
    setattr(owner, name, value)
    try:
        yield
    finally:
        if old is missing:
            delattr(owner, name)
        else:
            setattr(owner, name, old)
