"""The HITL case platform in the stack: its DynamoDB table and the scheduled escalation sweep.

`CasePlatform(scope, id, *, code_layers, table=None)`: pass the table built from
`memo.tables.CASES` when the stack already has it (the table construct builds every spec of
ALL_TABLES); without one, the construct builds it from the same spec. The escalation function
(`functions/escalation/handler.py`) runs every `sweep_interval` on an EventBridge schedule with
read/write access to that table only.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from infra.conversation_store import build_table
from infra.lambdas import FunctionDefaults, MemoFunction
from memo.tables import CASES

CASE_STORE_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:ConditionCheckItem",
    "dynamodb:Query",
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
    ) -> None:
        super().__init__(scope, construct_id)
        self.table: dynamodb.ITableV2 = table if table is not None else build_table(self, CASES)
        self.escalation = MemoFunction(
            self,
            "Escalation",
            name="escalation",
            defaults=FunctionDefaults(layers=code_layers, log_retention=log_retention),
            description="HITL case platform: escalate needs_clarification cases past their adapter SLA",
            environment={CASES.env_var: self.table.table_name},
            memory_size=256,
            timeout=Duration.minutes(5),
            reserved_concurrency=1,  # one sweep at a time (a second one would only find nothing to do)
        )
        # Exactly what the DynamoDB case store calls (TransactWriteItems needs the per-item actions),
        # on the table and its named indexes: no index wildcard.
        self.escalation.function.add_to_role_policy(
            iam.PolicyStatement(
                actions=list(CASE_STORE_ACTIONS),
                resources=[
                    self.table.table_arn,
                    *(f"{self.table.table_arn}/index/{gsi.name}" for gsi in CASES.gsis),
                ],
            )
        )
        self.schedule = events.Rule(
            self,
            "EscalationSchedule",
            description="Run the HITL escalation sweep",
            schedule=events.Schedule.rate(sweep_interval or Duration.hours(1)),
            targets=[targets.LambdaFunction(self.escalation.function, retry_attempts=2)],
        )
