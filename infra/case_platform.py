"""The HITL case platform in the stack: its DynamoDB table, the scheduled escalation sweep, the
escalation topic, the agents' notice bus, the archive bucket and the platform's alarms.

`CasePlatform(scope, id, *, code_layers, table=None, alarm_topic=None)`: pass the table built from
`memo.tables.CASES` when the stack already has it (the table construct builds every spec of
ALL_TABLES); without one, the construct builds it from the same spec. The escalation function
(`functions/escalation/handler.py`) runs every `sweep_interval` on an EventBridge schedule with
the case store's actions on that table and the indexes its queries use (`grant_case_store`), and
publishes each escalation to `escalation_topic` (SNS, encrypted, TLS only; ops subscribe e-mail or
chat endpoints to it). Once a day the same function
checks the projection for drift (`{"job": "drift"}`) and applies the adapters' retention to decided
cases (`{"job": "retention"}`): an adapter that archives has each case written to `archive_bucket`
(`HITL_ARCHIVE_BUCKET`; `s3:PutObject` on its objects only) before its payload is blanked. The
rules' targets retry a delivery that
failed (`RULE_RETRY_ATTEMPTS`, for at most `RULE_MAX_EVENT_AGE`), then put the event on
`dead_letter_queue` (the stack alarms on its depth). Alarms (to `alarm_topic`): cases past their
clarification SLA, an escalation notice the topic refused, projection drift.

`event_bus` is where agents hear of every decision, question and request for changes on their cases
(`caseplatform.notifications.EventBridgeSink`); `grant_notices(function)` gives a function that
decides cases `HITL_EVENT_BUS_NAME` and `events:PutEvents` on that bus alone. Agents subscribe rules
to the bus (its name and ARN are stack outputs); it has no rule or archive of its own.

The archive bucket: all public access blocked, TLS only, S3-managed encryption, versioned, kept by
`cdk destroy` (named by CloudFormation, so the next deployment creates a new one), its server access
logs in `archive_access_logs`. Archived cases move to S3 Glacier Flexible Retrieval after
`ARCHIVE_GLACIER_AFTER` (objects under 128 KB stay in S3 Standard: S3's default minimum size for a
transition, below which Glacier's per-object overhead costs more than it saves); nothing expires.
"""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import Acknowledgment, Duration, RemovalPolicy, Stack, Validations
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.conversation_store import build_table
from infra.lambdas import FunctionDefaults, MemoFunction
from memo.observability import NAMESPACE, SERVICE
from memo.tables import CASES

# Metrics the escalation function emits (memo.operator_review.escalation), each alarmed when > 0.
PLATFORM_ALARMS = (
    ("CasesPastSla", "HitlCasesPastSla", "HITL cases wait for a clarification past their SLA"),
    ("EscalationNotifyFailed", "HitlEscalationNotifyFailed", "An HITL escalation notice was not delivered"),
    ("ProjectionDrift", "HitlProjectionDrift", "The HITL case projection differs from its events"),
)

# EventBridge's delivery of a rule's event to the escalation function: retried this often, for at most
# this long (the next hourly sweep would do the same work), then sent to the dead-letter queue.
RULE_RETRY_ATTEMPTS = 2
RULE_MAX_EVENT_AGE = Duration.hours(1)

# What the DynamoDB case store (`caseplatform.stores.dynamodb`) calls on the table: items read and
# written conditionally (TransactWriteItems needs the per-item actions), queried by case. It never
# deletes an item or scans. UpdateItem only activates an adapter's schema version (`SCHEMA_ACTIONS`:
# the functions that register adapters); each index is granted to the functions whose queries use it.
CASE_STORE_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:Query",
)
SCHEMA_ACTIONS = ("dynamodb:UpdateItem",)
# The sweep (GSI4: escalation due); the drift and rebuild jobs walk the cases by their submitted
# events and read each case's events (GSI1).
ESCALATION_INDEXES = ("GSI1", "GSI4")
# What `memo.aws.case_archive.S3CaseArchive` calls: one object per archived case, never read back.
ARCHIVE_ACTIONS = ("s3:PutObject",)
# What `caseplatform.notifications.EventBridgeSink` calls: one entry per notice.
NOTICE_ACTIONS = ("events:PutEvents",)
ARCHIVE_BUCKET_ENV_VAR = "HITL_ARCHIVE_BUCKET"
EVENT_BUS_ENV_VAR = "HITL_EVENT_BUS_NAME"
# Archived cases are read rarely (an audit, a dispute): Glacier Flexible Retrieval after this long.
ARCHIVE_GLACIER_AFTER = Duration.days(90)


def grant_case_store(
    grantee: iam.IGrantable,
    table: dynamodb.ITableV2,
    *,
    indexes: Sequence[str] = (),
    schemas: bool = False,
) -> None:
    """The case store's item actions on `table` (with `SCHEMA_ACTIONS` when `schemas`: the grantee
    registers adapters), and Query on the named `indexes` only (no index wildcard)."""
    unknown = set(indexes) - {gsi.name for gsi in CASES.gsis}
    if unknown:
        raise ValueError(f"the cases table has no index {sorted(unknown)}")
    actions = [*CASE_STORE_ACTIONS, *(SCHEMA_ACTIONS if schemas else ())]
    principal = grantee.grant_principal
    principal.add_to_principal_policy(iam.PolicyStatement(actions=actions, resources=[table.table_arn]))
    if indexes:
        principal.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query"], resources=[f"{table.table_arn}/index/{name}" for name in indexes]
            )
        )


class CasePlatform(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        code_layers: list[lambda_.ILayerVersion],
        table: dynamodb.ITableV2 | None = None,
        sweep_interval: Duration | None = None,
        log_retention: logs.RetentionDays = logs.RetentionDays.ONE_MONTH,
        alarm_topic: sns.ITopic | None = None,
        single_sweep: bool = False,
    ) -> None:
        super().__init__(scope, construct_id)
        self.table: dynamodb.ITableV2 = table if table is not None else build_table(self, CASES)
        self.escalation_topic = self._escalation_topic()
        self.event_bus = events.EventBus(
            self,
            "NoticeBus",
            description="HITL case notices for agents: decisions, questions, requests for changes",
        )
        self.archive_access_logs = self._archive_access_logs()
        self.archive_bucket = self._archive_bucket()
        self.escalation = self._escalation_function(code_layers, log_retention, single_sweep)
        self.dead_letter_queue = self._dead_letter_queue()
        self.schedule = events.Rule(
            self,
            "EscalationSchedule",
            description="Run the HITL escalation sweep",
            schedule=events.Schedule.rate(sweep_interval or Duration.hours(1)),
            targets=[self._target()],
        )
        # Publish only: the AWS-managed SNS key's own policy lets principals of the account use it
        # through SNS, so no KMS action is granted (grant_publish would add kms:* on key/*).
        self.escalation.function.add_to_role_policy(
            iam.PolicyStatement(actions=["sns:Publish"], resources=[self.escalation_topic.topic_arn])
        )
        self.drift_schedule = events.Rule(
            self,
            "DriftSchedule",
            description="Check the HITL case projection for drift",
            schedule=events.Schedule.rate(Duration.days(1)),
            targets=[self._target(events.RuleTargetInput.from_object({"job": "drift"}))],
        )
        # The adapters' retention of decided cases (`caseplatform.governance.retention`), bounded per
        # run like the drift job: each day's run goes on from where the last one stopped (the cursor
        # kept in the cases table, `JOB#retention`), and after a complete pass starts again from the
        # first decided case (a purged case is skipped without a write).
        self.retention_schedule = events.Rule(
            self,
            "RetentionSchedule",
            description="Apply the HITL adapters' retention to decided cases",
            schedule=events.Schedule.rate(Duration.days(1)),
            targets=[self._target(events.RuleTargetInput.from_object({"job": "retention"}))],
        )
        self.alarms = [
            self._alarm(alarm_id, metric_name, description, alarm_topic)
            for alarm_id, metric_name, description in PLATFORM_ALARMS
        ]

    def _target(self, event: events.RuleTargetInput | None = None) -> targets.LambdaFunction:
        """The escalation function as a rule's target: retried, then to the dead-letter queue."""
        return targets.LambdaFunction(
            self.escalation.function,
            event=event,
            retry_attempts=RULE_RETRY_ATTEMPTS,
            max_event_age=RULE_MAX_EVENT_AGE,
            dead_letter_queue=self.dead_letter_queue,
        )

    def _dead_letter_queue(self) -> sqs.Queue:
        """Where EventBridge puts a sweep (or drift check) it could not deliver to the function."""
        queue = sqs.Queue(
            self,
            "DeadLetterQueue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        Validations.of(queue).acknowledge(
            Acknowledgment(
                id="AwsSolutions-SQS3",
                reason="This queue is the dead-letter queue of the escalation rules' target.",
            )
        )
        return queue

    def _archive_access_logs(self) -> s3.Bucket:
        """Where S3 writes the archive bucket's server access logs (S3's log delivery may write here by
        the bucket policy CDK adds; cdk-nag asks no logs of a bucket that receives them)."""
        return s3.Bucket(
            self,
            "ArchiveAccessLogs",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,  # what S3's log delivery can write to
            enforce_ssl=True,
            removal_policy=RemovalPolicy.RETAIN,
        )

    def _archive_bucket(self) -> s3.Bucket:
        """Decided cases archived by the retention job (see the module's docstring)."""
        return s3.Bucket(
            self,
            "ArchiveBucket",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            versioned=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            removal_policy=RemovalPolicy.RETAIN,
            server_access_logs_bucket=self.archive_access_logs,
            server_access_logs_prefix="archive/",
            lifecycle_rules=[
                s3.LifecycleRule(
                    id="ArchivedCasesToGlacier",
                    transitions=[
                        s3.Transition(
                            storage_class=s3.StorageClass.GLACIER, transition_after=ARCHIVE_GLACIER_AFTER
                        )
                    ],
                    noncurrent_version_transitions=[
                        s3.NoncurrentVersionTransition(
                            storage_class=s3.StorageClass.GLACIER, transition_after=ARCHIVE_GLACIER_AFTER
                        )
                    ],
                )
            ],
        )

    def grant_notices(self, function: lambda_.Function) -> None:
        """Let `function` (one that decides cases) tell agents on `event_bus`: the bus's name, and
        PutEvents on that bus only."""
        function.add_environment(EVENT_BUS_ENV_VAR, self.event_bus.event_bus_name)
        function.add_to_role_policy(
            iam.PolicyStatement(actions=list(NOTICE_ACTIONS), resources=[self.event_bus.event_bus_arn])
        )

    def _escalation_topic(self) -> sns.Topic:
        """Where escalation notices go. Lambda publishes with the AWS-managed SNS key (only CloudWatch
        alarms need a customer key)."""
        return sns.Topic(
            self,
            "EscalationTopic",
            display_name="HITL escalations",
            master_key=kms.Alias.from_alias_name(self, "SnsKey", "alias/aws/sns"),
            enforce_ssl=True,
        )

    def _escalation_function(
        self, code_layers: list[lambda_.ILayerVersion], log_retention: logs.RetentionDays, single_sweep: bool
    ) -> MemoFunction:
        """The sweep (and the daily drift check), with the case store's actions on the cases table.

        The sweep is safe to run concurrently (`caseplatform.escalation`), so no concurrency is reserved
        unless `single_sweep` asks for one sweep at a time: an account whose concurrency quota is
        below what Lambda must keep unreserved refuses any reservation, and the stack rolls back."""
        escalation = MemoFunction(
            self,
            "Escalation",
            name="escalation",
            defaults=FunctionDefaults(layers=code_layers, log_retention=log_retention),
            description="HITL case platform: escalate needs_clarification cases past their adapter SLA",
            environment={
                CASES.env_var: self.table.table_name,
                "ESCALATION_TOPIC_ARN": self.escalation_topic.topic_arn,
                ARCHIVE_BUCKET_ENV_VAR: self.archive_bucket.bucket_name,
            },
            memory_size=256,
            timeout=Duration.minutes(5),
            reserved_concurrency=1 if single_sweep else None,
        )
        # Exactly what the sweep and the drift check call on the table and the indexes they query.
        grant_case_store(escalation.function, self.table, indexes=ESCALATION_INDEXES)
        self._grant_archive(escalation)
        return escalation

    def _grant_archive(self, escalation: MemoFunction) -> None:
        """PutObject on the archive bucket's objects: no read, list or delete (an archived case is
        never read back by the function), and no KMS action (S3-managed keys)."""
        objects = self.archive_bucket.arn_for_objects("*")
        escalation.function.add_to_role_policy(
            iam.PolicyStatement(actions=list(ARCHIVE_ACTIONS), resources=[objects])
        )
        bucket_id = Stack.of(self).get_logical_id(self.archive_bucket.node.default_child)  # type: ignore[arg-type]
        Validations.of(escalation.role).acknowledge(
            Acknowledgment(
                id=f"AwsSolutions-IAM5[Resource::<{bucket_id}.Arn>/*]",
                reason="The retention job writes one object per archived case, keyed by adapter and case "
                "id (unknown until the case is archived): PutObject on the archive bucket's objects only.",
            )
        )

    def _alarm(
        self, alarm_id: str, metric_name: str, description: str, alarm_topic: sns.ITopic | None
    ) -> cloudwatch.Alarm:
        """An alarm on one of the escalation function's metrics, firing when it is above 0."""
        alarm = cloudwatch.Alarm(
            self,
            alarm_id,
            metric=cloudwatch.Metric(
                namespace=NAMESPACE,
                metric_name=metric_name,
                dimensions_map={"service": SERVICE},
                statistic=cloudwatch.Stats.MAXIMUM,
                period=Duration.hours(1),
            ),
            alarm_description=description,
            threshold=0,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluation_periods=1,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        )
        if alarm_topic is not None:
            alarm.add_alarm_action(cloudwatch_actions.SnsAction(alarm_topic))
            alarm.add_ok_action(cloudwatch_actions.SnsAction(alarm_topic))
        return alarm

    def link_reviews(self, review_url: str) -> None:
        """Escalation notices link to the reviewer page (`<review_url>#case=<id>`)."""
        self.escalation.function.add_environment("REVIEW_URL", review_url)
