"""Reminders: the EventBridge Scheduler group, the reminders Lambda (the schedules' target) and the
role the Scheduler assumes to invoke it.

    executor Lambda ── CreateSchedule (group, role) ──> Scheduler group ── at(...) in the user's zone
        ──> scheduler role ── lambda:InvokeFunction ──> reminders Lambda ──> WhatsApp
              │ not invoked after the target's retry policy     │ failed after Lambda's async retries
              └──> schedule dead-letter queue (alarmed)         └──> dead-letter queue (alarmed)

The executor workflow construct creates the schedules; it takes `group_name`, `scheduler_role` and
`function` from here (and needs iam:PassRole on the role), and `delivery_environment()`: the retry
policy and dead-letter queue every schedule's target carries (`memo.aws.scheduler`).

The group is deleted with the stack (it is not retained): its schedules invoke this stack's
function through this stack's role, both deleted with it, and a retained group of a fixed name would
make the next deployment of the same name fail. Least privilege for the Lambda: the items
table GetItem/UpdateItem (read the reminder, claim and mark it sent with conditional updates), the
conversation table Query/BatchWriteItem (profile and 24-hour window; the reminder in memory), the
WhatsApp secret's value, and SendMessage to its own dead-letter queue (Lambda's on-failure
destination sends with the function's role).
"""

from __future__ import annotations

import jsii
from aws_cdk import Acknowledgment, Duration, RemovalPolicy, Stack, Validations
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.lambdas import FunctionDefaults, MemoFunction
from infra.monitoring import Monitoring
from infra.secrets import WHATSAPP_SECRET_ENV_VAR, AppSecrets, grant_secret_value
from memo import tables
from memo.settings import (
    SCHEDULE_DEAD_LETTER_ENV_VAR,
    SCHEDULE_GROUP_ENV_VAR,
    SCHEDULE_MAX_EVENT_AGE_ENV_VAR,
    SCHEDULE_RETRY_ATTEMPTS_ENV_VAR,
)

DEFAULT_GROUP_NAME = "memo-reminders"  # the local runtime's group (memo.local.ticker) too
SCHEDULER_PRINCIPAL = "scheduler.amazonaws.com"
ITEMS_ACTIONS = ("dynamodb:GetItem", "dynamodb:UpdateItem")
CONVERSATION_ACTIONS = ("dynamodb:Query", "dynamodb:BatchWriteItem")
REMINDERS_TIMEOUT = Duration.seconds(30)
# Lambda's asynchronous invocation retries (the Scheduler invokes its Lambda target asynchronously).
ASYNC_RETRY_ATTEMPTS = 2
# The schedules' target retry policy (the stack's `reminder_retry_attempts` and
# `reminder_max_event_age_seconds`): the Scheduler retries an invocation it could not make, for at
# most an hour (a reminder later than that is no use), then puts it on the schedule dead-letter queue.
DEFAULT_RETRY_ATTEMPTS = 20
DEFAULT_MAX_EVENT_AGE = Duration.hours(1)


@jsii.implements(lambda_.IDestination)
class QueueDestination:
    """An SQS on-failure destination for which Lambda sends with the function's role: SendMessage on
    the queue only (`SqsDestination` grants GetQueueAttributes and GetQueueUrl too, which Lambda does
    not call)."""

    def __init__(self, queue: sqs.IQueue) -> None:
        self._queue = queue

    def bind(
        self, _scope: Construct, fn: lambda_.IFunction, *, type: lambda_.DestinationType | None = None
    ) -> lambda_.DestinationConfig:
        fn.add_to_role_policy(
            iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[self._queue.queue_arn])
        )
        return lambda_.DestinationConfig(destination=self._queue.queue_arn)


class Reminders(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        defaults: FunctionDefaults,
        items_table: dynamodb.ITableV2,
        conversation_table: dynamodb.ITableV2,
        app_secrets: AppSecrets,
        whatsapp_api_base_url: str,
        template_name: str = "memo_reminder",
        template_languages: str = "en=en,he=he",
        phone_number_id: str | None = None,
        schedule_group_name: str = DEFAULT_GROUP_NAME,
        retry_attempts: int = DEFAULT_RETRY_ATTEMPTS,
        max_event_age: Duration = DEFAULT_MAX_EVENT_AGE,
        monitoring: Monitoring | None = None,
    ) -> None:
        super().__init__(scope, construct_id)
        self.group = scheduler.ScheduleGroup(
            self, "Group", schedule_group_name=schedule_group_name, removal_policy=RemovalPolicy.DESTROY
        )
        self.group_name = schedule_group_name
        self.group_arn = self.group.schedule_group_arn
        self.dead_letter_queue = self._dead_letter_queue(
            "DeadLetterQueue", "the dead-letter destination of the reminders Lambda's async invocations"
        )
        self.schedule_dead_letter_queue = self._dead_letter_queue(
            "ScheduleDeadLetterQueue", "the dead-letter queue of the reminder schedules' target"
        )
        self.retry_attempts = retry_attempts
        self.max_event_age = max_event_age

        environment = {
            **{
                spec.env_var: table.table_name
                for spec, table in ((tables.ITEMS, items_table), (tables.CONVERSATION, conversation_table))
            },
            WHATSAPP_SECRET_ENV_VAR: app_secrets.whatsapp.secret_arn,
            "WHATSAPP_API_BASE_URL": whatsapp_api_base_url,
            "WHATSAPP_REMINDER_TEMPLATE": template_name,
            "WHATSAPP_REMINDER_TEMPLATE_LANGUAGES": template_languages,
            SCHEDULE_GROUP_ENV_VAR: schedule_group_name,
        }
        if phone_number_id:
            environment["WHATSAPP_PHONE_NUMBER_ID"] = phone_number_id
        self.lambda_function = self._reminders_function(defaults, environment)
        self.function: lambda_.Function = self.lambda_function.function
        items_table.grant(self.lambda_function.role, *ITEMS_ACTIONS)
        conversation_table.grant(self.lambda_function.role, *CONVERSATION_ACTIONS)
        grant_secret_value(app_secrets.whatsapp, self.lambda_function.role)
        self._grant_leftover_deletes()
        self.scheduler_role = self._scheduler_role()

        if monitoring is not None:
            monitoring.watch_function("Reminders", self.function)
            monitoring.watch_dead_letter_queue("ReminderDeadLetterQueue", self.dead_letter_queue)
            monitoring.watch_dead_letter_queue(
                "ReminderScheduleDeadLetterQueue", self.schedule_dead_letter_queue
            )

    def _dead_letter_queue(self, construct_id: str, what: str) -> sqs.Queue:
        """Where a reminder lands that could not be delivered (SQS-managed encryption: the Scheduler
        and Lambda need no key grant)."""
        queue = sqs.Queue(
            self,
            construct_id,
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        Validations.of(queue).acknowledge(
            Acknowledgment(id="AwsSolutions-SQS3", reason=f"This queue is {what}.")
        )
        return queue

    def _grant_leftover_deletes(self) -> None:
        """The function deletes the schedule that fired for a deleted reminder (a delete's cancel
        that failed after the delete committed), in the reminders' group only."""
        self.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["scheduler:DeleteSchedule"],
                resources=[
                    Stack.of(self).format_arn(
                        service="scheduler", resource="schedule", resource_name=f"{self.group_name}/*"
                    )
                ],
            )
        )
        Validations.of(self.lambda_function.role).acknowledge(
            Acknowledgment(
                id="AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:"
                f"schedule/{self.group_name}/*]",
                reason="Schedule names are per reminder, so the resource is the reminders' schedule group, "
                "never another group; the function only deletes there.",
            )
        )

    def delivery_environment(self) -> dict[str, str]:
        """For the functions that create or move schedules: the target's retry policy and dead-letter
        queue (`memo.settings.ScheduleDeliverySettings`)."""
        return {
            SCHEDULE_DEAD_LETTER_ENV_VAR: self.schedule_dead_letter_queue.queue_arn,
            SCHEDULE_RETRY_ATTEMPTS_ENV_VAR: str(self.retry_attempts),
            SCHEDULE_MAX_EVENT_AGE_ENV_VAR: str(int(self.max_event_age.to_seconds())),
        }

    def _reminders_function(self, defaults: FunctionDefaults, environment: dict[str, str]) -> MemoFunction:
        """The schedules' target, retried asynchronously, then sent to the dead-letter queue."""
        reminders = MemoFunction(
            self,
            "Function",
            name="reminders",
            defaults=defaults,
            description="Memo reminders: the Scheduler target that sends a due reminder on WhatsApp",
            timeout=REMINDERS_TIMEOUT,
            environment=environment,
        )
        reminders.function.configure_async_invoke(
            retry_attempts=ASYNC_RETRY_ATTEMPTS,
            on_failure=QueueDestination(self.dead_letter_queue),
        )
        return reminders

    def _scheduler_role(self) -> iam.Role:
        """The role the Scheduler assumes, for this account's schedule group only, to invoke the function."""
        role = iam.Role(
            self,
            "SchedulerRole",
            description="EventBridge Scheduler: invoke the Memo reminders function",
            assumed_by=iam.ServicePrincipal(
                SCHEDULER_PRINCIPAL,
                conditions={
                    "StringEquals": {"aws:SourceAccount": Stack.of(self).account},
                    "ArnEquals": {"aws:SourceArn": self.group_arn},
                },
            ),
        )
        role.add_to_principal_policy(
            iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=[self.function.function_arn])
        )
        # What the Scheduler could not deliver goes to the dead-letter queue with the schedule's role.
        role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["sqs:SendMessage"], resources=[self.schedule_dead_letter_queue.queue_arn]
            )
        )
        return role
