"""The local stack with every function, the state machine and the Scheduler running as their roles.

`IamStack(synthesized, clock=...)` starts `memo.local.stack.LocalStack` and then, for each of Memo's
roles, an IAM user in moto holding exactly the role's policy from the synthesized template (resolved
to the local stack's names by `tests.integration.iam.template`), under the enforcement of
`tests.integration.iam.enforcement`. Who signs what:

- each Lambda handler runs with its role's keys (the handler module's `handler` is wrapped: the
  process's boto3 session, `memo.aws.clients.session`, signs with the keys of the role whose handler
  runs in the current context; outside any handler, with the local stack's own keys);
- the poller receives and deletes as Lambda's event source mapping does, with the consuming
  function's role (the turn queue: the webhook's; the withdrawals queue: the review function's), and
  reads the queue's attributes once as the mapping's creation does. Making a failed record visible
  again at once is the local poller's shortcut (Lambda waits for the visibility timeout), so it stays
  the stack's own;
- moto's Step Functions engine invokes the Lambda tasks with the state machine role's keys;
- the Scheduler's part (the local ticker) invokes the reminders function through the Lambda API with
  the Scheduler role's keys; a function error is retried as Lambda's asynchronous invocation does,
  then sent to the function's on-failure destination with the reminders role's keys.

Secrets are read from Secrets Manager (created here with the local values; cached for no time, so
every function reads them with its own role: one process here, one per function deployed).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Collection, Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from contextvars import ContextVar
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from botocore.credentials import CredentialProvider, Credentials, ReadOnlyCredentials
from botocore.exceptions import ClientError

import memo.aws.clients
import memo.aws.secrets
import memo.local.stack
from memo import tables
from memo.local.aws import ARCHIVE_BUCKET_DEFAULT_NAME, EVENT_BUS_DEFAULT_NAME
from memo.local.functions import Handler, load_handler, load_module
from memo.local.poller import FifoPoller, QueueSource
from memo.local.stack import LOCAL_DEFAULTS, LocalStack
from memo.local.stepfunctions import ROLE_NAME as LOCAL_STATE_MACHINE_ROLE
from tests.infra.conftest import Synthesized
from tests.integration.iam.enforcement import Ledger, allowed, enforced
from tests.integration.iam.template import ACCOUNT, REGION, Grant, LocalNames, LocalResource, role_grants
from tests.support.clock import FakeClock

ROLE: ContextVar[str | None] = ContextVar("memo_iam_role", default=None)
# functions/<name> -> the role its handler runs as, and the function's local name.
FUNCTIONS: Mapping[str, tuple[str, str]] = {
    "webhook": ("webhook", "memo-webhook"),
    "executor": ("executor", "memo-executor"),
    "responder": ("responder", "memo-responder"),
    "review_submit": ("review_submit", "memo-review-submit"),
    "review": ("review", "memo-review"),
    "reminders": ("reminders", "memo-reminders"),
    "escalation": ("escalation", "memo-escalation"),
}
ROLES = (*(role for role, _ in FUNCTIONS.values()), "state_machine", "scheduler")
WHATSAPP_SECRET, OPENAI_SECRET = "memo-whatsapp", "memo-openai"
ESCALATION_TOPIC = "memo-escalations"
REMINDERS_DLQ, SCHEDULE_DLQ = "memo-reminders-dlq", "memo-reminder-schedules-dlq"
SCHEDULER_ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/memo-reminders-scheduler"  # memo.local.stack's
# The role moto's Lambda functions are created with by the local stack (never assumed here).
LOCAL_FUNCTION_ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/{LOCAL_STATE_MACHINE_ROLE}"
ASYNC_ATTEMPTS = 3  # Lambda's asynchronous invocation: the first try and two retries


def sqs_arn(name: str) -> str:
    return f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}"


def function_arn(name: str) -> str:
    return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"


def role_constructs(synthesized: Synthesized) -> dict[str, Any]:
    """Role key -> the role construct of the synthesized stack."""
    stack = synthesized.stack
    workflow = stack.executor_workflow
    return {
        "webhook": stack.webhook.role,
        "executor": workflow.executor.role,
        "responder": workflow.responder.role,
        "review_submit": workflow.review_submit.role,
        "review": stack.review.function.role,
        "reminders": stack.reminders.lambda_function.role,
        "escalation": stack.case_platform.escalation.role,
        "state_machine": workflow.state_machine.role,
        "scheduler": stack.reminders.scheduler_role,
    }


def local_names(synthesized: Synthesized, secret_arns: Mapping[str, str]) -> LocalNames:
    """What each resource a role's policy names is called in the local stack."""
    stack, lid = synthesized.stack, synthesized.logical_id
    names = LocalNames()

    def add(construct: Any, arn: str, ref: str | None = None) -> None:
        names.resources[lid(construct)] = LocalResource(arn, ref or arn)

    for spec in tables.ALL_TABLES:
        add(
            stack.store.table(spec),
            f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{spec.default_name}",
            spec.default_name,
        )
    queues = (
        (stack.turn_queue.queue, tables.TURN_QUEUE_DEFAULT_NAME),
        (stack.turn_queue.dead_letter_queue, "memo-turns-dlq.fifo"),
        (stack.review.withdrawals, tables.WITHDRAWAL_QUEUE_DEFAULT_NAME),
        (stack.review.withdrawal_dead_letters, tables.WITHDRAWAL_QUEUE_DEFAULT_NAME + "-dlq"),
        (stack.reminders.dead_letter_queue, REMINDERS_DLQ),
        (stack.reminders.schedule_dead_letter_queue, SCHEDULE_DLQ),
    )
    for queue, name in queues:
        add(queue, sqs_arn(name), f"https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/{name}")
    add(stack.secrets.whatsapp, secret_arns[WHATSAPP_SECRET])
    add(stack.secrets.openai, secret_arns[OPENAI_SECRET])
    add(stack.case_platform.escalation_topic, f"arn:aws:sns:{REGION}:{ACCOUNT}:{ESCALATION_TOPIC}")
    add(
        stack.case_platform.event_bus,
        f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{EVENT_BUS_DEFAULT_NAME}",
        EVENT_BUS_DEFAULT_NAME,
    )
    add(
        stack.case_platform.archive_bucket,
        f"arn:aws:s3:::{ARCHIVE_BUCKET_DEFAULT_NAME}",
        ARCHIVE_BUCKET_DEFAULT_NAME,
    )
    state_machine = stack.executor_workflow.state_machine
    add(state_machine, f"arn:aws:states:{REGION}:{ACCOUNT}:stateMachine:memo-executor")
    constructs = {
        "executor": stack.executor_workflow.executor,
        "responder": stack.executor_workflow.responder,
        "review_submit": stack.executor_workflow.review_submit,
        "reminders": stack.reminders.lambda_function,
    }
    for key, memo_function in constructs.items():
        name = FUNCTIONS[key][1]
        add(memo_function.function, function_arn(name), name)
    add(stack.reminders.scheduler_role, SCHEDULER_ROLE_ARN, "memo-reminders-scheduler")
    names.by_type["AWS::Logs::LogGroup"] = lambda logical_id: LocalResource(
        f"arn:aws:logs:{REGION}:{ACCOUNT}:log-group:{logical_id}", logical_id
    )
    return names


def policy_document(grants: frozenset[Grant]) -> str:
    """The grants as one policy, a statement per resource and condition."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for grant in sorted(grants):
        grouped.setdefault((grant.resource, grant.condition), []).append(grant.action)
    statements = []
    for (resource, condition), actions in sorted(grouped.items()):
        statement = Grant("", resource, condition).statement()
        statements.append({**statement, "Action": sorted(set(actions))})
    return json.dumps({"Version": "2012-10-17", "Statement": statements})


# --- credentials ----------------------------------------------------------------------------------


class RoleCredentials(Credentials):
    """The keys of the role whose handler runs in this context (`ROLE`); the stack's own outside."""

    def __init__(self, keys: Mapping[str, tuple[str, str]]) -> None:
        super().__init__(
            os.environ["AWS_ACCESS_KEY_ID"],
            os.environ["AWS_SECRET_ACCESS_KEY"],
            os.environ.get("AWS_SESSION_TOKEN"),
            method="iam-harness",
        )
        self._keys = keys

    def get_frozen_credentials(self) -> ReadOnlyCredentials:
        role = ROLE.get()
        if role is None:
            return super().get_frozen_credentials()
        key, secret = self._keys[role]
        return ReadOnlyCredentials(key, secret, None)


class RoleCredentialProvider(CredentialProvider):
    METHOD = "iam-harness"

    def __init__(self, keys: Mapping[str, tuple[str, str]]) -> None:
        super().__init__()
        self._keys = keys

    def load(self) -> Credentials:
        return RoleCredentials(self._keys)


def as_role(role: str, handler: Handler) -> Handler:
    def run(event: dict[str, Any], context: Any) -> Any:
        token = ROLE.set(role)
        try:
            return handler(event, context)
        finally:
            ROLE.reset(token)

    return run


def queue_depth(url: str) -> int:
    """The queue's messages, waiting or in flight (read as the stack)."""
    attributes = boto3.client("sqs", region_name=REGION).get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    )["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"]) + int(
        attributes["ApproximateNumberOfMessagesNotVisible"]
    )


def client_as(keys: tuple[str, str], service: str) -> Any:
    key, secret = keys
    session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret, region_name=REGION)
    return session.client(service)  # type: ignore[call-overload]


class EventSourceClient:
    """Lambda's event source mapping, with the consuming function's role. What IAM refuses it, it
    survives as the mapping does: a mapping whose creation could not read the queue, or that may not
    receive, delivers nothing; a message it may not delete stays in flight (and comes back). Making
    a failed record visible again at once is the local poller's shortcut (Lambda waits for the
    visibility timeout), so it stays the stack's own."""

    def __init__(self, role_sqs: Any, stack_sqs: Any, queue_url: str) -> None:
        self._role, self._stack, self.queue_url = role_sqs, stack_sqs, queue_url
        self.refused: list[str] = []

    def create(self) -> None:
        """What creating the mapping reads of the queue."""
        self._call("get_queue_attributes", QueueUrl=self.queue_url, AttributeNames=["All"])

    def receive_message(self, **request: Any) -> dict[str, Any]:
        if "get_queue_attributes" in self.refused:
            return {}
        return self._call("receive_message", **request) or {}

    def delete_message(self, **request: Any) -> None:
        self._call("delete_message", **request)

    def change_message_visibility(self, **request: Any) -> None:
        self._stack.change_message_visibility(**request)

    def _call(self, operation: str, **request: Any) -> Any:
        try:
            return getattr(self._role, operation)(**request)
        except ClientError:
            self.refused.append(operation)
            return None


# --- the stack ------------------------------------------------------------------------------------


class IamStack:
    """The local stack under IAM enforcement (see the module's docstring). `without` names grants
    (`Grant.key`) left out of a role's policy (the removed-grant tests); `environ` adds to the
    functions' environment."""

    def __init__(
        self,
        synthesized: Synthesized,
        *,
        clock: FakeClock,
        without: Mapping[str, Collection[str]] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.synthesized = synthesized
        self.clock = clock
        self._without = dict(without or {})
        self._environ = dict(environ or {})
        self.ledger = Ledger()
        self.keys: dict[str, tuple[str, str]] = {}
        self.grants: dict[str, frozenset[Grant]] = {}
        self._exit = ExitStack()
        self._clients: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()
        self.local: LocalStack

    def __enter__(self) -> IamStack:
        try:
            self._start()
        except BaseException:
            self._exit.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._exit.close()

    def _start(self) -> None:
        patch = self._exit.enter_context(_monkeypatch())
        patch.setenv("WHATSAPP_SECRET_ID", WHATSAPP_SECRET)
        patch.setenv("OPENAI_SECRET_ID", OPENAI_SECRET)
        patch.setenv("ESCALATION_TOPIC_ARN", f"arn:aws:sns:{REGION}:{ACCOUNT}:{ESCALATION_TOPIC}")
        patch.setenv("REMINDER_DEAD_LETTER_ARN", sqs_arn(SCHEDULE_DLQ))
        for key, value in self._environ.items():
            patch.setenv(key, value)
        self._run_as_roles(patch)
        self.local = self._exit.enter_context(LocalStack(start_poller=False, clock=self.clock))
        self._exit.callback(self._stop_executions)
        self._create_resources()
        self._create_users()
        self._consume_as_roles()
        self._exit.enter_context(enforced({key: role for role, (key, _) in self.keys.items()}, self.ledger))
        for mapping in self.mappings:  # created once IAM is enforced, as the functions' roles
            mapping.create()

    def _run_as_roles(self, patch: pytest.MonkeyPatch) -> None:
        """Every handler signs with its role; the engine and the Scheduler with theirs."""
        from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl
        from moto.stepfunctions.parser.asl.component.state.exec.state_task import lambda_eval_utils

        for name, (role, _) in FUNCTIONS.items():
            module = load_module(name)
            patch.setattr(module, "handler", as_role(role, module.handler))

        @lru_cache(maxsize=1)
        def session() -> boto3.session.Session:
            made = boto3.session.Session()
            resolver = made._session.get_component("credential_provider")
            resolver.insert_before("env", RoleCredentialProvider(self.keys))
            return made

        patch.setattr(memo.aws.clients, "session", session)
        patch.setattr(memo.aws.secrets, "SECRET_CACHE_SECONDS", 0)
        patch.setattr(lambda_eval_utils, "boto_client_for", self._state_machine_client)
        # A Retry's interval elapses at once: a refused call retried by the state machine fails its
        # flow in milliseconds, not in the definition's seconds of backoff.
        patch.setattr(retrier_decl, "time", SimpleNamespace(sleep=lambda _seconds: None))
        patch.setattr(memo.local.stack, "load_handler", self._handler_for_stack)

    def _stop_executions(self) -> None:
        """Executions still running (a step a flow left waiting for an operator) end with the stack:
        their threads would otherwise go on into the next test's stack."""
        stepfunctions = self.local.stepfunctions
        if stepfunctions is None:
            return
        running = stepfunctions.sfn.list_executions(
            stateMachineArn=stepfunctions.state_machine_arn, statusFilter="RUNNING"
        )["executions"]
        for execution in running:
            # An execution whose worker has not begun cannot be stopped by moto (AttributeError): it
            # finds the next stack refusing its role's keys (`enforced`).
            with suppress(ClientError, AttributeError):
                stepfunctions.sfn.stop_execution(executionArn=execution["executionArn"])

    def client(self, role: str, service: str) -> Any:
        """A client signing with `role`'s keys (one per role and service)."""
        with self._lock:
            if (role, service) not in self._clients:
                self._clients[role, service] = client_as(self.keys[role], service)
            return self._clients[role, service]

    def _state_machine_client(self, region: str, service: str, state_credentials: Any = None) -> Any:
        return self.client("state_machine", service)

    def _handler_for_stack(self, name: str) -> Handler:
        return self.scheduler_invoke if name == "reminders" else load_handler(name)

    def scheduler_invoke(self, event: dict[str, Any], context: Any) -> Any:
        """The Scheduler invoking its target; Lambda's asynchronous retries and on-failure destination."""
        client = self.client("scheduler", "lambda")
        for _ in range(ASYNC_ATTEMPTS):
            answer = client.invoke(FunctionName=function_arn("memo-reminders"), Payload=json.dumps(event))
            payload = json.loads(answer["Payload"].read() or "null")
            if "FunctionError" not in answer:
                return payload
        self.client("reminders", "sqs").send_message(
            QueueUrl=self.queue_url(self.reminders_dead_letters),
            MessageBody=json.dumps({"requestPayload": event, "responsePayload": payload}),
        )
        return None

    def _create_resources(self) -> None:
        """What the local stack does not create: the secrets, the topic, the reminders' queues, and
        the reminders function (its invocations run the handler as its role)."""
        secrets = boto3.client("secretsmanager", region_name=REGION)
        whatsapp = {
            k: LOCAL_DEFAULTS[f"WHATSAPP_{k.upper()}"] for k in ("app_secret", "verify_token", "access_token")
        }
        self.secret_arns = {
            WHATSAPP_SECRET: secrets.create_secret(Name=WHATSAPP_SECRET, SecretString=json.dumps(whatsapp))[
                "ARN"
            ],
            OPENAI_SECRET: secrets.create_secret(
                Name=OPENAI_SECRET, SecretString=json.dumps({"api_key": ""})
            )["ARN"],
        }
        boto3.client("sns", region_name=REGION).create_topic(Name=ESCALATION_TOPIC)
        sqs = boto3.client("sqs", region_name=REGION)
        for name in (REMINDERS_DLQ, SCHEDULE_DLQ):
            sqs.create_queue(QueueName=name)
        name = FUNCTIONS["reminders"][1]
        boto3.client("lambda", region_name=REGION).create_function(
            FunctionName=name,
            Runtime="python3.13",
            Role=LOCAL_FUNCTION_ROLE_ARN,
            Handler="handler.handler",
            Code={"ZipFile": b"in-process handler"},
        )
        assert self.local.stepfunctions is not None
        self.local.stepfunctions.dispatcher.register(name, load_module("reminders").handler)

    def _create_users(self) -> None:
        """One IAM user per role, with the role's policy (without the grants left out) and a key."""
        names = local_names(self.synthesized, self.secret_arns)
        granted = role_grants(self.synthesized, role_constructs(self.synthesized), names)
        self.grants = {
            role: frozenset(g for g in grants if g.key not in self._without.get(role, ()))
            for role, grants in granted.items()
        }
        iam = boto3.client("iam", region_name=REGION)
        for role in ROLES:
            iam.create_user(UserName=f"role-{role}")
            iam.put_user_policy(
                UserName=f"role-{role}", PolicyName="role", PolicyDocument=policy_document(self.grants[role])
            )
            key = iam.create_access_key(UserName=f"role-{role}")["AccessKey"]
            self.keys[role] = (key["AccessKeyId"], key["SecretAccessKey"])

    def _consume_as_roles(self) -> None:
        """The poller as the event source mappings: the webhook's and the review function's."""
        resources = self.local.resources
        assert resources is not None
        stack_sqs = boto3.client("sqs", region_name=REGION)
        turns = EventSourceClient(client_as(self.keys["webhook"], "sqs"), stack_sqs, resources.queue_url)
        withdrawals = EventSourceClient(
            client_as(self.keys["review"], "sqs"), stack_sqs, resources.withdrawal_queue_url
        )
        poller = FifoPoller(turns, resources.queue_url, resources.queue_arn, load_handler("webhook"))
        poller.add_source(
            QueueSource(
                withdrawals,
                resources.withdrawal_queue_url,
                resources.withdrawal_queue_arn,
                load_handler("review"),
            )
        )
        self.mappings = (turns, withdrawals)
        self.local.poller = poller

    # --- what a flow looks at, read as the stack (no role) ---

    reminders_dead_letters = sqs_arn(REMINDERS_DLQ)

    def schedules(self) -> list[dict[str, Any]]:
        scheduler = boto3.client("scheduler", region_name=REGION)
        names = [s["Name"] for s in scheduler.list_schedules(GroupName="memo-reminders")["Schedules"]]
        return [dict(scheduler.get_schedule(Name=name, GroupName="memo-reminders")) for name in names]

    @staticmethod
    def queue_url(arn: str) -> str:
        return f"https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/{arn.rsplit(':', 1)[-1]}"

    def queue_depth(self, arn: str) -> int:
        """Messages in the queue, waiting or in flight."""
        return queue_depth(self.queue_url(arn))

    @staticmethod
    def conversation_item(thread_id: str, prefix: str) -> list[dict[str, Any]]:
        """The thread's conversation items whose sort key starts with `prefix`."""
        return list(
            boto3.client("dynamodb", region_name=REGION).query(
                TableName=tables.CONVERSATION.default_name,
                KeyConditionExpression="pk = :pk AND begins_with(sk, :sk)",
                ExpressionAttributeValues={":pk": {"S": f"THREAD#{thread_id}"}, ":sk": {"S": prefix}},
            )["Items"]
        )

    def used(self) -> dict[str, set[Grant]]:
        """Role -> the grants of its policy that allowed at least one access."""
        found: dict[str, set[Grant]] = {}
        for role, access in list(self.ledger.allowed):
            for grant in self.grants[role]:
                if allowed([{"Statement": [grant.statement()]}], access):
                    found.setdefault(role, set()).add(grant)
        return found

    def denied(self, role: str | None = None) -> list[str]:
        """`action on resource` of every denied access (of `role`)."""
        return [f"{a.action} on {a.resource}" for r, a in self.ledger.denied if role in {None, r}]


@contextmanager
def _monkeypatch() -> Iterator[pytest.MonkeyPatch]:
    patch = pytest.MonkeyPatch()
    try:
        yield patch
    finally:
        patch.undo()
