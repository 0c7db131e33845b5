"""The invocations of the deploy check: one WhatsApp user's reminder through every function, each
handler invoked with its trigger's event in its own execution environment, against the local AWS.

    webhook      GET /webhook (Meta's verification, the WebhookUrl output), POST /webhook (a signed
                 message), then the SQS FIFO batch of what it queued (the turn starts an execution)
    executor     each step of that execution's input (the state machine's task payload)
    responder    the Respond task's payload with the executor's outcomes (a reply to WhatsApp)
    reminders    the Scheduler target input of the schedule the executor created (the reminder)
    review_submit  the AwaitReview task's payload for the same step with a review ticket
    review       the page at the ReviewUrl output and at its route's own path, and the case list
                 through the JWT authorizer's claims
    escalation   each EventBridge rule's event (the hourly sweep, the daily drift check)

Each answer is checked the way its trigger would read it; the first failure of a step whose output
a later one needs ends the run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from memo.ingress.webhook import sign
from memo.local.ticker import due_time, target_event
from memo.local.whatsapp_user import WhatsAppUser
from tools.deploy_check import events
from tools.deploy_check.assembly import CloudAssembly, LambdaFunction
from tools.deploy_check.containers import Container, Invocation, Sandbox, lambda_environment
from tools.deploy_check.local_aws import ACCOUNT, CREDENTIALS, GENERATED_SECRET, REGION, LocalAccount

# Due within the reminders function's early tolerance: the Scheduler target delivers it when invoked.
USER_TEXT = "remind me to stretch in 1 minute"
CHALLENGE = "1158201444"
REVIEW_GROUP = "reviewers:memo_operation"
MAX_REDIRECTS = 3

Expectation = Callable[[Invocation], str | None]


class ScenarioFailed(RuntimeError):
    """A step whose output the next steps need did not succeed."""


@dataclass(frozen=True)
class Step:
    function: str
    what: str
    invocation: Invocation
    problem: str | None


def http_status(expected: int, body: str | None = None) -> Expectation:
    def check(invocation: Invocation) -> str | None:
        status = (invocation.response or {}).get("statusCode")
        if status != expected:
            return f"answered {status}, not {expected}: {str(invocation.response)[:300]}"
        if body is not None and invocation.response.get("body") != body:
            return f"answered {invocation.response.get('body')!r}, not {body!r}"
        return None

    return check


def no_batch_failures(invocation: Invocation) -> str | None:
    failures = (invocation.response or {}).get("batchItemFailures")
    return None if failures == [] else f"batchItemFailures: {failures!r}"


def step_succeeded(invocation: Invocation) -> str | None:
    result = (invocation.response or {}).get("result") or {}
    return None if result.get("success") else f"the step failed: {result}"


def answered(invocation: Invocation) -> str | None:
    return None


def field_is(name: str, expected: object) -> Expectation:
    def check(invocation: Invocation) -> str | None:
        value = (invocation.response or {}).get(name)
        return None if value == expected else f"{name} is {value!r}, not {expected!r}: {invocation.response}"

    return check


def has_field(name: str) -> Expectation:
    def check(invocation: Invocation) -> str | None:
        return None if (invocation.response or {}).get(name) else f"no {name} in {invocation.response}"

    return check


def lists_items(invocation: Invocation) -> str | None:
    problem = http_status(200)(invocation)
    if problem:
        return problem
    items = json.loads(invocation.response.get("body") or "{}").get("items")
    return None if items else f"the case list is empty: {invocation.response.get('body')}"


@dataclass
class Scenario:
    assembly: CloudAssembly
    account: LocalAccount
    sandboxes: Mapping[str, Sandbox]
    graph_base: str  # the Graph API sink's base URL (this machine)
    logs: Path
    xray_address: str
    steps: list[Step] = field(default_factory=list)
    containers: dict[str, Container] = field(default_factory=dict)
    user: WhatsAppUser = field(default_factory=lambda: WhatsAppUser(wa_id="972500000099"))

    # --- execution environments ---------------------------------------------------------------------

    def environment(self, function: LambdaFunction) -> dict[str, str]:
        """The function's own variables (the template's, resolved) and Lambda's; the Graph API points
        at the local sink and the AWS SDK at moto, the only two changes."""
        own = {k: str(v) for k, v in self.account.resolve(dict(function.environment)).items()}
        if "WHATSAPP_API_BASE_URL" in own:
            own["WHATSAPP_API_BASE_URL"] = (
                f"{self.graph_base}/graph/{own['WHATSAPP_API_BASE_URL'].rsplit('/', 1)[1]}"
            )
        log_group = str(self.account.resolve(function.log_group)) if function.log_group else ""
        lambda_env = lambda_environment(
            function,
            physical_name=self.account.attributes[function.logical_id]["Ref"],
            region=REGION,
            sandbox=self.sandboxes[function.name],
            log_group=log_group,
        )
        host, _, port = self.xray_address.partition(":")
        local = {
            **CREDENTIALS,
            "AWS_ENDPOINT_URL": self.account.endpoint,
            "AWS_XRAY_DAEMON_ADDRESS": self.xray_address,
            "_AWS_XRAY_DAEMON_ADDRESS": host,
            "_AWS_XRAY_DAEMON_PORT": port,
        }
        return {**own, **lambda_env, **local}

    def container(self, name: str) -> Container:
        if name not in self.containers:
            function = self.assembly.function(name)
            container = Container(
                function, self.sandboxes[name], self.environment(function), self.logs / f"{name}.log"
            )
            init = container.start(self.account.attributes[function.logical_id]["Arn"])
            self.containers[name] = container
            if init.get("error"):
                raise ScenarioFailed(f"{name}: the handler does not import: {init['error']}")
        return self.containers[name]

    def call(self, name: str, what: str, event: Mapping[str, Any], expect: Expectation) -> Invocation:
        invocation = self.container(name).invoke(event)
        problem = invocation.summary() if not invocation.ok else expect(invocation)
        self.steps.append(Step(name, what, invocation, problem))
        return invocation

    def must(self, name: str, what: str, event: Mapping[str, Any], expect: Expectation) -> Invocation:
        invocation = self.call(name, what, event, expect)
        if self.steps[-1].problem:
            raise ScenarioFailed(f"{name} {what}: {self.steps[-1].problem}")
        return invocation

    def stop(self) -> None:
        for container in self.containers.values():
            container.stop()

    # --- the run -------------------------------------------------------------------------------------

    def run(self) -> list[Step]:
        try:
            self.webhook_verification()
            self.webhook_message()
            execution = self.turn()
            task, outcomes = self.execute(execution)
            self.respond(execution, outcomes)
            self.reminder()
            self.review_submit(task)
            self.review()
            self.escalation()
        except ScenarioFailed as failure:
            self.steps.append(Step("-", "stopped", Invocation(False, None, None, 0.0), str(failure)))
        return self.steps

    def http(self, function: str, method: str, path: str, expect: Expectation, **request: Any) -> Invocation:
        """A request through the template's routes: the route must exist and invoke `function`;
        a redirect is followed as a browser would."""
        found = events.routes(self.assembly.template)
        logical_id = self.assembly.function(function).logical_id
        for _ in range(MAX_REDIRECTS + 1):
            route = events.route_for(found, method, path)
            if route is None or route.function != logical_id:
                missing = Invocation(False, None, {"errorType": "NoRoute"}, 0.0)
                problem = (
                    f"no route of the template sends {method} {path} to {function}: API Gateway answers 404"
                )
                self.steps.append(Step(function, f"{method} {path}", missing, problem))
                return missing
            invocation = self.call(
                function, f"{method} {path}", events.request_event(route, method, path, **request), expect
            )
            location = events.redirect_path(invocation.response or {}) if invocation.ok else None
            if location is None:
                return invocation
            self.steps[-1] = Step(function, f"{method} {path} -> {location}", invocation, None)
            method, path = "GET", location
        raise ScenarioFailed(f"{function}: more than {MAX_REDIRECTS} redirects from {path}")

    def output_path(self, name: str) -> str:
        return urlsplit(str(self.account.resolve(self.assembly.template["Outputs"][name]["Value"]))).path

    def webhook_verification(self) -> None:
        query = f"hub.mode=subscribe&hub.verify_token={GENERATED_SECRET}&hub.challenge={CHALLENGE}"
        self.http("webhook", "GET", self.output_path("WebhookUrl"), http_status(200, CHALLENGE), query=query)

    def webhook_message(self) -> None:
        secret = next(value for value in self.account.secrets.values() if "app_secret" in value)
        body = json.dumps(self.user.payload(self.user.text(USER_TEXT))).encode()
        headers = {
            "Content-Type": "application/json",
            "X-Hub-Signature-256": sign(body, secret["app_secret"]),
        }
        invocation = self.http(
            "webhook", "POST", self.output_path("WebhookUrl"), http_status(200), headers=headers, body=body
        )
        if self.steps[-1].problem:
            raise ScenarioFailed(f"webhook POST: {self.steps[-1].problem} ({invocation.summary()})")

    def turn(self) -> dict[str, Any]:
        """The SQS batch of the queued message; returns the input of the execution the turn started."""
        queue = self.account.resolve({"Ref": self.queue_id()})
        sqs = self.account.client("sqs")
        received = sqs.receive_message(
            QueueUrl=queue,
            MaxNumberOfMessages=10,
            AttributeNames=["All"],
            MessageSystemAttributeNames=["All"],
        ).get("Messages", [])
        if not received:
            raise ScenarioFailed("the webhook queued nothing")
        arn = self.account.resolve({"Fn::GetAtt": [self.queue_id(), "Arn"]})
        self.must("webhook", "SQS FIFO batch", events.sqs_records(received, arn, REGION), no_batch_failures)
        sfn = self.account.client("stepfunctions")
        machine = self.account.resolve({"Ref": self.state_machine_id()})
        executions = sfn.list_executions(stateMachineArn=machine)["executions"]
        if not executions:
            raise ScenarioFailed("the turn started no execution of the state machine")
        described = sfn.describe_execution(executionArn=executions[0]["executionArn"])
        execution_input: dict[str, Any] = json.loads(described["input"])
        return execution_input

    def queue_id(self) -> str:
        function = self.assembly.function("webhook")
        return str(function.environment["TURN_QUEUE_URL"]["Ref"])

    def state_machine_id(self) -> str:
        return str(self.assembly.function("webhook").environment["EXECUTOR_STATE_MACHINE_ARN"]["Ref"])

    def execute(self, execution_input: Mapping[str, Any]) -> tuple[dict[str, Any], list[Any]]:
        """Every step of the execution, group by group, as the ExecuteStep task's payload."""
        outcomes, first = [], None
        for group in execution_input["groups"]:
            for task in group:
                first = first or task
                outcomes.append(
                    self.must(
                        "executor", f"step {task['capability']}.{task['action']}", task, step_succeeded
                    ).response
                )
        if first is None:
            raise ScenarioFailed("the execution has no step")
        return first, outcomes

    def respond(self, execution_input: Mapping[str, Any], outcomes: list[Any]) -> None:
        self.must(
            "responder",
            "Respond task",
            events.responder_event(execution_input, outcomes),
            field_is("sent", True),
        )

    def reminder(self) -> None:
        scheduler = self.account.client("scheduler")
        group = str(self.assembly.function("executor").environment["REMINDER_SCHEDULE_GROUP"])
        schedules = scheduler.list_schedules(GroupName=group)["Schedules"]
        if not schedules:
            raise ScenarioFailed("the executor created no schedule")
        schedule = scheduler.get_schedule(GroupName=group, Name=schedules[0]["Name"])
        when = due_time(schedule["ScheduleExpression"], schedule.get("ScheduleExpressionTimezone"))
        if when is None:
            raise ScenarioFailed(f"the executor's schedule is not one-time: {schedule['ScheduleExpression']}")
        event = target_event(schedule, when)  # its scheduled time filled in, as the Scheduler does
        self.must("reminders", "Scheduler target input", event, field_is("outcome", "sent"))

    def review_submit(self, task: Mapping[str, Any]) -> None:
        self.must(
            "review_submit", "AwaitReview task", events.review_submit_event(task, 86400), has_field("case_id")
        )

    def review(self) -> None:
        page = self.output_path("ReviewUrl")
        self.http("review", "GET", page, http_status(200))
        route_path = next(
            (r.path for r in events.routes(self.assembly.template) if r.path.rstrip("/") == page.rstrip("/")),
            None,
        )
        if route_path is not None and route_path != page:
            self.http("review", "GET", route_path, http_status(200))
        claims = events.reviewer_claims(REVIEW_GROUP)
        self.http(
            "review",
            "GET",
            "/review/cases",
            http_status(200),
            query="adapter_id=memo_operation",
            claims=claims,
        )

    def escalation(self) -> None:
        function = self.assembly.function("escalation")
        for event in events.rule_events(self.assembly.template, function.logical_id, ACCOUNT, REGION):
            self.call("escalation", f"EventBridge rule {json.dumps(event)[:40]}", event, answered)
