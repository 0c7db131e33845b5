"""Alarms and the SNS topic they notify.

Watched: every function's Errors and Throttles, and every dead-letter queue's depth (> 0 means a turn
was given up on). The topic is encrypted with a customer-managed KMS key, because CloudWatch cannot
publish to a topic encrypted with the AWS-managed SNS key, and it refuses non-TLS requests.
"""

from __future__ import annotations

from aws_cdk import Duration, Stack
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from constructs import Construct

CLOUDWATCH_PRINCIPAL = "cloudwatch.amazonaws.com"


class Monitoring(Construct):
    """An alarm topic (optionally with an e-mail subscription) and the alarms that notify it."""

    def __init__(self, scope: Construct, construct_id: str, *, alarm_email: str | None = None) -> None:
        super().__init__(scope, construct_id)
        account = Stack.of(self).account
        self.key = kms.Key(
            self,
            "AlarmTopicKey",
            description="Memo alarm topic encryption",
            enable_key_rotation=True,
        )
        cloudwatch_principal = iam.ServicePrincipal(CLOUDWATCH_PRINCIPAL)
        self.key.grant(cloudwatch_principal, "kms:Decrypt", "kms:GenerateDataKey*")
        self.topic = sns.Topic(
            self,
            "AlarmTopic",
            display_name="Memo alarms",
            master_key=self.key,
            enforce_ssl=True,
        )
        self.topic.add_to_resource_policy(
            iam.PolicyStatement(
                sid="AllowCloudWatchAlarms",
                principals=[cloudwatch_principal],
                actions=["sns:Publish"],
                resources=[self.topic.topic_arn],
                conditions={"StringEquals": {"aws:SourceAccount": account}},
            )
        )
        if alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(alarm_email))
        self._action = cloudwatch_actions.SnsAction(self.topic)
        self.alarms: list[cloudwatch.Alarm] = []

    def _alarm(
        self,
        construct_id: str,
        *,
        metric: cloudwatch.IMetric,
        description: str,
        threshold: float,
        comparison: cloudwatch.ComparisonOperator,
    ) -> cloudwatch.Alarm:
        alarm = cloudwatch.Alarm(
            self,
            construct_id,
            metric=metric,
            alarm_description=description,
            threshold=threshold,
            comparison_operator=comparison,
            evaluation_periods=1,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        )
        alarm.add_alarm_action(self._action)
        alarm.add_ok_action(self._action)
        self.alarms.append(alarm)
        return alarm

    def watch_function(self, name: str, function: lambda_.IFunction) -> None:
        """Alarm on any error and any throttle of `function` within five minutes."""
        period = Duration.minutes(5)
        self._alarm(
            f"{name}Errors",
            metric=function.metric_errors(period=period, statistic=cloudwatch.Stats.SUM),
            description=f"Memo {name} function: invocations ended in an error",
            threshold=1,
            comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        )
        self._alarm(
            f"{name}Throttles",
            metric=function.metric_throttles(period=period, statistic=cloudwatch.Stats.SUM),
            description=f"Memo {name} function: invocations were throttled",
            threshold=1,
            comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        )

    def watch_count(self, construct_id: str, *, metric_name: str, description: str) -> None:
        """Alarm as soon as Memo's own count metric `metric_name` (namespace Memo, service memo) rises."""
        from memo.observability import NAMESPACE, SERVICE

        self._alarm(
            construct_id,
            metric=cloudwatch.Metric(
                namespace=NAMESPACE,
                metric_name=metric_name,
                dimensions_map={"service": SERVICE},
                statistic=cloudwatch.Stats.SUM,
                period=Duration.minutes(5),
            ),
            description=description,
            threshold=1,
            comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        )

    def watch_dead_letter_queue(self, name: str, queue: sqs.IQueue) -> None:
        """Alarm as soon as one message waits in the dead-letter queue `queue`."""
        self._alarm(
            f"{name}Depth",
            metric=queue.metric_approximate_number_of_messages_visible(
                period=Duration.minutes(1), statistic=cloudwatch.Stats.MAXIMUM
            ),
            description=f"Memo {name}: messages were moved to the dead-letter queue",
            threshold=0,
            comparison=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        )
