"""Monitoring: alarms on every function and dead-letter queue, to an encrypted TLS-only topic."""

from __future__ import annotations

import json

from .conftest import Synthesized
from .template_queries import alarms_by_metric, only, ref

# One per function of the stack: the webhook, the escalation sweep, the executor workflow's three, the
# reminders function and the review function.
FUNCTION_COUNT = 7


def test_alarms_watch_every_functions_errors_and_throttles_and_dlq_depth(synthesized: Synthesized) -> None:
    stack = synthesized.stack
    alarms = alarms_by_metric(synthesized)
    # One alarm per metric: a function watched twice (by its construct and the stack) shows up here.
    assert len(alarms) == len(synthesized.resources("AWS::CloudWatch::Alarm"))
    function_ids = list(synthesized.resources("AWS::Lambda::Function"))
    assert len(function_ids) == FUNCTION_COUNT
    for function_id in function_ids:
        for metric in ("Errors", "Throttles"):
            alarm = alarms[("AWS/Lambda", metric, json.dumps(ref(function_id), sort_keys=True))]
            assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": ref(function_id)}]
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
    topic_id, topic = only(
        {
            k: v
            for k, v in synthesized.resources("AWS::SNS::Topic").items()
            if v["Properties"].get("DisplayName") == "Memo alarms"
        }
    )
    assert "KmsMasterKeyId" in topic["Properties"]
    for alarm in synthesized.resources("AWS::CloudWatch::Alarm").values():
        assert alarm["Properties"]["AlarmActions"] == [ref(topic_id)]
        assert alarm["Properties"]["TreatMissingData"] == "notBreaching"
    _, policy = only(
        {
            k: v
            for k, v in synthesized.resources("AWS::SNS::TopicPolicy").items()
            if v["Properties"]["Topics"] == [ref(topic_id)]
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
    _, key = only(synthesized.resources("AWS::KMS::Key"))
    assert key["Properties"]["EnableKeyRotation"] is True
