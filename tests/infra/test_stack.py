"""The synthesized Memo stack: how its constructs are wired, checked resource by resource."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk import App, CfnElement
from aws_cdk.assertions import Template

from infra.application import STACK_NAME
from infra.review import TASK_TOKEN_ACTIONS
from infra.settings import BUNDLING_STACKS_CONTEXT_KEY, SettingsError, StackSettings
from infra.stack import MemoStack
from memo import tables
from memo.settings import (
    SCHEDULE_GROUP_ENV_VAR,
    SCHEDULE_ROLE_ENV_VAR,
    SCHEDULE_TARGET_ENV_VAR,
    AwsSettings,
    LlmSettings,
    ScheduleDeliverySettings,
    WebhookSettings,
    WhatsAppSettings,
)

from .conftest import OVERRIDES, Synthesized
from .template_queries import (
    actions_by_resource,
    alarms_by_metric,
    arn,
    as_list,
    only,
    queue_and_dead_letter_queue,
    ref,
    role_statements,
)

WEBHOOK_ENV = {
    "CONVERSATION_TABLE_NAME",
    "IDEMPOTENCY_TABLE_NAME",
    "ITEMS_TABLE_NAME",
    "CASES_TABLE_NAME",
    "REVIEW_WITHDRAWAL_QUEUE_URL",  # a user's withdrawal, to the review function
    "EXECUTOR_STATE_MACHINE_ARN",
    "TURN_QUEUE_URL",
    "MEMO_TURN_MAX_RECEIVES",
    "WHATSAPP_SECRET_ID",
    "OPENAI_SECRET_ID",
    "WHATSAPP_API_BASE_URL",
    "MEMO_PLANNER_MODEL",
    "MEMO_INTERPRETER_MODEL",
    "HITL_TTL_SECONDS",
    "HITL_REDACT",  # a user's answer to an operator is stored with contacts masked
    "MEMO_DEFAULT_TIMEZONE",
    # A changed number re-points reminder schedules; a failed reminder is retried as its template.
    "REMINDER_SCHEDULE_GROUP",
    "REMINDER_TARGET_ARN",
    "REMINDER_SCHEDULER_ROLE_ARN",
    # A moved schedule is written whole: its target's retry policy and dead-letter queue too.
    "REMINDER_DEAD_LETTER_ARN",
    "REMINDER_RETRY_ATTEMPTS",
    "REMINDER_MAX_EVENT_AGE_SECONDS",
    "WHATSAPP_REMINDER_TEMPLATE",
    "WHATSAPP_REMINDER_TEMPLATE_LANGUAGES",
    "POWERTOOLS_SERVICE_NAME",
    "POWERTOOLS_METRICS_NAMESPACE",
    "LOG_LEVEL",
}
# What the turn calls on the conversation table (item by item: no Scan, no batch, no stream).
CONVERSATION_TABLE_ACTIONS = {
    "dynamodb:Query",
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
}
# The idempotency record is read, and written whole: never updated or deleted.
IDEMPOTENCY_TABLE_ACTIONS = {"dynamodb:GetItem", "dynamodb:PutItem"}
# The ingress sends; Lambda's event source mapping receives and deletes with the consumer's role.
QUEUE_ACTIONS = {
    "sqs:SendMessage",
    "sqs:ReceiveMessage",
    "sqs:DeleteMessage",
    "sqs:GetQueueAttributes",
}
# Entity resolution reads the user's items; the turn writes them only to follow WhatsApp events (a
# changed number moves them, a failed reminder delivery is marked on its item); plans write through
# the executor alone.
WEBHOOK_ITEMS_ACTIONS = {
    "dynamodb:GetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
}
# The case store (infra/case_platform.py): the webhook records users' answers to operators' questions
# and withdrawals; it registers no schema (no UpdateItem) and deletes nothing.
CASE_STORE_ACTIONS = {
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:Query",
}
SECRET_ACTIONS = {"secretsmanager:GetSecretValue"}
LOG_ACTIONS = {"logs:CreateLogStream", "logs:PutLogEvents"}
XRAY_ACTIONS = {"xray:PutTraceSegments", "xray:PutTelemetryRecords"}
# What a state machine with logging and tracing needs on Resource '*' (no resource-level permissions).
STATE_MACHINE_WILDCARD_ACTIONS = {
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


def _executor_schedules_arn(synth: Synthesized) -> Any:
    """The schedules the executor may create (the reminders' group), as the template writes it."""
    executor = synth.logical_id(synth.stack.executor_workflow.executor.role)
    (arn,) = {
        json.dumps(statement["Resource"], sort_keys=True)
        for statement in role_statements(synth, executor)
        if "scheduler:CreateSchedule" in as_list(statement["Action"])
    }
    return json.loads(arn)


# --- Lambda ------------------------------------------------------------------------------------------


def test_webhook_function_runtime_architecture_tracing_and_logging(synthesized: Synthesized) -> None:
    function_id = synthesized.logical_id(synthesized.stack.webhook.function)
    props = synthesized.template_json["Resources"][function_id]["Properties"]
    assert props["Runtime"] in {"python3.12", "python3.13"}
    assert props["Architectures"] == ["arm64"]
    assert props["TracingConfig"] == {"Mode": "Active"}
    assert props["Handler"] == "handler.handler"
    assert props["LoggingConfig"]["LogFormat"] == "JSON"
    assert props["LoggingConfig"]["ApplicationLogLevel"] == "INFO"
    log_group_id = props["LoggingConfig"]["LogGroup"]["Ref"]
    assert synthesized.template_json["Resources"][log_group_id]["Properties"]["RetentionInDays"] == 30
    assert "ReservedConcurrentExecutions" not in props  # a new account has no concurrency to reserve
    # The turn path's visibility timeout is six times the function timeout (SQS's recommendation).
    _, queue = queue_and_dead_letter_queue(synthesized)[0]
    assert queue["Properties"]["VisibilityTimeout"] == 6 * props["Timeout"]


def test_webhook_function_uses_the_code_layer_and_the_dependencies_layer(synthesized: Synthesized) -> None:
    function_id = synthesized.logical_id(synthesized.stack.webhook.function)
    layers = synthesized.template_json["Resources"][function_id]["Properties"]["Layers"]
    layer_ids = {
        synthesized.logical_id(synthesized.stack.layers.code),
        synthesized.logical_id(synthesized.stack.layers.dependencies),
    }
    assert {layer["Ref"] for layer in layers} == layer_ids
    for layer_id in layer_ids:
        layer = synthesized.template_json["Resources"][layer_id]["Properties"]
        assert layer["CompatibleRuntimes"] == ["python3.13"]
        assert layer["CompatibleArchitectures"] == ["arm64"]


def test_webhook_environment(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    function_id = synthesized.logical_id(stack.webhook.function)
    env = synthesized.template_json["Resources"][function_id]["Properties"]["Environment"]["Variables"]
    assert set(env) == WEBHOOK_ENV
    assert env["CONVERSATION_TABLE_NAME"] == ref(
        synthesized.logical_id(stack.store.table(tables.CONVERSATION))
    )
    assert env["IDEMPOTENCY_TABLE_NAME"] == ref(synthesized.logical_id(stack.store.table(tables.IDEMPOTENCY)))
    assert env["ITEMS_TABLE_NAME"] == ref(synthesized.logical_id(stack.store.table(tables.ITEMS)))
    assert env["CASES_TABLE_NAME"] == ref(synthesized.logical_id(stack.store.table(tables.CASES)))
    assert env["EXECUTOR_STATE_MACHINE_ARN"] == ref(
        synthesized.logical_id(stack.executor_workflow.state_machine)
    )
    assert env["TURN_QUEUE_URL"] == ref(synthesized.logical_id(stack.turn_queue.queue))
    # The last receive of a failing turn answers: the webhook's count is the queue's own.
    assert env["MEMO_TURN_MAX_RECEIVES"] == str(stack.turn_queue.max_receive_count) == "5"
    assert env["WHATSAPP_SECRET_ID"] == ref(synthesized.logical_id(stack.secrets.whatsapp))
    assert env["OPENAI_SECRET_ID"] == ref(synthesized.logical_id(stack.secrets.openai))
    assert env["WHATSAPP_API_BASE_URL"] == "https://graph.facebook.com/v21.0"
    assert env["HITL_TTL_SECONDS"] == "300"
    assert env["MEMO_DEFAULT_TIMEZONE"] == "UTC"
    assert env["POWERTOOLS_SERVICE_NAME"] == "memo-webhook"
    assert env["POWERTOOLS_METRICS_NAMESPACE"] == "Memo"


def test_webhook_environment_names_are_read_by_the_webhook_settings() -> None:
    """Every configuration name the stack sets is one `memo.settings` reads (no silent typos)."""
    known = {
        field.alias
        for model in (WebhookSettings, AwsSettings, WhatsAppSettings, LlmSettings, ScheduleDeliverySettings)
        for field in model.model_fields.values()
        if field.alias
    }
    powertools = {"POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE", "LOG_LEVEL"}
    assert WEBHOOK_ENV - powertools <= known
    # The two names the turn path needs to resolve entities and start the executor.
    webhook_own = {field.alias for field in WebhookSettings.model_fields.values()}
    assert {"ITEMS_TABLE_NAME", "EXECUTOR_STATE_MACHINE_ARN"} <= webhook_own


def test_context_settings_reach_the_template(variant: Synthesized) -> None:
    function_id = variant.logical_id(variant.stack.webhook.function)
    props = variant.template_json["Resources"][function_id]["Properties"]
    env = props["Environment"]["Variables"]
    assert env["WHATSAPP_API_BASE_URL"] == OVERRIDES["whatsapp_api_base_url"]
    assert env["MEMO_PLANNER_MODEL"] == "planner-x"
    assert env["MEMO_INTERPRETER_MODEL"] == "interpreter-y"
    assert env["HITL_TTL_SECONDS"] == "600"
    assert env["MEMO_DEFAULT_TIMEZONE"] == "Asia/Jerusalem"
    assert env["LOG_LEVEL"] == "DEBUG"
    assert props["LoggingConfig"]["ApplicationLogLevel"] == "DEBUG"
    assert props["ReservedConcurrentExecutions"] == 20
    for log_group in variant.resources("AWS::Logs::LogGroup").values():
        assert log_group["Properties"]["RetentionInDays"] == 90
    turn_queue = arn(variant.logical_id(variant.stack.turn_queue.queue))
    mappings = variant.resources("AWS::Lambda::EventSourceMapping")
    _, mapping = only({k: m for k, m in mappings.items() if m["Properties"]["EventSourceArn"] == turn_queue})
    assert mapping["Properties"]["BatchSize"] == 3
    assert mapping["Properties"]["ScalingConfig"] == {"MaximumConcurrency": 5}
    _, stage = only(variant.resources("AWS::ApiGatewayV2::Stage"))
    assert stage["Properties"]["DefaultRouteSettings"] == {
        "ThrottlingBurstLimit": 9,
        "ThrottlingRateLimit": 7,
    }
    variant.template.has_resource_properties(
        "AWS::SNS::Subscription", {"Protocol": "email", "Endpoint": "ops@example.test"}
    )


# --- IAM ---------------------------------------------------------------------------------------------


def test_webhook_role_has_exactly_the_permissions_it_needs(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    role_id = synthesized.logical_id(stack.webhook.role)
    role = synthesized.template_json["Resources"][role_id]["Properties"]
    assert "ManagedPolicyArns" not in role
    assert role["AssumeRolePolicyDocument"]["Statement"][0]["Principal"] == {
        "Service": "lambda.amazonaws.com"
    }

    by_resource = actions_by_resource(role_statements(synthesized, role_id))
    cases_arn = arn(synthesized.logical_id(stack.store.table(tables.CASES)))
    key = lambda value: json.dumps(value, sort_keys=True)  # noqa: E731
    expected = {
        key(arn(synthesized.logical_id(stack.webhook.log_group))): LOG_ACTIONS,
        key("*"): XRAY_ACTIONS,  # no task token: a withdrawal goes to the review function's queue
        key(arn(synthesized.logical_id(stack.review.withdrawals))): {"sqs:SendMessage"},
        key(arn(synthesized.logical_id(stack.store.table(tables.CONVERSATION)))): CONVERSATION_TABLE_ACTIONS,
        key(arn(synthesized.logical_id(stack.store.table(tables.IDEMPOTENCY)))): IDEMPOTENCY_TABLE_ACTIONS,
        key(arn(synthesized.logical_id(stack.store.table(tables.ITEMS)))): WEBHOOK_ITEMS_ACTIONS,
        key(cases_arn): CASE_STORE_ACTIONS,
        # A step's case by its ref (a withdrawal): the one index the turn queries.
        key({"Fn::Join": ["", [cases_arn, "/index/GSI1"]]}): {"dynamodb:Query"},
        key(ref(synthesized.logical_id(stack.executor_workflow.state_machine))): {"states:StartExecution"},
        key(arn(synthesized.logical_id(stack.turn_queue.queue))): QUEUE_ACTIONS,
        key(ref(synthesized.logical_id(stack.secrets.whatsapp))): SECRET_ACTIONS,
        key(ref(synthesized.logical_id(stack.secrets.openai))): SECRET_ACTIONS,
        # A changed number re-points the user's schedules (the reminders' group only).
        key(_executor_schedules_arn(synthesized)): {"scheduler:CreateSchedule", "scheduler:UpdateSchedule"},
        key(arn(synthesized.logical_id(stack.reminders.scheduler_role))): {"iam:PassRole"},
    }
    assert by_resource == expected


def test_no_policy_in_the_stack_allows_a_wildcard_action(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    state_machine_role = ref(synthesized.logical_id(stack.executor_workflow.state_machine.role))
    review_role = ref(synthesized.logical_id(stack.review.function.role))
    for policy_id, policy in synthesized.resources("AWS::IAM::Policy").items():
        # Only the state machine's role also needs log delivery and X-Ray sampling on Resource '*', and
        # only the review role answers task tokens (no resource-level permissions either).
        allowed_on_any = XRAY_ACTIONS
        if policy["Properties"]["Roles"] == [state_machine_role]:
            allowed_on_any = STATE_MACHINE_WILDCARD_ACTIONS
        elif policy["Properties"]["Roles"] == [review_role]:
            allowed_on_any = XRAY_ACTIONS | set(TASK_TOKEN_ACTIONS)
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            for action in as_list(statement["Action"]):
                assert "*" not in action, f"{policy_id}: {action}"
            if "*" in as_list(statement["Resource"]):
                assert set(as_list(statement["Action"])) <= allowed_on_any, f"{policy_id}: {statement}"
    for role_id, role in synthesized.resources("AWS::IAM::Role").items():
        assert "ManagedPolicyArns" not in role["Properties"], role_id


def test_webhook_role_cannot_touch_tables_it_does_not_use(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    role_id = synthesized.logical_id(stack.webhook.role)
    granted = json.dumps(role_statements(synthesized, role_id))
    for spec in tables.ALL_TABLES:
        if spec not in (tables.CONVERSATION, tables.IDEMPOTENCY, tables.ITEMS, tables.CASES):
            assert synthesized.logical_id(stack.store.table(spec)) not in granted, spec.logical_id
    # Not even the ledger's REVIEW# items: the webhook never sees a task token.
    assert synthesized.logical_id(stack.store.table(tables.LEDGER)) not in granted


def test_webhook_role_writes_items_only_item_by_item(synthesized: Synthesized) -> None:
    """The items table (and any index of it): the webhook reads with GetItem and Query and writes one
    item at a time (a changed number, a failed delivery); never a Scan or a batch."""
    stack = synthesized.stack
    items_id = synthesized.logical_id(stack.store.table(tables.ITEMS))
    on_items = set()
    for statement in role_statements(synthesized, synthesized.logical_id(stack.webhook.role)):
        if items_id in json.dumps(statement["Resource"]):
            on_items.update(as_list(statement["Action"]))
    assert on_items == WEBHOOK_ITEMS_ACTIONS


# --- Executor workflow and reminders --------------------------------------------------------------


def _state_machine(synth: Synthesized) -> tuple[str, dict[str, Any]]:
    state_machine_id, state_machine = only(synth.resources("AWS::StepFunctions::StateMachine"))
    assert state_machine_id == synth.logical_id(synth.stack.executor_workflow.state_machine)
    return state_machine_id, state_machine["Properties"]


def test_state_machine_is_standard_with_logging_and_tracing(synthesized: Synthesized) -> None:
    workflow = synthesized.stack.executor_workflow
    _, props = _state_machine(synthesized)
    assert props["StateMachineType"] == "STANDARD"
    assert props["TracingConfiguration"] == {"Enabled": True}
    log_group_id = synthesized.logical_id(workflow.log_group)
    assert props["LoggingConfiguration"] == {
        "Destinations": [{"CloudWatchLogsLogGroup": {"LogGroupArn": arn(log_group_id)}}],
        "IncludeExecutionData": False,  # the execution input holds the user's words
        "Level": "ALL",
    }
    assert synthesized.template_json["Resources"][log_group_id]["Properties"]["RetentionInDays"] == 30
    # The deployed ASL's tasks are the stack's executor and responder functions.
    assert props["DefinitionSubstitutions"] == {
        "ExecutorFunctionArn": arn(synthesized.logical_id(workflow.executor.function)),
        "ResponderFunctionArn": arn(synthesized.logical_id(workflow.responder.function)),
        "ReviewSubmitFunctionArn": arn(synthesized.logical_id(workflow.review_submit.function)),
    }


def _statements_with_action_prefix(synth: Synthesized, prefix: str) -> dict[str, list[dict[str, Any]]]:
    """Statements granting any action starting with `prefix`, by the policy's role logical ids."""
    found: dict[str, list[dict[str, Any]]] = {}
    for policy in synth.resources("AWS::IAM::Policy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            if any(action.startswith(prefix) for action in as_list(statement["Action"])):
                for role in policy["Properties"]["Roles"]:
                    found.setdefault(role["Ref"], []).append(statement)
    for role_id, role in synth.resources("AWS::IAM::Role").items():
        for inline in role["Properties"].get("Policies", []):
            for statement in inline["PolicyDocument"]["Statement"]:
                if any(action.startswith(prefix) for action in as_list(statement["Action"])):
                    found.setdefault(role_id, []).append(statement)
    return found


def test_only_the_webhook_may_start_executions_and_only_the_review_function_answers_tasks(
    synthesized: Synthesized,
) -> None:
    stack = synthesized.stack
    state_machine_id = synthesized.logical_id(stack.executor_workflow.state_machine)
    granted = {
        role_id: {
            (action, json.dumps(statement["Resource"], sort_keys=True))
            for statement in statements
            for action in as_list(statement["Action"])
            if action.startswith("states:")
        }
        for role_id, statements in _statements_with_action_prefix(synthesized, "states:").items()
    }
    assert granted == {
        # Starting its plan, nothing more: a withdrawal's task token is answered by the review function.
        synthesized.logical_id(stack.webhook.role): {
            ("states:StartExecution", json.dumps(ref(state_machine_id), sort_keys=True)),
        },
        # A task token names no resource: IAM allows these two on '*' only (see infra/review.py).
        synthesized.logical_id(stack.review.function.role): {
            (action, '"*"') for action in TASK_TOKEN_ACTIONS
        },
    }


def test_scheduler_role_may_only_invoke_the_reminders_function(synthesized: Synthesized) -> None:
    reminders = synthesized.stack.reminders
    role_id = synthesized.logical_id(reminders.scheduler_role)
    group_id = synthesized.logical_id(reminders.group)
    role = synthesized.template_json["Resources"][role_id]["Properties"]
    assert "Policies" not in role
    assert role["AssumeRolePolicyDocument"]["Statement"] == [
        {
            "Action": "sts:AssumeRole",
            "Effect": "Allow",
            "Principal": {"Service": "scheduler.amazonaws.com"},
            "Condition": {
                "StringEquals": {"aws:SourceAccount": ref("AWS::AccountId")},
                "ArnEquals": {"aws:SourceArn": arn(group_id)},
            },
        }
    ]
    assert role_statements(synthesized, role_id) == [
        {
            "Action": "lambda:InvokeFunction",
            "Effect": "Allow",
            "Resource": arn(synthesized.logical_id(reminders.function)),
        },
        {
            "Action": "sqs:SendMessage",
            "Effect": "Allow",
            "Resource": arn(synthesized.logical_id(reminders.schedule_dead_letter_queue)),
        },
    ]
    # No other role of the stack can be assumed by the Scheduler.
    scheduler_roles = [
        rid
        for rid, r in synthesized.resources("AWS::IAM::Role").items()
        if any(
            s["Principal"].get("Service") == "scheduler.amazonaws.com"
            for s in r["Properties"]["AssumeRolePolicyDocument"]["Statement"]
        )
    ]
    assert scheduler_roles == [role_id]


def test_only_the_executor_and_the_webhook_may_pass_the_scheduler_role_and_only_to_the_scheduler(
    synthesized: Synthesized,
) -> None:
    """The executor schedules reminders; the webhook re-points them when a user changes number; the
    reminders function only deletes the schedule that fired for a deleted reminder (no PassRole)."""
    stack = synthesized.stack
    scheduler_role_arn = arn(synthesized.logical_id(stack.reminders.scheduler_role))
    pass_role = [
        {
            "Action": "iam:PassRole",
            "Effect": "Allow",
            "Resource": scheduler_role_arn,
            "Condition": {"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}},
        }
    ]
    executor = synthesized.logical_id(stack.executor_workflow.executor.role)
    webhook = synthesized.logical_id(stack.webhook.role)
    assert _statements_with_action_prefix(synthesized, "iam:") == {executor: pass_role, webhook: pass_role}
    schedules = _statements_with_action_prefix(synthesized, "scheduler:")
    reminders = synthesized.logical_id(stack.reminders.lambda_function.role)
    assert sorted(schedules) == sorted([executor, webhook, reminders])
    for statement in schedules[webhook]:
        assert "scheduler:DeleteSchedule" not in as_list(statement["Action"])
    (deletes,) = schedules[reminders]
    assert as_list(deletes["Action"]) == ["scheduler:DeleteSchedule"]
    assert "memo-reminders/*" in json.dumps(deletes["Resource"])


def test_executor_creates_schedules_in_the_reminders_group_for_the_reminders_function(
    synthesized: Synthesized,
) -> None:
    stack = synthesized.stack
    executor_id = synthesized.logical_id(stack.executor_workflow.executor.function)
    env = synthesized.template_json["Resources"][executor_id]["Properties"]["Environment"]["Variables"]
    assert env[SCHEDULE_GROUP_ENV_VAR] == "memo-reminders"
    assert env[SCHEDULE_ROLE_ENV_VAR] == arn(synthesized.logical_id(stack.reminders.scheduler_role))
    assert env[SCHEDULE_TARGET_ENV_VAR] == arn(synthesized.logical_id(stack.reminders.function))
    _, group = only(synthesized.resources("AWS::Scheduler::ScheduleGroup"))
    assert group["Properties"]["Name"] == "memo-reminders"


def test_reminders_function_gets_the_template_settings(synthesized: Synthesized) -> None:
    function_id = synthesized.logical_id(synthesized.stack.reminders.function)
    env = synthesized.template_json["Resources"][function_id]["Properties"]["Environment"]["Variables"]
    assert env["WHATSAPP_REMINDER_TEMPLATE"] == "memo_reminder"
    assert env["WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"] == "en=en,he=he"
    assert "WHATSAPP_PHONE_NUMBER_ID" not in env
    assert env["WHATSAPP_API_BASE_URL"] == "https://graph.facebook.com/v21.0"


def test_reminder_context_settings_reach_the_template(variant: Synthesized) -> None:
    function_id = variant.logical_id(variant.stack.reminders.function)
    env = variant.template_json["Resources"][function_id]["Properties"]["Environment"]["Variables"]
    assert env["WHATSAPP_REMINDER_TEMPLATE"] == OVERRIDES["reminder_template_name"]
    assert env["WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"] == OVERRIDES["reminder_template_languages"]
    assert env["WHATSAPP_PHONE_NUMBER_ID"] == OVERRIDES["whatsapp_phone_number_id"]
    assert env["WHATSAPP_API_BASE_URL"] == OVERRIDES["whatsapp_api_base_url"]
    responder_id = variant.logical_id(variant.stack.executor_workflow.responder.function)
    responder_env = variant.template_json["Resources"][responder_id]["Properties"]["Environment"]["Variables"]
    assert responder_env["WHATSAPP_API_BASE_URL"] == OVERRIDES["whatsapp_api_base_url"]


def test_schedule_group_name_comes_from_context() -> None:
    """Two deployments in one account and region need two groups; the name reaches every user of it."""
    app = App(context={BUNDLING_STACKS_CONTEXT_KEY: []})
    stack = MemoStack(app, STACK_NAME, settings=StackSettings(reminder_schedule_group="memo-staging"))
    resources = Template.from_stack(stack).to_json()["Resources"]

    def of_type(kind: str) -> list[dict[str, Any]]:
        return [r["Properties"] for r in resources.values() if r["Type"] == kind]

    assert [g["Name"] for g in of_type("AWS::Scheduler::ScheduleGroup")] == ["memo-staging"]
    executor = stack.executor_workflow.executor.function.node.default_child
    assert isinstance(executor, CfnElement)
    env = resources[stack.resolve(executor.logical_id)]["Properties"]["Environment"]["Variables"]
    assert env[SCHEDULE_GROUP_ENV_VAR] == "memo-staging"
    schedules_arns = [
        statement["Resource"]
        for policy in of_type("AWS::IAM::Policy")
        for statement in policy["PolicyDocument"]["Statement"]
        if "scheduler:CreateSchedule" in as_list(statement["Action"])
    ]
    assert len(schedules_arns) == 2  # the executor's and the webhook's (a changed number)
    for schedules_arn in schedules_arns:
        assert schedules_arn["Fn::Join"][1][-1] == ":schedule/memo-staging/*"


def test_failed_and_timed_out_executions_alarm_to_the_topic(synthesized: Synthesized) -> None:
    state_machine_id, _ = _state_machine(synthesized)
    topic_id = synthesized.logical_id(synthesized.stack.monitoring.topic)
    alarms = alarms_by_metric(synthesized)
    for metric in ("ExecutionsFailed", "ExecutionsTimedOut"):
        alarm = alarms[("AWS/States", metric, json.dumps(ref(state_machine_id), sort_keys=True))]
        assert alarm["Dimensions"] == [{"Name": "StateMachineArn", "Value": ref(state_machine_id)}]
        assert alarm["Statistic"] == "Sum"
        assert alarm["Threshold"] == 1
        assert alarm["AlarmActions"] == [ref(topic_id)]
        assert alarm["OKActions"] == [ref(topic_id)]


def test_outputs_name_the_state_machine_and_the_schedule_group(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    outputs = synthesized.template_json["Outputs"]
    assert outputs["ExecutorStateMachineArn"]["Value"] == ref(
        synthesized.logical_id(stack.executor_workflow.state_machine)
    )
    assert outputs["ReminderScheduleGroupName"]["Value"] == "memo-reminders"


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"reminder_schedule_group": "memo reminders"}, "reminder_schedule_group"),
        ({"reminder_schedule_group": "x" * 65}, "reminder_schedule_group"),
        ({"reminder_template_name": "Memo-Reminder"}, "reminder_template_name"),
        ({"reminder_template_languages": "en"}, "reminder_template_languages"),
        ({"reminder_template_languages": "en=en_US,he="}, "reminder_template_languages"),
        ({"whatsapp_phone_number_id": "+972 50"}, "whatsapp_phone_number_id"),
    ],
)
def test_bad_reminder_settings_stop_the_synthesis(context: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        StackSettings.from_context(App(context=context).node)


def test_reminder_settings_from_cli_strings() -> None:
    settings = StackSettings.from_context(
        App(
            context={
                "reminder_schedule_group": "memo-staging",
                "reminder_template_languages": "en=en_US, he=he",
                "whatsapp_phone_number_id": 1234567890,  # cdk.json may hold it as a number
            }
        ).node
    )
    assert settings.reminder_schedule_group == "memo-staging"
    assert settings.reminder_template_languages == "en=en_US, he=he"
    assert settings.whatsapp_phone_number_id == "1234567890"


# Properties that give a resource its physical name, by resource type (those the stack creates).
NAME_PROPERTIES = {
    "AWS::Logs::LogGroup": "LogGroupName",
    "AWS::DynamoDB::GlobalTable": "TableName",
    "AWS::DynamoDB::Table": "TableName",
    "AWS::SecretsManager::Secret": "Name",
    "AWS::KMS::Key": "Description",  # a key has no name; listed so a new type is noticed
    "AWS::Cognito::UserPool": "UserPoolName",
    "AWS::Scheduler::ScheduleGroup": "Name",
    "AWS::SQS::Queue": "QueueName",
    "AWS::SNS::Topic": "TopicName",
    "AWS::S3::Bucket": "BucketName",
}


@pytest.mark.parametrize("fixture", ["synthesized", "variant"])
def test_no_retained_resource_has_a_fixed_name(fixture: str, request: pytest.FixtureRequest) -> None:
    """A resource kept by `cdk destroy` under a fixed name makes the next deployment fail ("already
    exists"). Every retained resource is named by CloudFormation, or by a name that holds this stack
    instance's id (new for every stack created)."""
    synth: Synthesized = request.getfixturevalue(fixture)
    retained = {
        logical_id: resource
        for logical_id, resource in synth.template_json["Resources"].items()
        if "Retain" in (resource.get("DeletionPolicy"), resource.get("UpdateReplacePolicy"))
    }
    assert retained, "expected the tables, secrets and log groups to be retained"
    for logical_id, resource in retained.items():
        assert resource["Type"] in NAME_PROPERTIES, f"{logical_id}: a retained {resource['Type']}"
        if resource["Type"] == "AWS::KMS::Key":
            continue
        name = resource["Properties"].get(NAME_PROPERTIES[resource["Type"]])
        assert name is None or '{"Ref": "AWS::StackId"}' in json.dumps(name), f"{logical_id}: {name}"


def test_the_schedule_group_keeps_its_name_and_is_not_retained(synthesized: Synthesized) -> None:
    group = synthesized.template_json["Resources"][synthesized.logical_id(synthesized.stack.reminders.group)]
    assert group["Properties"]["Name"] == "memo-reminders"  # unchanged: a rename would drop schedules
    assert group["DeletionPolicy"] == "Delete"


def test_reminder_delivery_and_review_wait_settings_reach_the_template(
    synthesized: Synthesized, variant: Synthesized
) -> None:
    """The schedules' retry policy reaches both functions that write schedules; the review policy's
    wait sets the executor's execution timeout."""
    for synth, attempts, age, timeout in ((synthesized, "20", "3600", 90000), (variant, "7", "900", 10800)):
        stack = synth.stack
        dlq = arn(synth.logical_id(stack.reminders.schedule_dead_letter_queue))
        for function in (stack.webhook.function, stack.executor_workflow.executor.function):
            env = synth.template_json["Resources"][synth.logical_id(function)]["Properties"]["Environment"]
            variables = env["Variables"]
            assert variables["REMINDER_DEAD_LETTER_ARN"] == dlq
            assert (variables["REMINDER_RETRY_ATTEMPTS"], variables["REMINDER_MAX_EVENT_AGE_SECONDS"]) == (
                attempts,
                age,
            )
        machine = synth.template_json["Resources"][synth.logical_id(stack.executor_workflow.state_machine)]
        assert json.loads(machine["Properties"]["DefinitionString"])["TimeoutSeconds"] == timeout


def test_the_functions_that_open_cases_store_them_with_contacts_masked(synthesized: Synthesized) -> None:
    """The webhook (a user's answer to an operator), review submit (Memo's steps) and the review API
    (agents' cases) ingest with HITL_REDACT=contacts; no other function opens a case."""
    stack = synthesized.stack
    ingesting = [
        stack.webhook.function,
        stack.executor_workflow.review_submit.function,
        stack.review.function.function,
    ]
    for function in ingesting:
        props = synthesized.template_json["Resources"][synthesized.logical_id(function)]["Properties"]
        assert props["Environment"]["Variables"]["HITL_REDACT"] == "contacts"
