"""The Memo stack: one stack composed of one construct per capability.

    WhatsApp ──> WebhookIngress (HTTP API) ──> webhook MemoFunction ──> TurnQueue (FIFO) ──┐
                                                    ^                                      │
                                                    └──────── SQS event source ────────────┘
    ConversationStore (DynamoDB), AppSecrets (Secrets Manager), Monitoring (alarms -> SNS)
    CasePlatform: the HITL case platform's table, its hourly escalation sweep, the agents' notice bus
        (EventBridge) and the archive bucket (S3) of the daily retention job
    Review: the review Lambda on the same HTTP API (/review...), Cognito user pool + JWT authorizer;
        a decision answers the waiting step's task token (SendTaskSuccess / SendTaskFailure)

    turn path ──StartExecution──> ExecutorWorkflow (Standard state machine: executor Lambda per
        step, then the responder Lambda) ── executor CreateSchedule ──> Reminders (Scheduler group,
        scheduler role) ── at the reminder's time ──> reminders Lambda ──> WhatsApp

The webhook starts executions of exactly that state machine, reads (GetItem/Query) the items
table for entity resolution (plans write items through the executor), records users' answers to
operators' questions and withdrawals on the cases table, and hands a withdrawal to the review
function's withdrawals queue (it answers no task token). Every function is watched by
Monitoring: Reminders watches its own function and dead-letter queue, the stack the others.

Adding a function: build it with `MemoFunction(self, "<Name>", name="<dir under functions/>",
defaults=self.function_defaults, ...)`, grant it what it uses (`self.store.table(SPEC).grant_*`,
`self.secrets.grant_read`, ...) and `self.monitoring.watch_function("<Name>", fn.function)`.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import Acknowledgment, CfnOutput, Duration, Stack, Validations
from aws_cdk import aws_iam as iam
from constructs import Construct

from infra.case_platform import CasePlatform, grant_case_store
from infra.conversation_store import ConversationStore
from infra.executor_workflow import ExecutorWorkflow
from infra.ingress import WebhookIngress
from infra.lambdas import FunctionDefaults, MemoFunction, SharedLayers
from infra.monitoring import Monitoring
from infra.reminders import Reminders
from infra.review import Review
from infra.secrets import AppSecrets
from infra.settings import StackSettings
from infra.turn_queue import TurnQueue
from memo import tables
from memo.operator_review.policy import REVIEW_POLICY_ENV_VAR

WEBHOOK_TIMEOUT = Duration.seconds(60)
# The functions that open cases or add to them store them with e-mail addresses and phone numbers
# masked (`caseplatform.redaction.mask_contacts`; Memo's own flow runs the waiting step's args, never
# the masked payload, and refuses an edit of a masked one: `memo.operator_review.edits`).
HITL_REDACT_ENV_VAR = "HITL_REDACT"
DEPLOYED_REDACTION = "contacts"

# What the turn calls on the conversation table: the thread's load (Query), the pending question, the
# review waits, the outbound log and the quotes (GetItem, PutItem, UpdateItem, DeleteItem; the turn's
# one TransactWriteItems is authorized per item: Put and Delete). No Scan, no batch, no stream.
WEBHOOK_CONVERSATION_ACTIONS = (
    "dynamodb:Query",
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
)
# What `memo.aws.idempotency` calls: the record is read once, and written whole (never updated or
# deleted: the turn's own transaction completes it).
IDEMPOTENCY_ACTIONS = ("dynamodb:GetItem", "dynamodb:PutItem")
# Entity resolution reads the user's items (`DynamoItemsRepository` get/list). The turn writes them
# only to follow WhatsApp events: a changed number moves them (`memo.aws.number_move`: PutItem,
# DeleteItem), a failed reminder delivery is marked on its item (`memo.aws.reminder_failures`).
WEBHOOK_ITEMS_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
)
# The turn's case queries: a step's case by its ref (a withdrawal) and the answer to a question.
WEBHOOK_CASE_INDEXES = ("GSI1",)
# A changed number re-points the user's reminder schedules at the new number.
WEBHOOK_SCHEDULE_ACTIONS = ("scheduler:CreateSchedule", "scheduler:UpdateSchedule")


class MemoStack(Stack):
    """Memo's deployed backend. Settings come from CDK context unless passed in."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: StackSettings | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault(
            "description", "Memo: WhatsApp assistant backend with a human-in-the-loop control plane"
        )
        super().__init__(scope, construct_id, **kwargs)
        self.settings = settings or StackSettings.from_context(self.node)
        # One review policy for the functions that read it: the webhook (turn), review submit, review;
        # the same functions open cases (and add answers to them), each with contacts masked.
        self.review_environment = {
            HITL_REDACT_ENV_VAR: DEPLOYED_REDACTION,
            **({REVIEW_POLICY_ENV_VAR: self.settings.review_policy} if self.settings.review_policy else {}),
        }

        self.store = ConversationStore(self, "ConversationStore")
        self.turn_queue = TurnQueue(self, "TurnQueue", consumer_timeout=WEBHOOK_TIMEOUT)
        self.secrets = AppSecrets(self, "Secrets")
        self.monitoring = Monitoring(self, "Monitoring", alarm_email=self.settings.alarm_email)
        self.layers = SharedLayers(self, "Layers")
        self.function_defaults = FunctionDefaults(
            layers=self.layers.layers,
            log_retention=self.settings.log_retention,
            log_level=self.settings.log_level,
        )

        self.reminders = self._reminders()
        self.executor_workflow = self._executor_workflow()
        self.webhook = self._webhook_function()
        self.ingress = WebhookIngress(
            self,
            "Ingress",
            handler=self.webhook.function,
            log_retention=self.settings.log_retention,
            throttle_rate_limit=self.settings.api_throttle_rate_limit,
            throttle_burst_limit=self.settings.api_throttle_burst_limit,
        )
        self.monitoring.watch_dead_letter_queue("TurnDeadLetterQueue", self.turn_queue.dead_letter_queue)
        self.case_platform = self._case_platform()
        self.review = self._review()
        # "cancel that" hands a withdrawn request to the review function, which answers its task token.
        self.review.grant_withdrawals(self.webhook.function)
        # Reviewers' decisions, questions and requests for changes are told to agents on the bus. (The
        # other functions that write to cases record what agents do not hear of: submissions, users'
        # answers and withdrawals, escalations.)
        self.case_platform.grant_notices(self.review.function.function)
        self._outputs()

    def _reminders(self) -> Reminders:
        """The Scheduler group, its role and the reminders function (watched by its construct)."""
        settings = self.settings
        return Reminders(
            self,
            "Reminders",
            defaults=self.function_defaults,
            items_table=self.store.table(tables.ITEMS),
            conversation_table=self.store.table(tables.CONVERSATION),
            app_secrets=self.secrets,
            whatsapp_api_base_url=settings.whatsapp_api_base_url,
            template_name=settings.reminder_template_name,
            template_languages=settings.reminder_template_languages,
            phone_number_id=settings.whatsapp_phone_number_id,
            schedule_group_name=settings.reminder_schedule_group,
            retry_attempts=settings.reminder_retry_attempts,
            max_event_age=Duration.seconds(settings.reminder_max_event_age_seconds),
            monitoring=self.monitoring,  # watches the reminders function and its dead-letter queues
        )

    def _executor_workflow(self) -> ExecutorWorkflow:
        """The state machine of a turn's plan and its three functions, each watched here."""
        workflow = ExecutorWorkflow(
            self,
            "ExecutorWorkflow",
            defaults=self.function_defaults,
            store=self.store,
            whatsapp_secret=self.secrets.whatsapp,
            whatsapp_api_base_url=self.settings.whatsapp_api_base_url,
            schedule_group_name=self.reminders.group_name,
            scheduler_role=self.reminders.scheduler_role,
            reminder_target=self.reminders.function,
            schedule_delivery=self.reminders.delivery_environment(),
            alarm_topic=self.monitoring.topic,  # failed and timed-out executions
            review_environment=self.review_environment,
            longest_review_wait=Duration.seconds(self.settings.review_wait_seconds),
        )
        # The workflow alarms on executions, not on its functions: those are watched here.
        self.monitoring.watch_function("Executor", workflow.executor.function)
        self.monitoring.watch_function("Responder", workflow.responder.function)
        self.monitoring.watch_function("ReviewSubmit", workflow.review_submit.function)
        return workflow

    def _case_platform(self) -> CasePlatform:
        """The cases table's escalation sweep, its topic and alarms; its function watched here."""
        case_platform = CasePlatform(
            self,
            "CasePlatform",
            code_layers=self.layers.layers,
            table=self.store.table(tables.CASES),
            log_retention=self.settings.log_retention,
            alarm_topic=self.monitoring.topic,  # past SLA, undelivered escalation notice, drift
            single_sweep=self.settings.escalation_reserve_concurrency,
        )
        self.monitoring.watch_function("Escalation", case_platform.escalation.function)
        self.monitoring.watch_dead_letter_queue("EscalationDeadLetterQueue", case_platform.dead_letter_queue)
        return case_platform

    def _review(self) -> Review:
        """The review function on the webhook's HTTP API, behind the reviewers' Cognito user pool."""
        return Review(
            self,
            "Review",
            defaults=self.function_defaults,
            http_api=self.ingress.api,
            cases_table=self.store.table(tables.CASES),
            ledger_table=self.store.table(tables.LEDGER),
            conversation_table=self.store.table(tables.CONVERSATION),
            items_table=self.store.table(tables.ITEMS),  # the case view's items
            whatsapp_secret=self.secrets.whatsapp,
            whatsapp_api_base_url=self.settings.whatsapp_api_base_url,
            monitoring=self.monitoring,  # watches the review function
            domain_prefix=self.settings.review_domain_prefix,
            environment=self.review_environment,
        )

    def _outputs(self) -> None:
        """The stack's outputs (docs/deploy.md lists them); escalation notices link to the review page."""
        CfnOutput(self, "WebhookUrl", value=self.ingress.webhook_url, description="Callback URL for Meta")
        CfnOutput(self, "WhatsAppSecretArn", value=self.secrets.whatsapp.secret_arn)
        CfnOutput(self, "OpenAISecretArn", value=self.secrets.openai.secret_arn)
        CfnOutput(self, "TurnQueueUrl", value=self.turn_queue.queue.queue_url)
        CfnOutput(self, "AlarmTopicArn", value=self.monitoring.topic.topic_arn)
        CfnOutput(
            self,
            "ExecutorStateMachineArn",
            value=self.executor_workflow.state_machine.state_machine_arn,
            description="The executor state machine: a turn's plan, step by step, then the reply",
        )
        self.case_platform.link_reviews(self.review.review_url)
        CfnOutput(self, "ReviewUrl", value=self.review.review_url, description="The reviewer web page")
        CfnOutput(
            self,
            "EscalationTopicArn",
            value=self.case_platform.escalation_topic.topic_arn,
            description="HITL escalation notices: subscribe the operators' e-mail or chat here",
        )
        CfnOutput(
            self,
            "HitlEventBusName",
            value=self.case_platform.event_bus.event_bus_name,
            description="HITL case notices (source hitl.caseplatform): agents subscribe rules on this bus",
        )
        CfnOutput(self, "HitlEventBusArn", value=self.case_platform.event_bus.event_bus_arn)
        CfnOutput(
            self,
            "HitlArchiveBucketName",
            value=self.case_platform.archive_bucket.bucket_name,
            description="Decided cases archived by the retention job: <adapter>/<case id>.json",
        )
        CfnOutput(
            self,
            "ReviewLoginUrl",
            value=self.review.login_url,
            description="Cognito hosted-UI sign-in for reviewers; it returns to the reviewer page",
        )
        CfnOutput(self, "UserPoolId", value=self.review.user_pool.user_pool_id)
        CfnOutput(self, "UserPoolClientId", value=self.review.client.user_pool_client_id)
        CfnOutput(
            self,
            "ReminderScheduleGroupName",
            value=self.reminders.group.schedule_group_name,
            description="EventBridge Scheduler group holding one schedule per pending reminder",
        )

    def _webhook_function(self) -> MemoFunction:
        """Ingress path (HTTP API) and turn path (SQS FIFO) of one WhatsApp message."""
        settings = self.settings
        webhook = MemoFunction(
            self,
            "Webhook",
            name="webhook",
            defaults=self.function_defaults,
            description="Memo WhatsApp webhook: ingress (HTTP API) and turns (SQS FIFO)",
            memory_size=1024,
            timeout=WEBHOOK_TIMEOUT,
            reserved_concurrency=settings.webhook_reserved_concurrency,
            environment=self._webhook_environment(),
        )
        function = webhook.function
        self._grant_webhook_schedules(webhook)
        # A reminder Meta failed to deliver for any reason but the closed 24-hour window.
        self.monitoring.watch_count(
            "ReminderDeliveryFailed",
            metric_name="ReminderDeliveryFailed",
            description="Memo reminders: Meta reported a reminder undelivered and it was not retried",
        )
        self.store.table(tables.CONVERSATION).grant(function, *WEBHOOK_CONVERSATION_ACTIONS)
        self.store.table(tables.IDEMPOTENCY).grant(function, *IDEMPOTENCY_ACTIONS)
        self.store.table(tables.ITEMS).grant(function, *WEBHOOK_ITEMS_ACTIONS)
        self._grant_webhook_reviews(webhook)
        self.executor_workflow.grant_start(function)
        self.turn_queue.grant_send(function)
        self.turn_queue.add_consumer(
            function, batch_size=settings.turn_batch_size, max_concurrency=settings.turn_max_concurrency
        )
        self.secrets.grant_read(function)
        self.monitoring.watch_function("Webhook", function)
        return webhook

    def _webhook_environment(self) -> dict[str, str]:
        settings = self.settings
        return {
            **self.store.environment(tables.CONVERSATION, tables.IDEMPOTENCY, tables.ITEMS, tables.CASES),
            **self.executor_workflow.environment(),
            tables.TURN_QUEUE_ENV_VAR: self.turn_queue.queue.queue_url,
            tables.TURN_MAX_RECEIVES_ENV_VAR: str(self.turn_queue.max_receive_count),
            "WHATSAPP_API_BASE_URL": settings.whatsapp_api_base_url,
            "MEMO_PLANNER_MODEL": settings.planner_model,
            "MEMO_INTERPRETER_MODEL": settings.interpreter_model,
            "HITL_TTL_SECONDS": str(settings.hitl_ttl_seconds),
            "MEMO_DEFAULT_TIMEZONE": settings.default_timezone,
            # A changed number re-points schedules; a failed reminder is retried as its template.
            "REMINDER_SCHEDULE_GROUP": self.reminders.group_name,
            "REMINDER_TARGET_ARN": self.reminders.function.function_arn,
            "REMINDER_SCHEDULER_ROLE_ARN": self.reminders.scheduler_role.role_arn,
            **self.reminders.delivery_environment(),
            "WHATSAPP_REMINDER_TEMPLATE": settings.reminder_template_name,
            "WHATSAPP_REMINDER_TEMPLATE_LANGUAGES": settings.reminder_template_languages,
            **self.review_environment,
        }

    def _grant_webhook_schedules(self, webhook: MemoFunction) -> None:
        """A changed number re-points the user's reminder schedules (and passes the Scheduler's role)."""
        webhook.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=list(WEBHOOK_SCHEDULE_ACTIONS),
                resources=[
                    Stack.of(self).format_arn(
                        service="scheduler",
                        resource="schedule",
                        resource_name=f"{self.reminders.group_name}/*",
                    )
                ],
            )
        )
        webhook.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=["iam:PassRole"],
                resources=[self.reminders.scheduler_role.role_arn],
                conditions={"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}},
            )
        )
        Validations.of(webhook.role).acknowledge(
            Acknowledgment(
                id="AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:"
                f"schedule/{self.reminders.group_name}/*]",
                reason="A changed number re-points the user's reminder schedules; schedule names are per "
                "reminder, so the resource is the reminders' schedule group, never another group.",
            )
        )

    def _grant_webhook_reviews(self, webhook: MemoFunction) -> None:
        """The turn's part in operator review: answers to operators' questions and withdrawn requests
        recorded on their cases (the withdrawals queue is granted by `Review.grant_withdrawals`)."""
        function = webhook.function
        # The user's answer to an operator's question goes to its case (memo.operator_review.clarify),
        # and a withdrawal's rejection (memo.operator_review.withdraw).
        grant_case_store(function, self.store.table(tables.CASES), indexes=WEBHOOK_CASE_INDEXES)
