"""The executor workflow: the Standard state machine that runs a turn's plan, and its two functions.

    turn ──StartExecution(name = hash of traceId)──> state machine (infra/statemachine/executor.asl.json)
        groups in order ─> steps in parallel ─> executor Lambda per step (Retry, Catch -> failed step)
        ─> responder Lambda (join, wording, WhatsApp reply, memory)

The definition is the same ASL file the local runtime runs on moto (`memo.local.stepfunctions`),
with the functions' ARNs as substitutions and its `TimeoutSeconds` set from the review policy: the
longest wait for an operator plus the execution's own work (`infra.settings.execution_timeout_seconds`).
A definition given as a whole ignores the construct's `timeout`, so the timeout is written into the
definition itself. Logging (level ALL, without execution data: the input holds the user's words)
into a log group named for this stack instance (a redeploy after `cdk destroy` does not meet the
retained group of the last one) and X-Ray tracing are on; alarms fire on failed and timed-out
executions.

Least privilege:
- executor: the ledger table (the item actions of `DynamoLedger`), the items table (the actions of
  the items repository), CreateSchedule/UpdateSchedule/DeleteSchedule on the reminders' schedule
  group only, and iam:PassRole of the Scheduler's role to the Scheduler only;
- responder: the reply's actions on the conversation table (nothing of the ledger: the step
  outcomes reach it in the execution) and reading the WhatsApp secret;
- review submit (the `.waitForTaskToken` task of a step the review policy sends to an operator):
  the case platform's store actions on the cases table (no index), and PutItem on the ledger
  table for `REVIEW#` keys only (the task token, kept server-side);
- state machine: invoking these three functions (unqualified: no version or alias), its log
  delivery and X-Ray.
The scheduler pieces (group, role, target) come from the reminders construct.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aws_cdk import Acknowledgment, Duration, Fn, Stack, Validations
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_secretsmanager as secretsmanager
from aws_cdk import aws_sns as sns
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra.case_platform import grant_case_store
from infra.conversation_store import ConversationStore
from infra.lambdas import FunctionDefaults, MemoFunction
from infra.secrets import WHATSAPP_SECRET_ENV_VAR, grant_secret_value
from infra.settings import MAX_EXECUTION_SECONDS, execution_timeout_seconds
from memo import tables
from memo.aws.ledger_table import REVIEW_TOKEN_PREFIX as REVIEW_TOKEN_KEY_PREFIX
from memo.executor.starter import STATE_MACHINE_ENV_VAR
from memo.operator_review.policy import DEFAULT_POLICY
from memo.settings import SCHEDULE_GROUP_ENV_VAR, SCHEDULE_ROLE_ENV_VAR, SCHEDULE_TARGET_ENV_VAR

ASL_PATH = Path(__file__).resolve().parent / "statemachine" / "executor.asl.json"

# What `memo.aws.ledger_table.DynamoLedger` calls (TransactWriteItems needs the per-item actions).
LEDGER_ACTIONS = ("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem")
# What the capabilities call through `memo.aws.items_table.DynamoItemsRepository`: every delete of a
# step, a repeating reminder whose series ran out included, is a conditional tombstone (UpdateItem)
# Undo can restore; no DeleteItem. No batch write: a cleared list is tombstoned item by item.
ITEMS_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:Query",
)
# What `memo.aws.responder_memory.DynamoResponderMemory` calls: the reply's claim put (alone or in
# one transaction with the latest actions' append, an UpdateItem), the latest actions read and put
# when they are merged, the claim given back (DeleteItem) when the send certainly failed, and the
# reply and its quote records written in one batch.
RESPONDER_CONVERSATION_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
)
SCHEDULE_ACTIONS = ("scheduler:CreateSchedule", "scheduler:UpdateSchedule", "scheduler:DeleteSchedule")
EXECUTOR_TIMEOUT = Duration.seconds(60)
# A claim younger than this may still be running (see memo.executor.step): the Lambda timeout plus slack.
STEP_LEASE_SECONDS = EXECUTOR_TIMEOUT.to_seconds() + 30
RESPONDER_TIMEOUT = Duration.seconds(60)
REVIEW_SUBMIT_TIMEOUT = Duration.seconds(30)
# The default review policy's wait for an operator.
DEFAULT_REVIEW_WAIT = Duration.seconds(DEFAULT_POLICY.timeout_seconds)


def executor_definition(longest_review_wait: Duration, path: Path = ASL_PATH) -> dict[str, Any]:
    """The ASL file with the execution's `TimeoutSeconds` for `longest_review_wait`: a turn's whole
    plan, retries and one operator's wait included; a hung execution times out (and alarms) instead
    of lingering for Step Functions' year."""
    timeout = execution_timeout_seconds(int(longest_review_wait.to_seconds()))
    if timeout > MAX_EXECUTION_SECONDS:
        raise ValueError(f"an execution timeout of {timeout} s is past Step Functions' one year")
    definition: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return {**definition, "TimeoutSeconds": timeout}


class ExecutorWorkflow(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        defaults: FunctionDefaults,
        store: ConversationStore,
        whatsapp_secret: secretsmanager.ISecret,
        whatsapp_api_base_url: str,
        schedule_group_name: str,
        scheduler_role: iam.IRole,
        reminder_target: lambda_.IFunction,
        schedule_delivery: Mapping[str, str] | None = None,
        alarm_topic: sns.ITopic | None = None,
        responder_environment: Mapping[str, str] | None = None,
        review_environment: Mapping[str, str] | None = None,
        longest_review_wait: Duration = DEFAULT_REVIEW_WAIT,
    ) -> None:
        """`schedule_delivery`: the schedules' target retry policy and dead-letter queue
        (`Reminders.delivery_environment`); `longest_review_wait`: the review policy's wait for an
        operator, which the execution's timeout must leave room for."""
        super().__init__(scope, construct_id)
        self.executor = self._executor_function(
            defaults, store, schedule_group_name, scheduler_role, reminder_target, schedule_delivery
        )
        self.responder = self._responder_function(
            defaults, store, whatsapp_secret, whatsapp_api_base_url, responder_environment
        )
        self.review_submit = self._review_submit_function(defaults, store, review_environment)
        self.definition = executor_definition(longest_review_wait)
        self.state_machine = self._state_machine(defaults.log_retention)
        self.alarms = self._execution_alarms(alarm_topic)

    def _executor_function(
        self,
        defaults: FunctionDefaults,
        store: ConversationStore,
        schedule_group_name: str,
        scheduler_role: iam.IRole,
        reminder_target: lambda_.IFunction,
        schedule_delivery: Mapping[str, str] | None,
    ) -> MemoFunction:
        """One plan step per invocation: the ledger and items tables, the reminders' schedules."""
        executor = MemoFunction(
            self,
            "Executor",
            name="executor",
            defaults=defaults,
            description="Memo executor: one plan step, exactly once (idempotency ledger, approval binding)",
            timeout=EXECUTOR_TIMEOUT,
            environment={
                **store.environment(tables.LEDGER, tables.ITEMS),
                SCHEDULE_GROUP_ENV_VAR: schedule_group_name,
                SCHEDULE_ROLE_ENV_VAR: scheduler_role.role_arn,
                SCHEDULE_TARGET_ENV_VAR: reminder_target.function_arn,
                **(schedule_delivery or {}),
                "MEMO_STEP_LEASE_SECONDS": str(int(STEP_LEASE_SECONDS)),
            },
        )
        executor_role = executor.role
        store.table(tables.LEDGER).grant(executor_role, *LEDGER_ACTIONS)
        store.table(tables.ITEMS).grant(executor_role, *ITEMS_ACTIONS)
        schedules_arn = Stack.of(self).format_arn(
            service="scheduler", resource="schedule", resource_name=f"{schedule_group_name}/*"
        )
        executor_role.add_to_principal_policy(
            iam.PolicyStatement(actions=list(SCHEDULE_ACTIONS), resources=[schedules_arn])
        )
        executor_role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["iam:PassRole"],
                resources=[scheduler_role.role_arn],
                conditions={"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}},
            )
        )
        Validations.of(executor_role).acknowledge(
            Acknowledgment(
                id=f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/{schedule_group_name}/*]",
                reason="One schedule per reminder, named after it: the executor creates, moves and deletes "
                "schedules of the reminders' group only.",
            )
        )
        return executor

    def _responder_function(
        self,
        defaults: FunctionDefaults,
        store: ConversationStore,
        whatsapp_secret: secretsmanager.ISecret,
        whatsapp_api_base_url: str,
        responder_environment: Mapping[str, str] | None,
    ) -> MemoFunction:
        """The turn's last state: the conversation table and the WhatsApp secret."""
        responder = MemoFunction(
            self,
            "Responder",
            name="responder",
            defaults=defaults,
            description="Memo responder: join the step outcomes, word the reply, send it, update memory",
            timeout=RESPONDER_TIMEOUT,
            environment={
                **store.environment(tables.CONVERSATION),
                WHATSAPP_SECRET_ENV_VAR: whatsapp_secret.secret_arn,
                "WHATSAPP_API_BASE_URL": whatsapp_api_base_url,
                **(responder_environment or {}),
            },
        )
        store.table(tables.CONVERSATION).grant(responder.role, *RESPONDER_CONVERSATION_ACTIONS)
        grant_secret_value(whatsapp_secret, responder.role)
        return responder

    def _review_submit_function(
        self,
        defaults: FunctionDefaults,
        store: ConversationStore,
        review_environment: Mapping[str, str] | None,
    ) -> MemoFunction:
        """The `.waitForTaskToken` task: the case store on the cases table, the token on REVIEW# keys."""
        review_submit = MemoFunction(
            self,
            "ReviewSubmit",
            name="review_submit",
            defaults=defaults,
            description="Memo review submit: a step sent to operator review becomes a case; its task token stays server-side",
            timeout=REVIEW_SUBMIT_TIMEOUT,
            environment={**store.environment(tables.LEDGER, tables.CASES), **(review_environment or {})},
        )
        # Submits the case; registers the `memo_operation` adapter's schema (UpdateItem); no index.
        grant_case_store(review_submit.role, store.table(tables.CASES), schemas=True)
        review_submit.role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["dynamodb:PutItem"],
                resources=[store.table(tables.LEDGER).table_arn],
                conditions={
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{REVIEW_TOKEN_KEY_PREFIX}*"]}
                },
            )
        )
        return review_submit

    def _state_machine(self, log_retention: logs.RetentionDays) -> sfn.StateMachine:
        """The definition with the three functions' ARNs, its log group, and invoking exactly those."""
        stack = Stack.of(self)
        # The vended-logs prefix keeps CloudWatch Logs' resource policy small (AWS recommendation). The
        # group is retained with the stack's logs, so its name ends with this stack instance's id: a
        # stack deployed again after `cdk destroy` gets a new group instead of failing on the old one.
        instance = Fn.select(2, Fn.split("/", stack.stack_id))
        self.log_group = logs.LogGroup(
            self,
            "Logs",
            log_group_name=f"/aws/vendedlogs/states/{stack.stack_name}-executor-{instance}",
            retention=log_retention,
        )
        state_machine = sfn.StateMachine(
            self,
            "StateMachine",
            state_machine_type=sfn.StateMachineType.STANDARD,
            definition_body=sfn.DefinitionBody.from_string(json.dumps(self.definition, indent=2)),
            definition_substitutions={
                "ExecutorFunctionArn": self.executor.function.function_arn,
                "ResponderFunctionArn": self.responder.function.function_arn,
                "ReviewSubmitFunctionArn": self.review_submit.function.function_arn,
            },
            logs=sfn.LogOptions(
                destination=self.log_group,
                level=sfn.LogLevel.ALL,
                include_execution_data=False,  # inputs and outputs hold the user's words
            ),
            tracing_enabled=True,
            comment="Memo executor: a turn's plan, step by step, then the reply",
        )
        # The definition invokes the functions unqualified: their ARNs only, no version or alias.
        functions = (self.executor.function, self.responder.function, self.review_submit.function)
        state_machine.role.add_to_principal_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"], resources=[f.function_arn for f in functions]
            )
        )
        Validations.of(state_machine.role).acknowledge(
            Acknowledgment(
                id="AwsSolutions-IAM5[Resource::*]",
                reason="Step Functions log delivery (logs:*LogDelivery*, DescribeLogGroups/ResourcePolicies) "
                "and X-Ray (PutTraceSegments, GetSamplingRules...) have no resource-level permissions.",
            ),
        )
        return state_machine

    def _execution_alarms(self, alarm_topic: sns.ITopic | None) -> list[cloudwatch.Alarm]:
        """Failed and timed-out executions (a turn got no reply), to `alarm_topic` when given."""
        period = Duration.minutes(5)
        alarms = [
            self._execution_alarm(
                "ExecutionsFailed",
                self.state_machine.metric_failed(period=period, statistic=cloudwatch.Stats.SUM),
                "Memo executor: executions failed (a turn got no reply)",
            ),
            self._execution_alarm(
                "ExecutionsTimedOut",
                self.state_machine.metric_timed_out(period=period, statistic=cloudwatch.Stats.SUM),
                "Memo executor: executions timed out",
            ),
        ]
        if alarm_topic is not None:
            action = cloudwatch_actions.SnsAction(alarm_topic)
            for alarm in alarms:
                alarm.add_alarm_action(action)
                alarm.add_ok_action(action)
        return alarms

    def _execution_alarm(
        self, alarm_id: str, metric: cloudwatch.Metric, description: str
    ) -> cloudwatch.Alarm:
        """Fires on one execution counted by `metric` in its period."""
        return cloudwatch.Alarm(
            self,
            alarm_id,
            metric=metric,
            alarm_description=description,
            threshold=1,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=1,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        )

    def environment(self) -> dict[str, str]:
        """For the function that starts executions (the webhook's turn path)."""
        return {STATE_MACHINE_ENV_VAR: self.state_machine.state_machine_arn}

    def grant_start(self, grantee: iam.IGrantable) -> iam.Grant:
        return self.state_machine.grant_start_execution(grantee)
