"""The review construct in the synthesized stack: routes, JWT authorizer, Cognito, least privilege."""

from __future__ import annotations

import json
from fnmatch import fnmatchcase
from typing import Any

import pytest
from aws_cdk import App
from cdk_nag import AwsSolutionsChecks

from caseplatform.query_tools import QUERY_TOOLS
from infra.application import STACK_NAME
from infra.settings import PROJECT_ROOT, SettingsError, StackSettings
from memo import tables
from memo.settings import AwsSettings, ReviewSettings, WhatsAppSettings

from .conftest import OVERRIDES, Synthesized

PUBLIC = {"GET /review", "GET /review/openapi.json", "GET /review/swagger"}
AUTHORIZED = {
    "GET /review/me",
    "GET /review/cases",
    "GET /review/cases/{case_id}",
    "POST /review/cases/{case_id}/approve",
    "POST /review/cases/{case_id}/reject",
    "POST /review/cases/{case_id}/clarify",
    "POST /review/cases/{case_id}/decide",
    "POST /review/cases/{case_id}/resubmit",
    "POST /review/cases/{case_id}/feedback",
    "POST /review/mcp",
    *(f"GET /review/queries/{name}" for name in QUERY_TOOLS),
}
REVIEW_ENV = {
    "POWERTOOLS_SERVICE_NAME",
    "POWERTOOLS_METRICS_NAMESPACE",
    "LOG_LEVEL",
    "REVIEW_STORE",
    "CASES_TABLE_NAME",
    "LEDGER_TABLE_NAME",
    "CONVERSATION_TABLE_NAME",
    "WHATSAPP_SECRET_ID",
    "WHATSAPP_API_BASE_URL",
    "REVIEW_LOGIN_URL",
    "ITEMS_TABLE_NAME",  # the case view reads a waiting step's items
    "HITL_REDACT",  # agents' cases are stored with contacts masked
    "HITL_EVENT_BUS_NAME",  # agents hear of decisions, questions and requests for changes
}
# The case store's item actions, and UpdateItem: the review function registers the review adapters'
# schemas. It deletes nothing on the cases table.
CASE_STORE_ACTIONS = {
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:Query",
}
SEND_TASK_ACTIONS = ("states:SendTaskSuccess", "states:SendTaskFailure", "states:SendTaskHeartbeat")
GROUPS = {
    "reviewers:memo_operation",
    "reviewers:lgv_troubleshooting",
    "reviewers:human_input",
    "agents:lgv_troubleshooting",
    "agents:human_input",
}


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _ref(logical_id: str) -> dict[str, str]:
    return {"Ref": logical_id}


def _arn(logical_id: str) -> dict[str, list[str]]:
    return {"Fn::GetAtt": [logical_id, "Arn"]}


def _only(resources: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    assert len(resources) == 1, sorted(resources)
    return next(iter(resources.items()))


def _ids(synth: Synthesized) -> dict[str, str]:
    review = synth.stack.review
    return {
        "function": synth.logical_id(review.function.function),
        "role": synth.logical_id(review.function.role),
        "pool": synth.logical_id(review.user_pool),
        "client": synth.logical_id(review.client),
        "domain": synth.logical_id(review.domain),
        "api": synth.logical_id(synth.stack.ingress.api),
        "cases": synth.logical_id(synth.stack.store.table(tables.CASES)),
        "ledger": synth.logical_id(synth.stack.store.table(tables.LEDGER)),
        "conversation": synth.logical_id(synth.stack.store.table(tables.CONVERSATION)),
        "items": synth.logical_id(synth.stack.store.table(tables.ITEMS)),
        "whatsapp": synth.logical_id(synth.stack.secrets.whatsapp),
        "bus": synth.logical_id(synth.stack.case_platform.event_bus),
    }


def _review_url(api_id: str) -> dict[str, Any]:
    return {"Fn::Join": ["", [{"Fn::GetAtt": [api_id, "ApiEndpoint"]}, "/review/"]]}


def _env(synth: Synthesized, function_id: str) -> dict[str, Any]:
    return dict(synth.template_json["Resources"][function_id]["Properties"]["Environment"]["Variables"])


def _role_statements(synth: Synthesized, role_id: str) -> list[dict[str, Any]]:
    return [
        statement
        for policy in synth.resources("AWS::IAM::Policy").values()
        if _ref(role_id) in policy["Properties"]["Roles"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


# --- routes and the authorizer ---------------------------------------------------------------------


def test_review_routes_go_to_the_review_function_and_only_the_page_is_public(
    synthesized: Synthesized,
) -> None:
    ids = _ids(synthesized)
    integration_id, integration = _only(
        {
            k: i
            for k, i in synthesized.resources("AWS::ApiGatewayV2::Integration").items()
            if i["Properties"]["IntegrationUri"] == _arn(ids["function"])
        }
    )
    assert integration["Properties"]["IntegrationType"] == "AWS_PROXY"
    assert integration["Properties"]["PayloadFormatVersion"] == "2.0"
    authorizer_id, authorizer = _only(synthesized.resources("AWS::ApiGatewayV2::Authorizer"))

    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]
        for r in synthesized.resources("AWS::ApiGatewayV2::Route").values()
        if r["Properties"]["Target"] == {"Fn::Join": ["", ["integrations/", _ref(integration_id)]]}
    }
    assert set(routes) == PUBLIC | AUTHORIZED
    for key in PUBLIC:
        assert routes[key]["AuthorizationType"] == "NONE", key
        assert "AuthorizerId" not in routes[key], key
    for key in AUTHORIZED:
        assert routes[key]["AuthorizationType"] == "JWT", key
        assert routes[key]["AuthorizerId"] == _ref(authorizer_id), key
    for route in routes.values():
        assert route["ApiId"] == _ref(ids["api"])  # the webhook's API, no second API

    props = authorizer["Properties"]
    assert props["AuthorizerType"] == "JWT"
    assert props["IdentitySource"] == ["$request.header.Authorization"]
    assert props["JwtConfiguration"] == {
        # Exactly the `iss` claim of the pool's tokens, and only this app client's tokens.
        "Issuer": {
            "Fn::Join": [
                "",
                [
                    "https://cognito-idp.",
                    _ref("AWS::Region"),
                    ".",
                    _ref("AWS::URLSuffix"),
                    "/",
                    _ref(ids["pool"]),
                ],
            ]
        },
        "Audience": [_ref(ids["client"])],
    }


def test_api_gateway_may_invoke_the_review_function(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    permissions = [
        p["Properties"]
        for p in synthesized.resources("AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == _arn(ids["function"])
    ]
    assert permissions
    assert {p["Principal"] for p in permissions} == {"apigateway.amazonaws.com"}
    assert {p["Action"] for p in permissions} == {"lambda:InvokeFunction"}


# --- the function ----------------------------------------------------------------------------------


def test_review_function_environment_is_exactly_what_its_settings_read(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    env = _env(synthesized, ids["function"])
    assert set(env) == REVIEW_ENV
    assert env["REVIEW_STORE"] == "dynamodb"
    assert env["CASES_TABLE_NAME"] == _ref(ids["cases"])
    assert env["LEDGER_TABLE_NAME"] == _ref(ids["ledger"])
    # The clarification relay: the user's thread and the WhatsApp sender.
    assert env["CONVERSATION_TABLE_NAME"] == _ref(ids["conversation"])
    assert env["WHATSAPP_SECRET_ID"] == _ref(ids["whatsapp"])
    assert env["WHATSAPP_API_BASE_URL"] == "https://graph.facebook.com/v21.0"
    assert env["POWERTOOLS_SERVICE_NAME"] == "memo-review"
    assert env["HITL_EVENT_BUS_NAME"] == _ref(ids["bus"])
    # Every deployed variable is one the review Lambda's settings read.
    read = {
        field.alias
        for model in (ReviewSettings, AwsSettings, WhatsAppSettings)
        for field in model.model_fields.values()
        if field.alias
    }
    assert set(env) - {"POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE", "LOG_LEVEL"} <= read
    # And they are enough for it to start (the review API and the decision listeners).
    plain = {key: (value if isinstance(value, str) else "resolved-at-deploy") for key, value in env.items()}
    settings = ReviewSettings.from_env(plain)
    assert settings.store == "dynamodb"
    assert settings.ledger_table == settings.conversation_table == "resolved-at-deploy"
    assert settings.whatsapp.secret_id == "resolved-at-deploy"
    assert settings.event_bus == "resolved-at-deploy"


def test_no_function_is_deployed_with_the_dev_token_secret(synthesized: Synthesized) -> None:
    assert "REVIEW_DEV_JWT_SECRET" not in json.dumps(synthesized.template_json)


def test_login_url_is_the_hosted_ui_implicit_grant_back_to_the_page(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    login_url = {
        "Fn::Join": [
            "",
            [
                "https://",
                _ref(ids["domain"]),
                ".auth.",
                _ref("AWS::Region"),
                ".amazoncognito.com/login?client_id=",
                _ref(ids["client"]),
                "&response_type=token&scope=openid+email+profile&redirect_uri=",
                {"Fn::GetAtt": [ids["api"], "ApiEndpoint"]},
                "/review/",
            ],
        ]
    }
    assert _env(synthesized, ids["function"])["REVIEW_LOGIN_URL"] == login_url
    # The implicit grant puts the tokens in the fragment, which is where the page takes id_token from.
    page = (PROJECT_ROOT / "layers/shared/python/caseplatform/review/page.html").read_text()
    assert 'fragment.get("id_token")' in page


def test_review_function_is_watched(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    watched = {
        a["Properties"]["MetricName"]
        for a in synthesized.resources("AWS::CloudWatch::Alarm").values()
        if a["Properties"].get("Dimensions") == [{"Name": "FunctionName", "Value": _ref(ids["function"])}]
    }
    assert watched == {"Errors", "Throttles"}


# --- least privilege -------------------------------------------------------------------------------


def test_review_role_has_exactly_the_permissions_the_review_lambda_uses(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    stack = synthesized.stack
    statements = _role_statements(synthesized, ids["role"])
    cases_arn = _arn(ids["cases"])
    index_arns = [{"Fn::Join": ["", [cases_arn, f"/index/{gsi.name}"]]} for gsi in tables.CASES.gsis]
    assert index_arns, "the cases table has named indexes"
    log_group_arn = _arn(synthesized.logical_id(stack.review.function.log_group))
    # (resource, condition) -> actions; statements with the same resources may be merged by CDK.
    expected = {
        (json.dumps(log_group_arn), "null"): {"logs:CreateLogStream", "logs:PutLogEvents"},
        # X-Ray, and the task-token callbacks: neither has resource-level permissions.
        ('"*"', "null"): {
            "xray:PutTraceSegments",
            "xray:PutTelemetryRecords",
            "states:SendTaskSuccess",
            "states:SendTaskFailure",
        },
        (json.dumps(cases_arn), "null"): CASE_STORE_ACTIONS,
        (json.dumps(_arn(ids["conversation"])), "null"): {
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:DeleteItem",
            "dynamodb:BatchWriteItem",
            "dynamodb:Query",  # the case view's conversation context
        },
        # Agents' notices, on the case platform's bus only.
        (json.dumps(_arn(ids["bus"])), "null"): {"events:PutEvents"},
        # The case view: a waiting step's reminders and notes, read only.
        (json.dumps(_arn(ids["items"])), "null"): {"dynamodb:GetItem", "dynamodb:Query"},
        (json.dumps(_ref(ids["whatsapp"])), "null"): {"secretsmanager:GetSecretValue"},
        # Each query of the API reads one of the indexes: Query only.
        **{(json.dumps(index_arn), "null"): {"dynamodb:Query"} for index_arn in index_arns},
        # The withdrawals the turn hands over: what the event source mapping calls with this role.
        (json.dumps(_arn(synthesized.logical_id(stack.review.withdrawals))), "null"): {
            "sqs:ReceiveMessage",
            "sqs:DeleteMessage",
            "sqs:GetQueueAttributes",
        },
        (
            json.dumps(_arn(ids["ledger"])),
            json.dumps({"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["REVIEW#*"]}}),
        ): {"dynamodb:GetItem", "dynamodb:DeleteItem"},
    }
    actual: dict[tuple[str, str], set[str]] = {}
    for statement in statements:
        assert statement["Effect"] == "Allow"
        for resource in _as_list(statement["Resource"]):
            key = (json.dumps(resource), json.dumps(statement.get("Condition")))
            actual.setdefault(key, set()).update(_as_list(statement["Action"]))
    assert actual == expected
    role = synthesized.template_json["Resources"][ids["role"]]["Properties"]
    assert "ManagedPolicyArns" not in role
    assert "Policies" not in role


def test_the_ledger_is_read_and_deleted_only_for_review_token_keys(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    on_ledger = [
        s for s in _role_statements(synthesized, ids["role"]) if ids["ledger"] in json.dumps(s["Resource"])
    ]
    assert on_ledger == [
        {
            "Action": ["dynamodb:DeleteItem", "dynamodb:GetItem"],
            "Condition": {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["REVIEW#*"]}},
            "Effect": "Allow",
            "Resource": _arn(ids["ledger"]),
        }
    ]


def test_review_role_touches_no_other_table(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    granted = json.dumps(_role_statements(synthesized, ids["role"]))
    for spec in tables.ALL_TABLES:
        if spec not in (tables.CASES, tables.LEDGER, tables.CONVERSATION, tables.ITEMS):
            assert synthesized.logical_id(synthesized.stack.store.table(spec)) not in granted, spec.logical_id


def _grants_send_task(statement: dict[str, Any], actions: tuple[str, ...] = SEND_TASK_ACTIONS) -> bool:
    return statement["Effect"] == "Allow" and any(
        fnmatchcase(send.lower(), action.lower())
        for action in _as_list(statement.get("Action", []))
        for send in actions
    )


def _roles_granted(synthesized: Synthesized, actions: tuple[str, ...]) -> set[str]:
    roles: set[str] = set()
    for policy in synthesized.resources("AWS::IAM::Policy").values():
        if any(_grants_send_task(s, actions) for s in policy["Properties"]["PolicyDocument"]["Statement"]):
            roles.update(r["Ref"] for r in policy["Properties"]["Roles"])
    for role_id, role in synthesized.resources("AWS::IAM::Role").items():
        for inline in role["Properties"].get("Policies", []):
            if any(_grants_send_task(s, actions) for s in inline["PolicyDocument"]["Statement"]):
                roles.add(role_id)
    return roles


def test_only_the_review_lambda_may_answer_a_reviewed_step(synthesized: Synthesized) -> None:
    """Only the review Lambda may send task success, failure or heartbeats, wildcards included: the
    internet-facing webhook hands a user's withdrawal to it through the withdrawals queue."""
    assert synthesized.resources("AWS::IAM::ManagedPolicy") == {}
    review_role = _ids(synthesized)["role"]
    assert _roles_granted(synthesized, SEND_TASK_ACTIONS) == {review_role}
    assert _roles_granted(synthesized, ("states:SendTaskFailure",)) == {review_role}


def test_withdrawals_reach_the_review_function_from_the_webhook_only(synthesized: Synthesized) -> None:
    """The webhook sends a withdrawn case to the withdrawals queue (SendMessage only, and the queue's
    URL in its environment); the queue triggers the review function with partial batch failures and
    moves a notice it keeps failing to an alarmed dead-letter queue."""
    stack = synthesized.stack
    queue_id = synthesized.logical_id(stack.review.withdrawals)
    queue_arn = _arn(queue_id)
    webhook = synthesized.template_json["Resources"][synthesized.logical_id(stack.webhook.function)]
    assert webhook["Properties"]["Environment"]["Variables"][tables.WITHDRAWAL_QUEUE_ENV_VAR] == {
        "Ref": queue_id
    }
    senders = {
        role["Ref"]
        for policy in synthesized.resources("AWS::IAM::Policy").values()
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        if "sqs:SendMessage" in _as_list(statement["Action"]) and queue_arn in _as_list(statement["Resource"])
        for role in policy["Properties"]["Roles"]
    }
    assert senders == {synthesized.logical_id(stack.webhook.role)}
    (mapping,) = [
        m["Properties"]
        for m in synthesized.resources("AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["EventSourceArn"] == queue_arn
    ]
    assert mapping["FunctionName"] == {"Ref": synthesized.logical_id(stack.review.function.function)}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    queue = synthesized.template_json["Resources"][queue_id]["Properties"]
    assert queue["RedrivePolicy"]["maxReceiveCount"] == tables.WITHDRAWAL_QUEUE_MAX_RECEIVE_COUNT
    assert queue["VisibilityTimeout"] == 180  # six times the review function's timeout
    alarms = [
        a["Properties"]["AlarmDescription"] for a in synthesized.resources("AWS::CloudWatch::Alarm").values()
    ]
    assert "Memo WithdrawalDeadLetterQueue: messages were moved to the dead-letter queue" in alarms


def test_send_task_check_sees_wildcards() -> None:
    assert _grants_send_task({"Effect": "Allow", "Action": "states:*"})
    assert _grants_send_task({"Effect": "Allow", "Action": ["s3:GetObject", "states:SendTask*"]})
    assert _grants_send_task({"Effect": "Allow", "Action": "*"})
    assert not _grants_send_task({"Effect": "Allow", "Action": "states:StartExecution"})
    assert not _grants_send_task({"Effect": "Deny", "Action": "states:*"})


# --- Cognito ---------------------------------------------------------------------------------------


def test_user_pool_is_admin_only_with_strong_passwords_mfa_and_threat_protection(
    synthesized: Synthesized,
) -> None:
    _, pool = _only(synthesized.resources("AWS::Cognito::UserPool"))
    assert pool["DeletionPolicy"] == "Retain"  # the reviewers' accounts outlive a stack update
    props = pool["Properties"]
    assert props["AdminCreateUserConfig"] == {"AllowAdminCreateUserOnly": True}
    assert props["UsernameAttributes"] == ["email"]
    assert props["Policies"]["PasswordPolicy"] == {
        "MinimumLength": 14,
        "RequireLowercase": True,
        "RequireNumbers": True,
        "RequireSymbols": True,
        "RequireUppercase": True,
        "TemporaryPasswordValidityDays": 3,
    }
    assert props["MfaConfiguration"] == "ON"
    assert props["EnabledMfas"] == ["SOFTWARE_TOKEN_MFA"]  # TOTP; no SMS, so no SNS role
    assert props["UserPoolTier"] == "PLUS"
    assert props["UserPoolAddOns"] == {"AdvancedSecurityMode": "ENFORCED"}
    assert props["DeletionProtection"] == "ACTIVE"
    assert props["AccountRecoverySetting"] == {
        "RecoveryMechanisms": [{"Name": "verified_email", "Priority": 1}]
    }
    assert synthesized.resources("AWS::Cognito::IdentityPool") == {}


def test_app_client_is_the_hosted_ui_implicit_grant_to_the_review_page(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    _, client = _only(synthesized.resources("AWS::Cognito::UserPoolClient"))
    props = client["Properties"]
    assert props["UserPoolId"] == _ref(ids["pool"])
    assert props["GenerateSecret"] is False  # a browser page cannot keep a secret
    assert props["AllowedOAuthFlowsUserPoolClient"] is True
    assert props["AllowedOAuthFlows"] == ["implicit"]
    assert props["AllowedOAuthScopes"] == ["openid", "email", "profile"]
    assert props["CallbackURLs"] == [_review_url(ids["api"])]
    assert props["LogoutURLs"] == [_review_url(ids["api"])]
    assert props["SupportedIdentityProviders"] == ["COGNITO"]
    assert props["PreventUserExistenceErrors"] == "ENABLED"
    assert props["IdTokenValidity"] == 60
    assert props["TokenValidityUnits"]["IdToken"] == "minutes"


def test_hosted_ui_domain_prefix_defaults_to_one_per_account(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    _, domain = _only(synthesized.resources("AWS::Cognito::UserPoolDomain"))
    assert domain["Properties"] == {
        "Domain": {"Fn::Join": ["", ["memo-review-", _ref("AWS::AccountId")]]},
        "UserPoolId": _ref(ids["pool"]),
    }


def test_reviewer_and_agent_groups_per_adapter(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    groups = synthesized.resources("AWS::Cognito::UserPoolGroup").values()
    assert {g["Properties"]["GroupName"] for g in groups} == GROUPS
    assert len(groups) == len(GROUPS)
    for group in groups:
        assert group["Properties"]["UserPoolId"] == _ref(ids["pool"])
        assert "RoleArn" not in group["Properties"]  # a group grants API rights only, no AWS role


def test_outputs_name_the_page_the_sign_in_and_the_pool(synthesized: Synthesized) -> None:
    ids = _ids(synthesized)
    outputs = synthesized.template_json["Outputs"]
    assert outputs["ReviewUrl"]["Value"] == _review_url(ids["api"])
    assert outputs["UserPoolId"]["Value"] == _ref(ids["pool"])
    assert outputs["UserPoolClientId"]["Value"] == _ref(ids["client"])
    assert outputs["ReviewLoginUrl"]["Value"] == _env(synthesized, ids["function"])["REVIEW_LOGIN_URL"]


# --- settings --------------------------------------------------------------------------------------


def test_context_settings_reach_the_review_pieces(variant: Synthesized) -> None:
    _, domain = _only(variant.resources("AWS::Cognito::UserPoolDomain"))
    assert domain["Properties"]["Domain"] == OVERRIDES["review_domain_prefix"]
    # One review policy for every function that reads it.
    stack = variant.stack
    for function in (
        stack.webhook.function,
        stack.executor_workflow.review_submit.function,
        stack.review.function.function,
    ):
        env = _env(variant, variant.logical_id(function))
        assert env["MEMO_REVIEW_POLICY"] == OVERRIDES["review_policy"], function.node.path
    review_env = _env(variant, variant.logical_id(stack.review.function.function))
    assert set(review_env) == REVIEW_ENV | {"MEMO_REVIEW_POLICY"}
    assert review_env["WHATSAPP_API_BASE_URL"] == OVERRIDES["whatsapp_api_base_url"]


def test_without_a_policy_setting_no_function_gets_one(synthesized: Synthesized) -> None:
    assert "MEMO_REVIEW_POLICY" not in json.dumps(synthesized.template_json)


def test_review_policy_from_cdk_json_may_be_an_object() -> None:
    policy = {"rules": [{"action": "clear", "min_items": 5}], "timeout_seconds": 3600}
    settings = StackSettings.from_context(App(context={"review_policy": policy}).node)
    assert settings.review_policy is not None
    assert json.loads(settings.review_policy) == policy


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"review_domain_prefix": "Memo-Review"}, "review_domain_prefix"),
        ({"review_domain_prefix": "-memo"}, "review_domain_prefix"),
        ({"review_domain_prefix": "memo-cognito-review"}, "review_domain_prefix"),
        ({"review_domain_prefix": "x" * 64}, "review_domain_prefix"),
        ({"review_policy": "policies/review.json"}, "review_policy"),
        ({"review_policy": '{"rules": [{"min_items": 0}]}'}, "review_policy"),
        ({"review_policy": '{"timeout_seconds": 1, "unknown": true}'}, "review_policy"),
    ],
)
def test_bad_review_settings_stop_the_synthesis(context: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        StackSettings.from_context(App(context=context).node)


# --- cdk-nag ---------------------------------------------------------------------------------------


def _review_findings(synth: Synthesized) -> set[tuple[str, str]]:
    """Findings on the review construct (paths relative to it) and on the review routes (which live
    under the HTTP API, as `Api/<METHOD>--<path>`)."""
    prefix = f"{STACK_NAME}/Review/"
    api_prefix = f"{STACK_NAME}/Ingress/Api/"
    report = AwsSolutionsChecks().validate_scope(synth.stack)
    return {
        (path.removeprefix(prefix).removeprefix(f"{STACK_NAME}/Ingress/"), violation.rule_name)
        for violation in report.violations
        for path in (r.construct_path or "" for r in violation.violating_resources)
        if path.startswith(prefix)
        or path.startswith(f"{api_prefix}GET--review")
        or path.startswith(f"{api_prefix}POST--review")
        or "ReviewAuthorizer" in path
    }


def test_review_has_no_unacknowledged_findings(synthesized: Synthesized) -> None:
    assert _review_findings(synthesized) == set()


def test_every_review_acknowledgment_is_needed_and_cognito_needs_none(variant: Synthesized) -> None:
    """With acknowledgments off, exactly these findings show up: the public routes (APIG4), the Python
    runtime pin (L1) and the '*' statements of the role (X-Ray, SendTask*); Cognito passes as built."""
    assert _review_findings(variant) == {
        ("Api/GET--review/Resource", "AwsSolutions-APIG4"),
        ("Api/GET--review--openapi.json/Resource", "AwsSolutions-APIG4"),
        ("Api/GET--review--swagger/Resource", "AwsSolutions-APIG4"),
        ("Function/Role/DefaultPolicy/Resource", "AwsSolutions-IAM5[Resource::*]"),
        ("Function/Function/Resource", "AwsSolutions-L1"),
    }


def test_review_role_acknowledgment_names_the_task_token_actions(synthesized: Synthesized) -> None:
    metadata = json.loads((synthesized.outdir / f"{STACK_NAME}.metadata.json").read_text())
    reasons = [
        reason
        for entry in metadata[f"/{STACK_NAME}/Review/Function/Role"]
        if entry["type"] == "aws:cdk:acknowledged-rules"
        for rule, reason in entry["data"].items()
        if rule == "Annotation::AwsSolutions-IAM5[Resource::*]"
    ]
    # The role's own acknowledgment comes last and so is the one that stands.
    assert "states:SendTaskSuccess/SendTaskFailure" in reasons[-1]
    assert "Service Authorization Reference" in reasons[-1]
