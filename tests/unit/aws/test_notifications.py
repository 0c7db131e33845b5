"""Escalation notices on SNS (`memo.aws.notifications`): one Publish, filterable by its attributes."""

from __future__ import annotations

from typing import Any

from caseplatform.escalation import EscalationNotice
from memo.aws.notifications import SnsEscalationNotifier


class _Sns:
    def __init__(self) -> None:
        self.published: list[dict[str, Any]] = []

    def publish(self, **request: Any) -> None:
        self.published.append(request)


def test_one_publish_per_escalation_with_its_attributes() -> None:
    sns = _Sns()
    notice = EscalationNotice(
        event_id="e1",
        case_id="c1",
        adapter_id="memo",
        case_type="approval",
        title="Delete 3 reminders",
        priority="high",
        target=None,
        escalated_at_ms=0,
        next_escalation_at_ms=None,
        link=None,
    )
    SnsEscalationNotifier("arn:aws:sns:us-east-1:123456789012:ops", sns).notify(notice)
    (published,) = sns.published
    assert published["TopicArn"].endswith(":ops") and published["Subject"] == notice.subject
    assert {name: value["StringValue"] for name, value in published["MessageAttributes"].items()} == {
        "adapter_id": "memo",
        "priority": "high",
        "target": "unassigned",
    }
