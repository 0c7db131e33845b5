"""The synthesized Memo stack: what ops deploy, checked resource by resource."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk import App, CfnElement
from aws_cdk.assertions import Match, Template
from cdk_nag import AwsSolutionsChecks

from infra.application import STACK_NAME
from infra.conversation_store import ConversationStore
from infra.review import AUTHORIZED_ROUTES, PUBLIC_ROUTES, TASK_TOKEN_ACTIONS
from infra.settings import BUNDLING_STACKS_CONTEXT_KEY, SettingsError, StackSettings
from infra.stack import MemoStack
from memo import tables
from memo.settings import (
    SCHEDULE_GROUP_ENV_VAR,
    SCHEDULE_ROLE_ENV_VAR,
    SCHEDULE_TARGET_ENV_VAR,
    AwsSettings,
    LlmSettings,
    WebhookSettings,
    WhatsAppSettings,
)

from .conftest import OVERRIDES, Synthesized

WEBHOOK_ENV = {
    "CONVERSATION_TABLE_NAME",
    "IDEMPOTENCY_TABLE_NAME",
    "ITEMS_TABLE_NAME",
    "CASES_TABLE_NAME",
    "LEDGER_TABLE_NAME",
    "EXECUTOR_STATE_MACHINE_ARN",
    "TURN_QUEUE_URL",
    "MEMO_TURN_MAX_RECEIVES",
    "WHATSAPP_SECRET_ID",
    "OPENAI_SECRET_ID",
    "WHATSAPP_API_BASE_URL",
    "MEMO_PLANNER_MODEL",
    "MEMO_INTERPRETER_MODEL",
    "HITL_TTL_SECONDS",
    "MEMO_DEFAULT_TIMEZONE",
    # A changed number re-points reminder schedules; a failed reminder is retried as its template.
    "REMINDER_SCHEDULE_GROUP",
    "REMINDER_TARGET_ARN",
    "REMINDER_SCHEDULER_ROLE_ARN",
    "WHATSAPP_REMINDER_TEMPLATE",
    "WHATSAPP_REMINDER_TEMPLATE_LANGUAGES",
    "POWERTOOLS_SERVICE_NAME",
    "POWERTOOLS_METRICS_NAMESPACE",
    "LOG_LEVEL",
}
CONVERSATION_TABLE_ACTIONS = {
    "dynamodb:BatchGetItem",
    "dynamodb:BatchWriteItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:DeleteItem",
    "dynamodb:DescribeTable",
    "dynamodb:GetItem",
    "dynamodb:GetRecords",
    "dynamodb:GetShardIterator",
    "dynamodb:PutItem",
    "dynamodb:Query",
    "dynamodb:Scan",
    "dynamodb:UpdateItem",
}
IDEMPOTENCY_TABLE_ACTIONS = {
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
}
QUEUE_ACTIONS = {
    "sqs:SendMessage",
    "sqs:ReceiveMessage",
    "sqs:DeleteMessage",
    "sqs:ChangeMessageVisibility",
    "sqs:GetQueueAttributes",
    "sqs:GetQueueUrl",
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
# The case store (infra/case_platform.py): the webhook records users' answers to operators' questions.
CASE_STORE_ACTIONS = {
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:Query",
}
SECRET_ACTIONS = {"secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"}
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
# One per function of the stack: the webhook, the escalation sweep, the executor workflow's three, the
# reminders function and the review function.
FUNCTION_COUNT = 7


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _ref(logical_id: str) -> dict[str, str]:
    return {"Ref": logical_id}


def _arn(logical_id: str) -> dict[str, list[str]]:
    return {"Fn::GetAtt": [logical_id, "Arn"]}


def _executor_schedules_arn(synth: Synthesized) -> Any:
    """The schedules the executor may create (the reminders' group), as the template writes it."""
    executor = synth.logical_id(synth.stack.executor_workflow.executor.role)
    (arn,) = {
        json.dumps(statement["Resource"], sort_keys=True)
        for statement in _role_statements(synth, executor)
        if "scheduler:CreateSchedule" in _as_list(statement["Action"])
    }
    return json.loads(arn)


def _only(resources: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    assert len(resources) == 1, sorted(resources)
    return next(iter(resources.items()))


def _role_statements(synth: Synthesized, role_logical_id: str) -> list[dict[str, Any]]:
    statements = []
    for policy in synth.resources("AWS::IAM::Policy").values():
        if _ref(role_logical_id) in policy["Properties"]["Roles"]:
            statements.extend(policy["Properties"]["PolicyDocument"]["Statement"])
    return statements


def _actions_by_resource(statements: list[dict[str, Any]]) -> dict[str, set[str]]:
    by_resource: dict[str, set[str]] = {}
    for statement in statements:
        assert statement["Effect"] == "Allow"
        for resource in _as_list(statement["Resource"]):
            key = json.dumps(resource, sort_keys=True)
            by_resource.setdefault(key, set()).update(_as_list(statement["Action"]))
    return by_resource


# --- cdk-nag ---------------------------------------------------------------------------------------


def test_synth_passes_cdk_nag_with_no_unacknowledged_findings(synthesized: Synthesized) -> None:
    report = AwsSolutionsChecks().validate_scope(synthesized.stack)
    findings = [
        f"{violation.rule_name}: {[r.construct_path for r in violation.violating_resources]}"
        for violation in report.violations
    ]
    assert findings == []
    assert synthesized.synth_error is None, str(synthesized.synth_error)
    validation_report = json.loads((synthesized.outdir / "validation-report.json").read_text())
    assert [r for r in validation_report["pluginReports"] if r["pluginName"] == "AwsSolutions"] == []


def test_the_only_cdk_annotation_is_the_unbuilt_layer_warning(synthesized: Synthesized) -> None:
    """No CDK warnings or errors slip by; with bundling off, ops are told not to deploy the assembly."""
    validation_report = json.loads((synthesized.outdir / "validation-report.json").read_text())
    annotations = [
        (violation["ruleName"], violation["severity"], construct["constructPath"])
        for report in validation_report["pluginReports"]
        if report["pluginName"] == "Construct Annotations"
        for violation in report["violations"]
        for construct in violation["violatingConstructs"]
    ]
    assert annotations == [
        ("Annotation::memo:DependenciesLayerNotBuilt", "warning", "MemoStack/Layers/Dependencies")
    ]


def test_nag_plugin_is_registered_and_fails_synth_on_a_finding(variant: Synthesized) -> None:
    # The variant has its acknowledgments switched off: the same plugin must now stop the synthesis.
    assert variant.synth_error is not None
    assert "ValidationFailed" in str(variant.synth_error)
    assert "AwsSolutions-SMG4" in str(variant.synth_error)
    validation_report = json.loads((variant.outdir / "validation-report.json").read_text())
    assert any(
        r["pluginName"] == "AwsSolutions" and r["violations"] for r in validation_report["pluginReports"]
    )


def _acknowledgments(synth: Synthesized) -> dict[tuple[str, str], str]:
    metadata = json.loads((synth.outdir / f"{synth.stack.stack_name}.metadata.json").read_text())
    found: dict[tuple[str, str], str] = {}
    for path, entries in metadata.items():
        for entry in entries:
            if entry["type"] == "aws:cdk:acknowledged-rules":
                for rule, reason in entry["data"].items():
                    found[(path, rule.removeprefix("Annotation::"))] = reason
    return found


def test_every_acknowledgment_names_its_resource_and_gives_a_reason(synthesized: Synthesized) -> None:
    acknowledgments = _acknowledgments(synthesized)
    assert acknowledgments, "expected the documented acknowledgments"
    for (path, rule), reason in acknowledgments.items():
        assert path != f"/{synthesized.stack.stack_name}", f"{rule} is acknowledged for the whole stack"
        assert rule.startswith("AwsSolutions-"), rule
        assert len(reason) >= 40, f"{path} {rule}: reason too short: {reason!r}"


def test_every_acknowledgment_is_still_needed(synthesized: Synthesized, variant: Synthesized) -> None:
    """Without acknowledgments, exactly the acknowledged (resource, rule) pairs are reported."""
    report = AwsSolutionsChecks().validate_scope(variant.stack)
    reported = {
        (rule_path, violation.rule_name)
        for violation in report.violations
        for rule_path in (r.construct_path for r in violation.violating_resources)
    }
    for path, rule in _acknowledgments(synthesized):
        assert any(rp == rule and (vp or "").startswith(path.lstrip("/")) for vp, rp in reported), (
            f"acknowledgment {rule} on {path} is not needed any more"
        )
    acknowledged_rules = {rule for _, rule in _acknowledgments(synthesized)}
    assert {rule for _, rule in reported} == acknowledged_rules


# --- HTTP API ----------------------------------------------------------------------------------------


def test_http_api_routes_get_and_post_webhook_to_the_webhook_function(synthesized: Synthesized) -> None:
    function_id = synthesized.logical_id(synthesized.stack.webhook.function)
    synthesized.template.resource_count_is("AWS::ApiGatewayV2::Api", 1)
    synthesized.template.has_resource_properties("AWS::ApiGatewayV2::Api", {"ProtocolType": "HTTP"})
    integrations = synthesized.resources("AWS::ApiGatewayV2::Integration")
    # One integration per function behind the API: the webhook's and the review function's.
    assert {json.dumps(i["Properties"]["IntegrationUri"], sort_keys=True) for i in integrations.values()} == {
        json.dumps(_arn(function_id), sort_keys=True),
        json.dumps(_arn(synthesized.logical_id(synthesized.stack.review.function.function)), sort_keys=True),
    }
    integration_id, integration = _only(
        {k: i for k, i in integrations.items() if i["Properties"]["IntegrationUri"] == _arn(function_id)}
    )
    assert integration["Properties"]["IntegrationType"] == "AWS_PROXY"
    assert integration["Properties"]["PayloadFormatVersion"] == "2.0"

    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in synthesized.resources("AWS::ApiGatewayV2::Route").values()
    }
    review_routes = {f"{method} {path}" for method, path in (*PUBLIC_ROUTES, *AUTHORIZED_ROUTES)}
    assert set(routes) == {"GET /webhook", "POST /webhook", *review_routes}
    webhook_target = {"Fn::Join": ["", ["integrations/", _ref(integration_id)]]}
    assert {key for key, route in routes.items() if route["Target"] == webhook_target} == {
        "GET /webhook",
        "POST /webhook",
    }
    for key in ("GET /webhook", "POST /webhook"):
        assert routes[key].get("AuthorizationType", "NONE") == "NONE"  # Meta sends no token

    permissions = [
        p
        for p in synthesized.resources("AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == _arn(function_id)
    ]
    assert permissions
    assert {p["Properties"]["Principal"] for p in permissions} == {"apigateway.amazonaws.com"}


def test_http_api_stage_logs_access_as_json_and_throttles(synthesized: Synthesized) -> None:
    _, stage = _only(synthesized.resources("AWS::ApiGatewayV2::Stage"))
    props = stage["Properties"]
    assert props["StageName"] == "$default"
    assert props["AutoDeploy"] is True
    log_format = json.loads(props["AccessLogSettings"]["Format"])
    assert log_format["requestId"] == "$context.requestId"
    assert log_format["routeKey"] == "$context.routeKey"
    assert not any("querystring" in v.lower() for v in log_format.values()), (
        "hub.verify_token would be logged"
    )
    log_group_id = props["AccessLogSettings"]["DestinationArn"]["Fn::GetAtt"][0]
    assert synthesized.template_json["Resources"][log_group_id]["Properties"]["RetentionInDays"] == 30
    assert props["DefaultRouteSettings"] == {"ThrottlingBurstLimit": 100, "ThrottlingRateLimit": 50}


def test_webhook_url_output_points_at_the_webhook_route(synthesized: Synthesized) -> None:
    api_id = synthesized.logical_id(synthesized.stack.ingress.api)
    output = synthesized.template_json["Outputs"]["WebhookUrl"]["Value"]
    assert output == {
        "Fn::Join": [
            "",
            [
                "https://",
                _ref(api_id),
                ".execute-api.",
                _ref("AWS::Region"),
                ".",
                _ref("AWS::URLSuffix"),
                "/webhook",
            ],
        ]
    }


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
    _, queue = _queue_and_dead_letter_queue(synthesized)[0]
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
    assert env["CONVERSATION_TABLE_NAME"] == _ref(
        synthesized.logical_id(stack.store.table(tables.CONVERSATION))
    )
    assert env["IDEMPOTENCY_TABLE_NAME"] == _ref(
        synthesized.logical_id(stack.store.table(tables.IDEMPOTENCY))
    )
    assert env["ITEMS_TABLE_NAME"] == _ref(synthesized.logical_id(stack.store.table(tables.ITEMS)))
    assert env["CASES_TABLE_NAME"] == _ref(synthesized.logical_id(stack.store.table(tables.CASES)))
    assert env["EXECUTOR_STATE_MACHINE_ARN"] == _ref(
        synthesized.logical_id(stack.executor_workflow.state_machine)
    )
    assert env["TURN_QUEUE_URL"] == _ref(synthesized.logical_id(stack.turn_queue.queue))
    # The last receive of a failing turn answers: the webhook's count is the queue's own.
    assert env["MEMO_TURN_MAX_RECEIVES"] == str(stack.turn_queue.max_receive_count) == "5"
    assert env["WHATSAPP_SECRET_ID"] == _ref(synthesized.logical_id(stack.secrets.whatsapp))
    assert env["OPENAI_SECRET_ID"] == _ref(synthesized.logical_id(stack.secrets.openai))
    assert env["WHATSAPP_API_BASE_URL"] == "https://graph.facebook.com/v21.0"
    assert env["HITL_TTL_SECONDS"] == "300"
    assert env["MEMO_DEFAULT_TIMEZONE"] == "UTC"
    assert env["POWERTOOLS_SERVICE_NAME"] == "memo-webhook"
    assert env["POWERTOOLS_METRICS_NAMESPACE"] == "Memo"


def test_webhook_environment_names_are_read_by_the_webhook_settings() -> None:
    """Every configuration name the stack sets is one `memo.settings` reads (no silent typos)."""
    known = {
        field.alias
        for model in (WebhookSettings, AwsSettings, WhatsAppSettings, LlmSettings)
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
    _, mapping = _only(variant.resources("AWS::Lambda::EventSourceMapping"))
    assert mapping["Properties"]["BatchSize"] == 3
    assert mapping["Properties"]["ScalingConfig"] == {"MaximumConcurrency": 5}
    _, stage = _only(variant.resources("AWS::ApiGatewayV2::Stage"))
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

    by_resource = _actions_by_resource(_role_statements(synthesized, role_id))
    cases_arn = _arn(synthesized.logical_id(stack.store.table(tables.CASES)))
    key = lambda value: json.dumps(value, sort_keys=True)  # noqa: E731
    expected = {
        key(_arn(synthesized.logical_id(stack.webhook.log_group))): LOG_ACTIONS,
        # A user's withdrawal fails the waiting step's task token (no resource-level permission).
        key("*"): XRAY_ACTIONS | {"states:SendTaskFailure"},
        # ...read from and deleted on REVIEW# ledger items only (checked below).
        key(_arn(synthesized.logical_id(stack.store.table(tables.LEDGER)))): {
            "dynamodb:GetItem",
            "dynamodb:DeleteItem",
        },
        key(_arn(synthesized.logical_id(stack.store.table(tables.CONVERSATION)))): CONVERSATION_TABLE_ACTIONS,
        key(_arn(synthesized.logical_id(stack.store.table(tables.IDEMPOTENCY)))): IDEMPOTENCY_TABLE_ACTIONS,
        key(_arn(synthesized.logical_id(stack.store.table(tables.ITEMS)))): WEBHOOK_ITEMS_ACTIONS,
        key(cases_arn): CASE_STORE_ACTIONS,
        **{
            key({"Fn::Join": ["", [cases_arn, f"/index/{gsi.name}"]]}): CASE_STORE_ACTIONS
            for gsi in tables.CASES.gsis
        },
        key(_ref(synthesized.logical_id(stack.executor_workflow.state_machine))): {"states:StartExecution"},
        key(_arn(synthesized.logical_id(stack.turn_queue.queue))): QUEUE_ACTIONS,
        key(_ref(synthesized.logical_id(stack.secrets.whatsapp))): SECRET_ACTIONS,
        key(_ref(synthesized.logical_id(stack.secrets.openai))): SECRET_ACTIONS,
        # A changed number re-points the user's schedules (the reminders' group only).
        key(_executor_schedules_arn(synthesized)): {"scheduler:CreateSchedule", "scheduler:UpdateSchedule"},
        key(_arn(synthesized.logical_id(stack.reminders.scheduler_role))): {"iam:PassRole"},
    }
    assert by_resource == expected


def test_no_policy_in_the_stack_allows_a_wildcard_action(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    state_machine_role = _ref(synthesized.logical_id(stack.executor_workflow.state_machine.role))
    review_role = _ref(synthesized.logical_id(stack.review.function.role))
    webhook_role = _ref(synthesized.logical_id(stack.webhook.role))
    for policy_id, policy in synthesized.resources("AWS::IAM::Policy").items():
        # Only the state machine's role also needs log delivery and X-Ray sampling on Resource '*', and
        # only the review role answers task tokens (no resource-level permissions either).
        allowed_on_any = XRAY_ACTIONS
        if policy["Properties"]["Roles"] == [state_machine_role]:
            allowed_on_any = STATE_MACHINE_WILDCARD_ACTIONS
        elif policy["Properties"]["Roles"] == [review_role]:
            allowed_on_any = XRAY_ACTIONS | set(TASK_TOKEN_ACTIONS)
        elif policy["Properties"]["Roles"] == [webhook_role]:  # a user's withdrawal fails a waiting task
            allowed_on_any = XRAY_ACTIONS | {"states:SendTaskFailure"}
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            for action in _as_list(statement["Action"]):
                assert "*" not in action, f"{policy_id}: {action}"
            if "*" in _as_list(statement["Resource"]):
                assert set(_as_list(statement["Action"])) <= allowed_on_any, f"{policy_id}: {statement}"
    for role_id, role in synthesized.resources("AWS::IAM::Role").items():
        assert "ManagedPolicyArns" not in role["Properties"], role_id


def test_webhook_role_cannot_touch_tables_it_does_not_use(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    role_id = synthesized.logical_id(stack.webhook.role)
    granted = json.dumps(_role_statements(synthesized, role_id))
    for spec in tables.ALL_TABLES:
        if spec not in (tables.CONVERSATION, tables.IDEMPOTENCY, tables.ITEMS, tables.CASES, tables.LEDGER):
            assert synthesized.logical_id(stack.store.table(spec)) not in granted, spec.logical_id
    # The ledger only for a withdrawal's task token: REVIEW# items, never the executor's entries.
    ledger_id = synthesized.logical_id(stack.store.table(tables.LEDGER))
    on_ledger = [s for s in _role_statements(synthesized, role_id) if ledger_id in json.dumps(s["Resource"])]
    assert [s["Condition"] for s in on_ledger] == [
        {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["REVIEW#*"]}}
    ]


def test_webhook_role_writes_items_only_item_by_item(synthesized: Synthesized) -> None:
    """The items table (and any index of it): the webhook reads with GetItem and Query and writes one
    item at a time (a changed number, a failed delivery); never a Scan or a batch."""
    stack = synthesized.stack
    items_id = synthesized.logical_id(stack.store.table(tables.ITEMS))
    on_items = set()
    for statement in _role_statements(synthesized, synthesized.logical_id(stack.webhook.role)):
        if items_id in json.dumps(statement["Resource"]):
            on_items.update(_as_list(statement["Action"]))
    assert on_items == WEBHOOK_ITEMS_ACTIONS


# --- DynamoDB ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", tables.ALL_TABLES, ids=lambda spec: spec.logical_id)
def test_every_table_spec_is_deployed_as_specified(synthesized: Synthesized, spec: tables.TableSpec) -> None:
    table_id = synthesized.logical_id(synthesized.stack.store.table(spec))
    resource = synthesized.template_json["Resources"][table_id]
    assert resource["Type"] == "AWS::DynamoDB::GlobalTable"
    assert resource["DeletionPolicy"] == "Retain"
    assert resource["UpdateReplacePolicy"] == "Retain"
    props = resource["Properties"]
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["SSESpecification"]["SSEEnabled"] is True
    assert [r["PointInTimeRecoverySpecification"] for r in props["Replicas"]] == [
        {"PointInTimeRecoveryEnabled": True}
    ]
    if spec.ttl_attribute:
        assert props["TimeToLiveSpecification"] == {"AttributeName": spec.ttl_attribute, "Enabled": True}
    else:
        assert "TimeToLiveSpecification" not in props
    # Keys and indexes exactly as the local stack creates them from the same spec.
    local = spec.create_table_kwargs()
    assert props["KeySchema"] == local["KeySchema"]
    assert (
        sorted(props["AttributeDefinitions"], key=lambda a: a["AttributeName"])
        == local["AttributeDefinitions"]
    )
    assert [(g["IndexName"], g["KeySchema"]) for g in props.get("GlobalSecondaryIndexes", [])] == [
        (g["IndexName"], g["KeySchema"]) for g in local.get("GlobalSecondaryIndexes", [])
    ]


def test_conversation_store_builds_a_table_for_a_spec_added_later() -> None:
    from aws_cdk import Stack

    added = tables.TableSpec(
        logical_id="LaterTable",
        env_var="LATER_TABLE_NAME",
        default_name="later",
        partition_key="pk",
        sort_key="sk",
        ttl_attribute="expiresAt",
        gsis=(tables.GsiSpec("ByOwner", "owner"), tables.GsiSpec("ByState", "state", "updatedAt")),
    )
    stack = Stack(App(), "Later")
    store = ConversationStore(stack, "Store", specs=(tables.CONVERSATION, added))
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::DynamoDB::GlobalTable", 2)
    template.has_resource_properties(
        "AWS::DynamoDB::GlobalTable",
        {
            "TimeToLiveSpecification": {"AttributeName": "expiresAt", "Enabled": True},
            "GlobalSecondaryIndexes": [
                Match.object_like(
                    {"IndexName": "ByOwner", "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"}]}
                ),
                Match.object_like({"IndexName": "ByState"}),
            ],
        },
    )
    assert set(store.environment(added)) == {"LATER_TABLE_NAME"}


# --- SQS ---------------------------------------------------------------------------------------------


def _queue_and_dead_letter_queue(synth: Synthesized) -> list[tuple[str, dict[str, Any]]]:
    queue = synth.logical_id(synth.stack.turn_queue.queue)
    dead_letter_queue = synth.logical_id(synth.stack.turn_queue.dead_letter_queue)
    resources = synth.template_json["Resources"]
    return [(queue, resources[queue]), (dead_letter_queue, resources[dead_letter_queue])]


def test_turn_queue_is_fifo_without_content_dedup_and_redrives_to_a_fifo_dlq(
    synthesized: Synthesized,
) -> None:
    (_, queue), (dlq_id, dlq) = _queue_and_dead_letter_queue(synthesized)
    for props in (queue["Properties"], dlq["Properties"]):
        assert props["FifoQueue"] is True
        assert props["ContentBasedDeduplication"] is False  # the sender supplies the wamid
        assert props["SqsManagedSseEnabled"] is True
    # The same number of attempts as the local stack gives a turn before its dead-letter queue.
    assert queue["Properties"]["RedrivePolicy"] == {
        "deadLetterTargetArn": _arn(dlq_id),
        "maxReceiveCount": tables.TURN_QUEUE_MAX_RECEIVE_COUNT,
    }
    assert dlq["Properties"]["MessageRetentionPeriod"] == 14 * 24 * 3600


def test_every_queue_refuses_requests_without_tls(synthesized: Synthesized) -> None:
    queue_ids = set(synthesized.resources("AWS::SQS::Queue"))
    assert queue_ids == {
        *(queue_id for queue_id, _ in _queue_and_dead_letter_queue(synthesized)),
        synthesized.logical_id(synthesized.stack.reminders.dead_letter_queue),
    }
    protected: set[str] = set()
    for policy in synthesized.resources("AWS::SQS::QueuePolicy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            if statement["Effect"] == "Deny" and statement["Condition"] == {
                "Bool": {"aws:SecureTransport": "false"}
            }:
                protected.update(q["Ref"] for q in policy["Properties"]["Queues"])
    assert protected == queue_ids


def test_turn_queue_triggers_the_webhook_function_with_partial_batch_failures(
    synthesized: Synthesized,
) -> None:
    _, mapping = _only(synthesized.resources("AWS::Lambda::EventSourceMapping"))
    props = mapping["Properties"]
    assert props["EventSourceArn"] == _arn(synthesized.logical_id(synthesized.stack.turn_queue.queue))
    assert props["FunctionName"] == _ref(synthesized.logical_id(synthesized.stack.webhook.function))
    assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert props["BatchSize"] == 1
    assert props["ScalingConfig"] == {"MaximumConcurrency": 10}


# --- Secrets -----------------------------------------------------------------------------------------


def test_secrets_hold_no_secret_in_the_template_and_are_retained(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    resources = synthesized.template_json["Resources"]
    whatsapp = resources[synthesized.logical_id(stack.secrets.whatsapp)]
    openai = resources[synthesized.logical_id(stack.secrets.openai)]
    generated = whatsapp["Properties"]["GenerateSecretString"]
    assert generated["GenerateStringKey"] == "verify_token"
    assert json.loads(generated["SecretStringTemplate"]) == {"app_secret": "", "access_token": ""}
    assert json.loads(openai["Properties"]["SecretString"]) == {"api_key": ""}
    for secret in (whatsapp, openai):
        assert secret["DeletionPolicy"] == "Retain"


# --- Monitoring --------------------------------------------------------------------------------------


def _alarms_by_metric(synth: Synthesized) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Alarms keyed by (namespace, metric, the first dimension's value as JSON)."""
    return {
        (
            a["Properties"]["Namespace"],
            a["Properties"]["MetricName"],
            json.dumps(a["Properties"]["Dimensions"][0]["Value"], sort_keys=True),
        ): a["Properties"]
        for a in synth.resources("AWS::CloudWatch::Alarm").values()
    }


def test_alarms_watch_every_functions_errors_and_throttles_and_dlq_depth(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    alarms = _alarms_by_metric(synthesized)
    # One alarm per metric: a function watched twice (by its construct and the stack) shows up here.
    assert len(alarms) == len(synthesized.resources("AWS::CloudWatch::Alarm"))
    function_ids = list(synthesized.resources("AWS::Lambda::Function"))
    assert len(function_ids) == FUNCTION_COUNT
    for function_id in function_ids:
        for metric in ("Errors", "Throttles"):
            alarm = alarms[("AWS/Lambda", metric, json.dumps(_ref(function_id), sort_keys=True))]
            assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": _ref(function_id)}]
            assert alarm["Statistic"] == "Sum"
            assert alarm["Threshold"] == 1
            assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    dlq_id = synthesized.logical_id(stack.turn_queue.dead_letter_queue)
    dlq_alarm = alarms[
        (
            "AWS/SQS",
            "ApproximateNumberOfMessagesVisible",
            json.dumps({"Fn::GetAtt": [dlq_id, "QueueName"]}, sort_keys=True),
        )
    ]
    assert dlq_alarm["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [dlq_id, "QueueName"]}}]
    assert dlq_alarm["Threshold"] == 0
    assert dlq_alarm["ComparisonOperator"] == "GreaterThanThreshold"
    reminders_dlq_id = synthesized.logical_id(stack.reminders.dead_letter_queue)
    assert (
        "AWS/SQS",
        "ApproximateNumberOfMessagesVisible",
        json.dumps({"Fn::GetAtt": [reminders_dlq_id, "QueueName"]}, sort_keys=True),
    ) in alarms


def test_alarms_notify_an_encrypted_tls_only_topic(synthesized: Synthesized) -> None:
    # The other topic of the stack is the HITL escalation topic (tests/infra/test_case_platform.py).
    topic_id, topic = _only(
        {
            k: v
            for k, v in synthesized.resources("AWS::SNS::Topic").items()
            if v["Properties"].get("DisplayName") == "Memo alarms"
        }
    )
    assert "KmsMasterKeyId" in topic["Properties"]
    for alarm in synthesized.resources("AWS::CloudWatch::Alarm").values():
        assert alarm["Properties"]["AlarmActions"] == [_ref(topic_id)]
        assert alarm["Properties"]["TreatMissingData"] == "notBreaching"
    _, policy = _only(
        {
            k: v
            for k, v in synthesized.resources("AWS::SNS::TopicPolicy").items()
            if v["Properties"]["Topics"] == [_ref(topic_id)]
        }
    )
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    assert any(
        s["Effect"] == "Deny" and s.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
        for s in statements
    )
    assert any(
        s["Effect"] == "Allow"
        and s["Principal"] == {"Service": "cloudwatch.amazonaws.com"}
        and s["Action"] == "sns:Publish"
        for s in statements
    )
    _, key = _only(synthesized.resources("AWS::KMS::Key"))
    assert key["Properties"]["EnableKeyRotation"] is True


# --- Executor workflow and reminders --------------------------------------------------------------


def _state_machine(synth: Synthesized) -> tuple[str, dict[str, Any]]:
    state_machine_id, state_machine = _only(synth.resources("AWS::StepFunctions::StateMachine"))
    assert state_machine_id == synth.logical_id(synth.stack.executor_workflow.state_machine)
    return state_machine_id, state_machine["Properties"]


def test_state_machine_is_standard_with_logging_and_tracing(synthesized: Synthesized) -> None:
    workflow = synthesized.stack.executor_workflow
    _, props = _state_machine(synthesized)
    assert props["StateMachineType"] == "STANDARD"
    assert props["TracingConfiguration"] == {"Enabled": True}
    log_group_id = synthesized.logical_id(workflow.log_group)
    assert props["LoggingConfiguration"] == {
        "Destinations": [{"CloudWatchLogsLogGroup": {"LogGroupArn": _arn(log_group_id)}}],
        "IncludeExecutionData": False,  # the execution input holds the user's words
        "Level": "ALL",
    }
    assert synthesized.template_json["Resources"][log_group_id]["Properties"]["RetentionInDays"] == 30
    # The deployed ASL's tasks are the stack's executor and responder functions.
    assert props["DefinitionSubstitutions"] == {
        "ExecutorFunctionArn": _arn(synthesized.logical_id(workflow.executor.function)),
        "ResponderFunctionArn": _arn(synthesized.logical_id(workflow.responder.function)),
        "ReviewSubmitFunctionArn": _arn(synthesized.logical_id(workflow.review_submit.function)),
    }


def _statements_with_action_prefix(synth: Synthesized, prefix: str) -> dict[str, list[dict[str, Any]]]:
    """Statements granting any action starting with `prefix`, by the policy's role logical ids."""
    found: dict[str, list[dict[str, Any]]] = {}
    for policy in synth.resources("AWS::IAM::Policy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            if any(action.startswith(prefix) for action in _as_list(statement["Action"])):
                for role in policy["Properties"]["Roles"]:
                    found.setdefault(role["Ref"], []).append(statement)
    for role_id, role in synth.resources("AWS::IAM::Role").items():
        for inline in role["Properties"].get("Policies", []):
            for statement in inline["PolicyDocument"]["Statement"]:
                if any(action.startswith(prefix) for action in _as_list(statement["Action"])):
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
            for action in _as_list(statement["Action"])
            if action.startswith("states:")
        }
        for role_id, statements in _statements_with_action_prefix(synthesized, "states:").items()
    }
    assert granted == {
        synthesized.logical_id(stack.webhook.role): {
            ("states:StartExecution", json.dumps(_ref(state_machine_id), sort_keys=True)),
            # A user's withdrawal ("cancel that") fails the waiting task: failure only, never success.
            ("states:SendTaskFailure", '"*"'),
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
                "StringEquals": {"aws:SourceAccount": _ref("AWS::AccountId")},
                "ArnEquals": {"aws:SourceArn": _arn(group_id)},
            },
        }
    ]
    assert _role_statements(synthesized, role_id) == [
        {
            "Action": "lambda:InvokeFunction",
            "Effect": "Allow",
            "Resource": _arn(synthesized.logical_id(reminders.function)),
        }
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
    """The executor schedules reminders; the webhook re-points them when a user changes number."""
    stack = synthesized.stack
    scheduler_role_arn = _arn(synthesized.logical_id(stack.reminders.scheduler_role))
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
    assert sorted(schedules) == sorted([executor, webhook])
    for statement in schedules[webhook]:
        assert "scheduler:DeleteSchedule" not in _as_list(statement["Action"])


def test_executor_creates_schedules_in_the_reminders_group_for_the_reminders_function(
    synthesized: Synthesized,
) -> None:
    stack = synthesized.stack
    executor_id = synthesized.logical_id(stack.executor_workflow.executor.function)
    env = synthesized.template_json["Resources"][executor_id]["Properties"]["Environment"]["Variables"]
    assert env[SCHEDULE_GROUP_ENV_VAR] == "memo-reminders"
    assert env[SCHEDULE_ROLE_ENV_VAR] == _arn(synthesized.logical_id(stack.reminders.scheduler_role))
    assert env[SCHEDULE_TARGET_ENV_VAR] == _arn(synthesized.logical_id(stack.reminders.function))
    _, group = _only(synthesized.resources("AWS::Scheduler::ScheduleGroup"))
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
        if "scheduler:CreateSchedule" in _as_list(statement["Action"])
    ]
    assert len(schedules_arns) == 2  # the executor's and the webhook's (a changed number)
    for schedules_arn in schedules_arns:
        assert schedules_arn["Fn::Join"][1][-1] == ":schedule/memo-staging/*"


def test_failed_and_timed_out_executions_alarm_to_the_topic(synthesized: Synthesized) -> None:
    state_machine_id, _ = _state_machine(synthesized)
    topic_id = synthesized.logical_id(synthesized.stack.monitoring.topic)
    alarms = _alarms_by_metric(synthesized)
    for metric in ("ExecutionsFailed", "ExecutionsTimedOut"):
        alarm = alarms[("AWS/States", metric, json.dumps(_ref(state_machine_id), sort_keys=True))]
        assert alarm["Dimensions"] == [{"Name": "StateMachineArn", "Value": _ref(state_machine_id)}]
        assert alarm["Statistic"] == "Sum"
        assert alarm["Threshold"] == 1
        assert alarm["AlarmActions"] == [_ref(topic_id)]
        assert alarm["OKActions"] == [_ref(topic_id)]


def test_outputs_name_the_state_machine_and_the_schedule_group(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    outputs = synthesized.template_json["Outputs"]
    assert outputs["ExecutorStateMachineArn"]["Value"] == _ref(
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
