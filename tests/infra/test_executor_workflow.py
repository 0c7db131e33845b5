"""The executor workflow construct, built in a small stack of its own (the lead composes the real one)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App, Duration, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk.assertions import Template
from cdk_nag import AwsSolutionsChecks

from infra.conversation_store import ConversationStore
from infra.executor_workflow import ASL_PATH, ExecutorWorkflow, executor_definition
from infra.lambdas import FunctionDefaults, SharedLayers
from infra.monitoring import Monitoring
from infra.secrets import AppSecrets
from memo.aws.scheduler import EventBridgeReminderScheduler
from memo.operator_review.policy import DEFAULT_POLICY
from memo.text.series import series

SCHEDULER_ROLE_ARN = "arn:aws:iam::123456789012:role/memo-reminders-scheduler"
REMINDERS_ARN = "arn:aws:lambda:us-east-1:123456789012:function:memo-reminders"
LAMBDA_TRANSIENT = {
    "Lambda.ServiceException",
    "Lambda.AWSLambdaException",
    "Lambda.SdkClientException",
    "Lambda.TooManyRequestsException",
}
LOG_ACTIONS = {"logs:CreateLogStream", "logs:PutLogEvents"}
XRAY_ACTIONS = {"xray:PutTraceSegments", "xray:PutTelemetryRecords"}


class Built:
    def __init__(
        self,
        outdir: Path,
        stack: Stack,
        workflow: ExecutorWorkflow,
        store: ConversationStore,
        secrets: AppSecrets,
    ) -> None:
        self.outdir = outdir
        self.stack = stack
        self.workflow = workflow
        self.store = store
        self.secrets = secrets
        self.template = Template.from_stack(stack)
        self.json: dict[str, Any] = self.template.to_json()

    def logical_id(self, construct: Any) -> str:
        return str(self.stack.resolve(construct.node.default_child.logical_id))

    def resources(self, kind: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.json["Resources"].items() if v["Type"] == kind}

    def statements(self, role: iam.IRole) -> list[dict[str, Any]]:
        role_id = self.logical_id(role)
        found: list[dict[str, Any]] = []
        for policy in self.resources("AWS::IAM::Policy").values():
            if {"Ref": role_id} in policy["Properties"]["Roles"]:
                found.extend(policy["Properties"]["PolicyDocument"]["Statement"])
        return found

    def actions(self, role: iam.IRole) -> set[str]:
        return {a for s in self.statements(role) for a in _as_list(s["Action"])}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    outdir = tmp_path_factory.mktemp("cdk.out.executor")
    app = App(context={"aws:cdk:bundling-stacks": []}, outdir=str(outdir))
    stack = Stack(app, "ExecutorWorkflowTest")
    store = ConversationStore(stack, "Store")
    secrets = AppSecrets(stack, "Secrets")
    monitoring = Monitoring(stack, "Monitoring")
    layers = SharedLayers(stack, "Layers")
    workflow = ExecutorWorkflow(
        stack,
        "Executor",
        defaults=FunctionDefaults(layers=layers.layers, log_retention=logs.RetentionDays.ONE_MONTH),
        store=store,
        whatsapp_secret=secrets.whatsapp,
        whatsapp_api_base_url="https://graph.example.test/v21.0",
        schedule_group_name="memo-reminders",
        scheduler_role=iam.Role.from_role_arn(stack, "SchedulerRole", SCHEDULER_ROLE_ARN),
        reminder_target=lambda_.Function.from_function_arn(stack, "Reminders", REMINDERS_ARN),
        alarm_topic=monitoring.topic,
    )
    app.synth()
    return Built(outdir, stack, workflow, store, secrets)


def machine(built: Built) -> dict[str, Any]:
    (resource,) = built.resources("AWS::StepFunctions::StateMachine").values()
    return dict(resource["Properties"])


def definition(built: Built) -> dict[str, Any]:
    """The definition as deployed: in the template, its `${...}` filled by DefinitionSubstitutions."""
    return dict(json.loads(machine(built)["DefinitionString"]))


def step_states(built: Built) -> dict[str, Any]:
    groups = definition(built)["States"]["RunGroups"]
    steps = groups["ItemProcessor"]["States"]["RunSteps"]
    return dict(steps["ItemProcessor"]["States"])


def test_the_deployed_definition_is_the_local_asl_file(built: Built) -> None:
    # With the default review policy, exactly the file the local runtime runs, timeout included.
    assert definition(built) == json.loads(Path(ASL_PATH).read_text())
    substitutions = machine(built)["DefinitionSubstitutions"]
    assert substitutions["ExecutorFunctionArn"] == {
        "Fn::GetAtt": [built.logical_id(built.workflow.executor.function), "Arn"]
    }
    assert substitutions["ResponderFunctionArn"] == {
        "Fn::GetAtt": [built.logical_id(built.workflow.responder.function), "Arn"]
    }
    assert substitutions["ReviewSubmitFunctionArn"] == {
        "Fn::GetAtt": [built.logical_id(built.workflow.review_submit.function), "Arn"]
    }


def test_standard_workflow_with_logging_and_tracing(built: Built) -> None:
    props = machine(built)
    assert props["StateMachineType"] == "STANDARD"
    assert props["TracingConfiguration"] == {"Enabled": True}
    logging = props["LoggingConfiguration"]
    assert logging["Level"] == "ALL" and logging["IncludeExecutionData"] is False
    log_group_id = built.logical_id(built.workflow.log_group)
    assert logging["Destinations"][0]["CloudWatchLogsLogGroup"]["LogGroupArn"] == {
        "Fn::GetAtt": [log_group_id, "Arn"]
    }
    assert built.json["Resources"][log_group_id]["Properties"]["RetentionInDays"] == 30


def test_groups_run_in_order_and_steps_of_a_group_in_parallel(built: Built) -> None:
    groups = definition(built)["States"]["RunGroups"]
    assert groups["Type"] == "Map" and groups["ItemsPath"] == "$.groups" and groups["MaxConcurrency"] == 1
    steps = groups["ItemProcessor"]["States"]["RunSteps"]
    assert steps["Type"] == "Map" and steps["MaxConcurrency"] != 1
    assert groups["Next"] == "Respond"


def test_each_step_retries_transient_lambda_errors_with_backoff_and_jitter(built: Built) -> None:
    task = step_states(built)["ExecuteStep"]
    assert task["Resource"] == "arn:aws:states:::lambda:invoke"
    assert task["Parameters"] == {"FunctionName": "${ExecutorFunctionArn}", "Payload.$": "$"}
    assert task["OutputPath"] == "$.Payload"
    retried = {error for retry in task["Retry"] for error in retry["ErrorEquals"]}
    assert retried >= LAMBDA_TRANSIENT | {"StepInProgress", "TransientStepFailure"}
    assert "States.ALL" not in retried  # a function error (a bug) is caught, never retried blindly
    for retry in task["Retry"]:
        assert retry["BackoffRate"] >= 2 and 1 <= retry["MaxAttempts"] <= 6 and retry["IntervalSeconds"] >= 1
    lambda_retries = [r for r in task["Retry"] if set(r["ErrorEquals"]) & LAMBDA_TRANSIENT]
    assert all(r["JitterStrategy"] == "FULL" for r in lambda_retries)


def test_a_failed_step_is_caught_into_a_failed_outcome(built: Built) -> None:
    states = step_states(built)
    (catch,) = states["ExecuteStep"]["Catch"]
    assert catch["ErrorEquals"] == ["States.ALL"] and catch["Next"] == "StepFailed"
    assert catch["ResultPath"] == "$.failure"  # keeps the step's own fields for the outcome
    failed = states["StepFailed"]
    assert failed["Type"] == "Pass" and failed["End"] is True
    assert failed["Parameters"]["step_id.$"] == "$.step_id"
    assert failed["Parameters"]["result"]["success"] is False
    assert failed["Parameters"]["result"]["error_code"] == "STEP_FAILED"
    assert failed["Parameters"]["result"]["error.$"] == "$.failure.Error"


def test_the_responder_gets_every_outcome_of_the_turn(built: Built) -> None:
    respond = definition(built)["States"]["Respond"]
    assert respond["Parameters"]["FunctionName"] == "${ResponderFunctionArn}"
    payload = respond["Parameters"]["Payload"]
    # The outcomes take the place of the groups: the steps' args never reach the responder.
    assert definition(built)["States"]["RunGroups"]["ResultPath"] == "$.groups"
    assert payload["outcomes.$"] == "$.groups[*][*]"
    assert {k.removesuffix(".$") for k in payload} == {
        "trace_id",
        "thread_id",
        "phone_number_id",
        "language",
        "timezone",
        "outcomes",
    }
    # Lambda's transient errors and the task's own timeout are retried: a re-run never replies twice
    # (the responder claims the turn's reply before it sends; tests/faults/test_responder_retries.py).
    retried = {error for retry in respond["Retry"] for error in retry["ErrorEquals"]}
    assert retried == LAMBDA_TRANSIENT | {"Lambda.EC2ThrottledException", "States.Timeout"}
    assert "States.ALL" not in retried and "States.TaskFailed" not in retried  # a bug is not retried
    for retry in respond["Retry"]:
        assert (
            retry["BackoffRate"] >= 2 and 1 <= retry["MaxAttempts"] <= 6 and retry["JitterStrategy"] == "FULL"
        )


def test_the_execution_times_out_in_its_definition_after_the_longest_review_wait(built: Built) -> None:
    """A definition given whole ignores the construct's `timeout`: the timeout is the definition's
    own TimeoutSeconds, the review policy's wait for an operator plus an hour of the execution's
    work, so an execution that outlives every wait is one that hung, and ExecutionsTimedOut alarms."""
    deployed = definition(built)
    assert deployed["TimeoutSeconds"] == DEFAULT_POLICY.timeout_seconds + 3600 == 90000
    await_review = step_states(built)["AwaitReview"]
    assert await_review["TimeoutSecondsPath"] == "$.review.timeout_seconds"  # the policy's wait
    assert DEFAULT_POLICY.timeout_seconds < deployed["TimeoutSeconds"] < 365 * 24 * 3600
    assert "TimeoutSeconds" not in {k for k in machine(built) if k != "DefinitionString"}


def test_a_longer_review_wait_gives_a_longer_timeout_up_to_step_functions_year() -> None:
    two_hours = executor_definition(Duration.hours(2))
    assert two_hours["TimeoutSeconds"] == 7200 + 3600
    assert {k: v for k, v in two_hours.items() if k != "TimeoutSeconds"} == {
        k: v for k, v in json.loads(Path(ASL_PATH).read_text()).items() if k != "TimeoutSeconds"
    }
    at_the_limit = executor_definition(Duration.seconds(365 * 24 * 3600 - 3600))
    assert at_the_limit["TimeoutSeconds"] == 365 * 24 * 3600
    with pytest.raises(ValueError, match="one year"):
        executor_definition(Duration.seconds(365 * 24 * 3600 - 3599))


def test_the_state_machine_log_group_is_named_for_this_stack_instance(built: Built) -> None:
    """Retained with the stack's logs: a fixed name would make a deployment after `cdk destroy` fail
    ("already exists"); the name ends with the stack's own id, new for every stack created."""
    log_group = built.json["Resources"][built.logical_id(built.workflow.log_group)]
    assert log_group["DeletionPolicy"] == "Retain"
    assert log_group["Properties"]["LogGroupName"] == {
        "Fn::Join": [
            "",
            [
                "/aws/vendedlogs/states/ExecutorWorkflowTest-executor-",
                {"Fn::Select": [2, {"Fn::Split": ["/", {"Ref": "AWS::StackId"}]}]},
            ],
        ]
    }


def test_executor_role_reaches_only_the_ledger_items_and_reminder_schedules(built: Built) -> None:
    role = built.workflow.executor.role
    assert (
        built.actions(role)
        == {
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
            "dynamodb:Query",
            "scheduler:CreateSchedule",
            "scheduler:UpdateSchedule",
            "scheduler:DeleteSchedule",
            "iam:PassRole",
        }
        | LOG_ACTIONS
        | XRAY_ACTIONS
    )
    statements = built.statements(role)
    ledger_id = built.logical_id(built.store.tables["LedgerTable"])
    items_id = built.logical_id(built.store.tables["ItemsTable"])
    dynamo_tables = {
        json.dumps(r)
        for s in statements
        if "dynamodb:GetItem" in _as_list(s["Action"])
        for r in _as_list(s["Resource"])
    }
    assert any(ledger_id in r for r in dynamo_tables) and any(items_id in r for r in dynamo_tables)
    assert all(ledger_id in r or items_id in r for r in dynamo_tables)
    ledger_statement = next(
        s for s in statements if any(ledger_id in json.dumps(r) for r in _as_list(s["Resource"]))
    )
    assert "dynamodb:Query" not in _as_list(ledger_statement["Action"])
    items_statement = next(
        s for s in statements if any(items_id in json.dumps(r) for r in _as_list(s["Resource"]))
    )
    # Every delete of a step on the items table is a tombstone (an UpdateItem), a run-out series too.
    assert "dynamodb:DeleteItem" not in _as_list(items_statement["Action"])
    (schedules,) = [s for s in statements if "scheduler:CreateSchedule" in _as_list(s["Action"])]
    assert ":schedule/memo-reminders/*" in json.dumps(schedules["Resource"])
    (pass_role,) = [s for s in statements if s["Action"] == "iam:PassRole"]
    assert pass_role["Resource"] == SCHEDULER_ROLE_ARN
    assert pass_role["Condition"] == {"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}}
    env = built.json["Resources"][built.logical_id(built.workflow.executor.function)]["Properties"][
        "Environment"
    ]["Variables"]
    assert env["REMINDER_SCHEDULE_GROUP"] == "memo-reminders"
    assert env["REMINDER_SCHEDULER_ROLE_ARN"] == SCHEDULER_ROLE_ARN
    assert env["REMINDER_TARGET_ARN"] == REMINDERS_ARN
    assert {"LEDGER_TABLE_NAME", "ITEMS_TABLE_NAME", "MEMO_STEP_LEASE_SECONDS"} <= set(env)


def test_responder_role_reaches_the_conversation_table_the_ledger_results_and_whatsapp_secret(
    built: Built,
) -> None:
    role = built.workflow.responder.role
    actions = built.actions(role)
    # The reply's claim, its latest actions (appended: an update) and its memory: no Scan, no
    # Query, no stream.
    assert {a for a in actions if a.startswith("dynamodb:")} == {
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "dynamodb:BatchWriteItem",
    }
    assert {a for a in actions if a.startswith("secretsmanager:")} == {"secretsmanager:GetSecretValue"}
    assert not {a for a in actions if a.startswith(("scheduler:", "iam:", "states:", "lambda:"))}
    statements = built.statements(role)
    # Nothing of the ledger: the steps' outcomes reach the responder in the execution.
    resources = json.dumps([s["Resource"] for s in statements])
    assert built.logical_id(built.store.tables["ConversationTable"]) in resources
    assert built.logical_id(built.secrets.whatsapp) in resources
    for other in ("LedgerTable", "ItemsTable", "CasesTable", "IdempotencyTable"):
        assert built.logical_id(built.store.tables[other]) not in resources
    assert built.logical_id(built.secrets.openai) not in resources


def test_state_machine_role_invokes_only_its_three_functions(built: Built) -> None:
    role = built.workflow.state_machine.role
    statements = built.statements(role)
    invoked = json.dumps(
        [s["Resource"] for s in statements if "lambda:InvokeFunction" in _as_list(s["Action"])]
    )
    functions = {
        built.logical_id(built.workflow.executor.function),
        built.logical_id(built.workflow.responder.function),
        built.logical_id(built.workflow.review_submit.function),
    }
    assert all(f in invoked for f in functions)
    # Each function as the definition invokes it (unqualified): no version or alias, nothing else.
    assert invoked.count("Fn::GetAtt") == 3 and ":*" not in invoked
    assert built.actions(role) - {"lambda:InvokeFunction"} <= {
        "logs:CreateLogDelivery",
        "logs:GetLogDelivery",
        "logs:UpdateLogDelivery",
        "logs:DeleteLogDelivery",
        "logs:ListLogDeliveries",
        "logs:PutResourcePolicy",
        "logs:DescribeResourcePolicies",
        "logs:DescribeLogGroups",
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
        "xray:GetSamplingRules",
        "xray:GetSamplingTargets",
    }


def test_failed_and_timed_out_executions_alarm(built: Built) -> None:
    alarms = {
        a["Properties"]["MetricName"]: a["Properties"]
        for a in built.resources("AWS::CloudWatch::Alarm").values()
    }
    machine_id = built.logical_id(built.workflow.state_machine)
    topic = {"Ref": built.logical_id(built.stack.node.find_child("Monitoring").node.find_child("AlarmTopic"))}
    for metric in ("ExecutionsFailed", "ExecutionsTimedOut"):
        alarm = alarms[metric]
        assert alarm["Namespace"] == "AWS/States"
        assert alarm["Dimensions"] == [{"Name": "StateMachineArn", "Value": {"Ref": machine_id}}]
        assert alarm["Threshold"] == 1 and alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
        assert alarm["AlarmActions"] == [topic]


def test_the_turn_gets_the_machine_arn_and_the_right_to_start_it(built: Built) -> None:
    grantee = iam.Role(built.stack, "Starter", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
    grant = built.workflow.grant_start(grantee)
    assert grant.success
    assert set(built.workflow.environment()) == {"EXECUTOR_STATE_MACHINE_ARN"}


def test_no_unacknowledged_cdk_nag_findings(built: Built) -> None:
    report = AwsSolutionsChecks().validate_scope(built.workflow)
    findings = [
        f"{violation.rule_name}: {[r.construct_path for r in violation.violating_resources]}"
        for violation in report.violations
    ]
    assert findings == []


def test_review_submit_may_write_only_review_token_keys_of_the_ledger(built: Built) -> None:
    statements = built.statements(built.workflow.review_submit.role)
    (ledger,) = [s for s in statements if _as_list(s["Action"]) == ["dynamodb:PutItem"]]
    assert ledger["Condition"] == {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["REVIEW#*"]}}
    assert not any("states:" in action for s in statements for action in _as_list(s["Action"]))


# --- repeating reminders ---------------------------------------------------------------------------
# Repeating reminders need no new permission: the executor's role from CDK (three schedule actions on
# the reminders' group, PassRole of the scheduler role to the Scheduler only) covers every call the
# EventBridge adapter makes for one recurring schedule: create, move (update) and delete.


GROUP = "memo-reminders"
NOW = datetime(2030, 1, 7, 7, 0, tzinfo=UTC)  # a Monday


class RecordingScheduler:
    """Records the Scheduler API calls (by IAM action name) and the parameters they carry."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        def call(**kwargs: Any) -> dict[str, Any]:
            action = "scheduler:" + "".join(part.capitalize() for part in name.split("_"))
            self.calls.append((action, kwargs))
            return {}

        return call


def _recurring_calls() -> RecordingScheduler:
    client = RecordingScheduler()
    adapter = EventBridgeReminderScheduler(
        client, group_name=GROUP, target_arn=REMINDERS_ARN, role_arn=SCHEDULER_ROLE_ARN
    )
    for rule in ("FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6", "FREQ=HOURLY;INTERVAL=2"):
        text = series(rule, NOW, "Asia/Jerusalem")
        assert text is not None
        adapter.schedule(
            reminder_id="r1", thread_id="972501234567", at=NOW, timezone="Asia/Jerusalem", recurrence=text
        )
    adapter.cancel("reminder-r1")
    return client


def test_recurring_schedules_use_only_what_the_executor_is_granted(built: Built) -> None:
    role = built.workflow.executor.role
    statements = built.statements(role)
    (schedules,) = [s for s in statements if "scheduler:CreateSchedule" in _as_list(s["Action"])]
    granted = set(_as_list(schedules["Action"]))
    assert granted == {"scheduler:CreateSchedule", "scheduler:UpdateSchedule", "scheduler:DeleteSchedule"}
    assert ":schedule/memo-reminders/*" in json.dumps(schedules["Resource"])  # the group's schedules only

    client = _recurring_calls()
    assert {action for action, _ in client.calls} <= granted
    assert all(kwargs["GroupName"] == GROUP for _, kwargs in client.calls)
    created = [kwargs for action, kwargs in client.calls if action == "scheduler:CreateSchedule"]
    assert [c["ScheduleExpression"] for c in created] == [
        "cron(0 9 * * ? *)",
        "cron(0 9 ? * MON,THU *)",
        "rate(2 hours)",
    ]
    assert all(c["ScheduleExpressionTimezone"] == "Asia/Jerusalem" and c["StartDate"] for c in created)
    assert "EndDate" in created[1] and "EndDate" not in created[0]  # a counted series ends
    # The one role passed is the scheduler role, which PassRole allows to the Scheduler only.
    assert {c["Target"]["RoleArn"] for c in created} == {SCHEDULER_ROLE_ARN}
    (pass_role,) = [s for s in statements if s["Action"] == "iam:PassRole"]
    assert pass_role["Resource"] == SCHEDULER_ROLE_ARN
    assert pass_role["Condition"] == {"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}}
    # No schedule-group or wildcard scheduler permission was needed for repeating reminders.
    every = {a for s in statements for a in _as_list(s["Action"])}
    assert not {a for a in every if a.startswith("scheduler:") and a not in granted}
