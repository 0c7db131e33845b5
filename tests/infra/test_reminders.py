"""The Reminders construct in a small stack of its own (the lead composes the real one), with cdk-nag."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App, Stack, Validations
from aws_cdk import aws_logs as logs
from aws_cdk.assertions import Template
from cdk_nag import AwsSolutionsChecks

from infra.conversation_store import ConversationStore
from infra.lambdas import FunctionDefaults, SharedLayers
from infra.monitoring import Monitoring
from infra.reminders import Reminders
from infra.secrets import AppSecrets
from memo import tables
from memo.settings import ScheduleDeliverySettings


class Built:
    def __init__(
        self, stack: Stack, reminders: Reminders, store: ConversationStore, secrets: AppSecrets
    ) -> None:
        self.stack = stack
        self.reminders = reminders
        self.store = store
        self.secrets = secrets
        self.template = Template.from_stack(stack)
        self.json: dict[str, Any] = dict(self.template.to_json())

    def logical_id(self, construct: Any) -> str:
        child = getattr(construct.node, "default_child", None) or construct
        return str(self.stack.resolve(child.logical_id))

    def resources(self, kind: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.json["Resources"].items() if v["Type"] == kind}

    def statements(self, role: Any) -> list[dict[str, Any]]:
        role_id = self.logical_id(role)
        return [
            statement
            for policy in self.resources("AWS::IAM::Policy").values()
            if {"Ref": role_id} in policy["Properties"]["Roles"]
            for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        ]

    def actions_on(self, role: Any, resource: Any) -> set[str]:
        found: set[str] = set()
        for statement in self.statements(role):
            resources = (
                statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
            )
            if resource in resources:
                actions = statement["Action"]
                found |= set(actions if isinstance(actions, list) else [actions])
        return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    app, stack, reminders, store, secrets = _build(tmp_path_factory.mktemp("cdk.out.reminders"))
    app.synth()  # raises if cdk-nag finds an unacknowledged error
    return Built(stack, reminders, store, secrets)


def test_schedule_group_and_exposed_names(built: Built) -> None:
    built.template.has_resource_properties("AWS::Scheduler::ScheduleGroup", {"Name": "memo-reminders"})
    # Not retained: its schedules would invoke a deleted function through a deleted role, and a kept
    # group of this fixed name would make the next deployment fail ("already exists").
    group = built.json["Resources"][built.logical_id(built.reminders.group)]
    assert group["DeletionPolicy"] == "Delete" and group["UpdateReplacePolicy"] == "Delete"
    assert built.reminders.group_name == "memo-reminders"
    assert built.stack.resolve(built.reminders.group_arn) == {
        "Fn::GetAtt": [built.logical_id(built.reminders.group), "Arn"]
    }


def test_scheduler_role_invokes_exactly_the_reminders_function(built: Built) -> None:
    role = built.reminders.scheduler_role
    function_arn = {"Fn::GetAtt": [built.logical_id(built.reminders.function), "Arn"]}
    statements = built.statements(role)
    schedule_dlq = {"Fn::GetAtt": [built.logical_id(built.reminders.schedule_dead_letter_queue), "Arn"]}
    assert [(s["Action"], s["Resource"]) for s in statements] == [
        ("lambda:InvokeFunction", function_arn),
        ("sqs:SendMessage", schedule_dlq),  # what the Scheduler could not deliver, with this role
    ]
    trust = built.json["Resources"][built.logical_id(role)]["Properties"]["AssumeRolePolicyDocument"]
    [assume] = trust["Statement"]
    assert assume["Principal"] == {"Service": "scheduler.amazonaws.com"}
    assert assume["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
    assert assume["Condition"]["ArnEquals"] == {
        "aws:SourceArn": {"Fn::GetAtt": [built.logical_id(built.reminders.group), "Arn"]}
    }


def test_the_function_has_least_privilege(built: Built) -> None:
    role = built.reminders.lambda_function.role
    items = {"Fn::GetAtt": [built.logical_id(built.store.table(tables.ITEMS)), "Arn"]}
    conversation = {"Fn::GetAtt": [built.logical_id(built.store.table(tables.CONVERSATION)), "Arn"]}
    assert built.actions_on(role, items) == {"dynamodb:GetItem", "dynamodb:UpdateItem"}
    assert built.actions_on(role, conversation) == {"dynamodb:Query", "dynamodb:BatchWriteItem"}
    whatsapp = {"Ref": built.logical_id(built.secrets.whatsapp)}
    assert built.actions_on(role, whatsapp) == {"secretsmanager:GetSecretValue"}
    openai = {"Ref": built.logical_id(built.secrets.openai)}
    assert built.actions_on(role, openai) == set()
    every = {
        a
        for s in built.statements(role)
        for a in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
    }
    assert not {
        a
        for a in every
        if a.startswith("dynamodb:")
        and a not in {"dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:Query", "dynamodb:BatchWriteItem"}
    }
    assert "lambda:InvokeFunction" not in every and "scheduler:CreateSchedule" not in every


def test_function_configuration(built: Built) -> None:
    function = built.json["Resources"][built.logical_id(built.reminders.function)]["Properties"]
    env = function["Environment"]["Variables"]
    assert env["WHATSAPP_REMINDER_TEMPLATE"] == "memo_reminder_v2"
    assert env["WHATSAPP_REMINDER_TEMPLATE_LANGUAGES"] == "en=en_US,he=he"
    assert env["WHATSAPP_API_BASE_URL"] == "https://graph.example.test/v21.0"
    assert env["WHATSAPP_SECRET_ID"] == {"Ref": built.logical_id(built.secrets.whatsapp)}
    assert env["ITEMS_TABLE_NAME"] == {"Ref": built.logical_id(built.store.table(tables.ITEMS))}
    assert env["CONVERSATION_TABLE_NAME"] == {"Ref": built.logical_id(built.store.table(tables.CONVERSATION))}
    assert "OPENAI_SECRET_ID" not in env
    assert function["TracingConfig"] == {"Mode": "Active"}
    assert function["LoggingConfig"]["LogFormat"] == "JSON"


def test_failed_deliveries_land_in_an_alarmed_dead_letter_queue(built: Built) -> None:
    queue_id = built.logical_id(built.reminders.dead_letter_queue)
    [config] = built.resources("AWS::Lambda::EventInvokeConfig").values()
    assert config["Properties"]["MaximumRetryAttempts"] == 2
    assert config["Properties"]["DestinationConfig"]["OnFailure"]["Destination"] == {
        "Fn::GetAtt": [queue_id, "Arn"]
    }
    # Lambda sends the failed event with the function's role: SendMessage on that queue, nothing more.
    queue_arn = {"Fn::GetAtt": [queue_id, "Arn"]}
    assert built.actions_on(built.reminders.lambda_function.role, queue_arn) == {"sqs:SendMessage"}
    alarms = {
        a["Properties"]["AlarmDescription"]: a["Properties"]
        for a in built.resources("AWS::CloudWatch::Alarm").values()
    }
    assert "Memo Reminders function: invocations ended in an error" in alarms
    dlq = alarms["Memo ReminderDeadLetterQueue: messages were moved to the dead-letter queue"]
    assert dlq["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [queue_id, "QueueName"]}}]


def _build(outdir: Path) -> tuple[App, Stack, Reminders, ConversationStore, AppSecrets]:
    app = App(context={"aws:cdk:bundling-stacks": []}, outdir=str(outdir))
    stack = Stack(app, "RemindersTest")
    Validations.of(stack).add_plugins(AwsSolutionsChecks(stack))
    store = ConversationStore(stack, "Store")
    secrets = AppSecrets(stack, "Secrets")
    monitoring = Monitoring(stack, "Monitoring")
    layers = SharedLayers(stack, "Layers")
    reminders = Reminders(
        stack,
        "Reminders",
        defaults=FunctionDefaults(layers=layers.layers, log_retention=logs.RetentionDays.ONE_MONTH),
        items_table=store.table(tables.ITEMS),
        conversation_table=store.table(tables.CONVERSATION),
        app_secrets=secrets,
        whatsapp_api_base_url="https://graph.example.test/v21.0",
        template_name="memo_reminder_v2",
        template_languages="en=en_US,he=he",
        monitoring=monitoring,
    )
    return app, stack, reminders, store, secrets


def test_cdk_nag_runs_and_the_dead_letter_queue_acknowledgment_is_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Validations.acknowledge

    def without_sqs3(self: Validations, *rules: Any) -> None:
        kept = [r for r in rules if r.id != "AwsSolutions-SQS3"]
        if kept:
            original(self, *kept)

    monkeypatch.setattr(Validations, "acknowledge", without_sqs3)
    app, *_ = _build(tmp_path)
    with pytest.raises(RuntimeError, match="AwsSolutions-SQS3"):
        app.synth()


def test_schedules_retry_then_go_to_an_alarmed_dead_letter_queue(built: Built) -> None:
    """Every schedule's target carries a retry policy and the schedule dead-letter queue
    (`delivery_environment`, read by `memo.settings.ScheduleDeliverySettings`): what the Scheduler
    could not deliver is kept and alarmed, not dropped."""
    queue_id = built.logical_id(built.reminders.schedule_dead_letter_queue)
    environment = built.stack.resolve(built.reminders.delivery_environment())
    assert environment == {
        "REMINDER_DEAD_LETTER_ARN": {"Fn::GetAtt": [queue_id, "Arn"]},
        "REMINDER_RETRY_ATTEMPTS": "20",
        "REMINDER_MAX_EVENT_AGE_SECONDS": "3600",
    }
    delivery = ScheduleDeliverySettings.from_env({**environment, "REMINDER_DEAD_LETTER_ARN": "arn:dlq"})
    assert (delivery.dead_letter_arn, delivery.retry_attempts, delivery.max_event_age_seconds) == (
        "arn:dlq",
        20,
        3600,
    )
    queue = built.json["Resources"][queue_id]["Properties"]
    assert queue["SqsManagedSseEnabled"] is True  # the Scheduler needs no key grant to send
    alarms = {
        a["Properties"]["AlarmDescription"]: a["Properties"]
        for a in built.resources("AWS::CloudWatch::Alarm").values()
    }
    depth = alarms["Memo ReminderScheduleDeadLetterQueue: messages were moved to the dead-letter queue"]
    assert depth["Dimensions"] == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [queue_id, "QueueName"]}}]
    assert depth["Threshold"] == 0
