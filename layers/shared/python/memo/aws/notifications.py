"""Escalation notices published to the SNS topic ops subscribe e-mail or chat endpoints to."""

from __future__ import annotations

from typing import Any

from caseplatform.escalation import EscalationNotice


class SnsEscalationNotifier:
    """`caseplatform.escalation.Notifier` over SNS: one Publish per escalation, with the adapter,
    priority and target as message attributes (so a subscription can filter on them)."""

    def __init__(self, topic_arn: str, client: Any) -> None:
        self._topic_arn = topic_arn
        self._client = client

    def notify(self, notice: EscalationNotice) -> None:
        attributes = {
            "adapter_id": notice.adapter_id,
            "priority": notice.priority,
            "target": notice.target or "unassigned",
        }
        self._client.publish(
            TopicArn=self._topic_arn,
            Subject=notice.subject,
            Message=notice.text,
            MessageAttributes={
                name: {"DataType": "String", "StringValue": value} for name, value in attributes.items()
            },
        )
