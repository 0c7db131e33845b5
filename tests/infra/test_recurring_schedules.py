"""Repeating reminders need no new permission: the executor's role from CDK (three schedule actions on
the reminders' group, PassRole of the scheduler role to the Scheduler only) covers every call the
EventBridge adapter makes for one recurring schedule: create, move (update) and delete."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from memo.aws.scheduler import EventBridgeReminderScheduler
from memo.text.recurrence import series
from tests.infra.test_executor_workflow import (  # noqa: F401 - the module-scoped CDK build
    REMINDERS_ARN,
    SCHEDULER_ROLE_ARN,
    Built,
    _as_list,
    built,
)

GROUP = "memo-reminders"
NOW = datetime(2030, 1, 7, 7, 0, tzinfo=UTC)  # a Monday


class RecordingScheduler:
    """Records the Scheduler API calls (by IAM action name) and the parameters they carry."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        def call(**kwargs: Any) -> dict[str, Any]:
            action = "scheduler:" + "".join(part.capitalize() for part in name.split("_"))
            self.calls.append((action, kwargs))
            return {}

        return call


def _recurring_calls() -> RecordingScheduler:
    client = RecordingScheduler()
    adapter = EventBridgeReminderScheduler(
        client, group_name=GROUP, target_arn=REMINDERS_ARN, role_arn=SCHEDULER_ROLE_ARN
    )
    for rule in ("FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6", "FREQ=HOURLY;INTERVAL=2"):
        text = series(rule, NOW, "Asia/Jerusalem")
        assert text is not None
        adapter.schedule(
            reminder_id="r1", thread_id="972501234567", at=NOW, timezone="Asia/Jerusalem", recurrence=text
        )
    adapter.cancel("reminder-r1")
    return client


def test_recurring_schedules_use_only_what_the_executor_is_granted(built: Built) -> None:  # noqa: F811
    role = built.workflow.executor.role
    statements = built.statements(role)
    (schedules,) = [s for s in statements if "scheduler:CreateSchedule" in _as_list(s["Action"])]
    granted = set(_as_list(schedules["Action"]))
    assert granted == {"scheduler:CreateSchedule", "scheduler:UpdateSchedule", "scheduler:DeleteSchedule"}
    assert ":schedule/memo-reminders/*" in json.dumps(schedules["Resource"])  # the group's schedules only

    client = _recurring_calls()
    assert {action for action, _ in client.calls} <= granted
    assert all(kwargs["GroupName"] == GROUP for _, kwargs in client.calls)
    created = [kwargs for action, kwargs in client.calls if action == "scheduler:CreateSchedule"]
    assert [c["ScheduleExpression"] for c in created] == [
        "cron(0 9 * * ? *)",
        "cron(0 9 ? * MON,THU *)",
        "rate(2 hours)",
    ]
    assert all(c["ScheduleExpressionTimezone"] == "Asia/Jerusalem" and c["StartDate"] for c in created)
    assert "EndDate" in created[1] and "EndDate" not in created[0]  # a counted series ends
    # The one role passed is the scheduler role, which PassRole allows to the Scheduler only.
    assert {c["Target"]["RoleArn"] for c in created} == {SCHEDULER_ROLE_ARN}
    (pass_role,) = [s for s in statements if s["Action"] == "iam:PassRole"]
    assert pass_role["Resource"] == SCHEDULER_ROLE_ARN
    assert pass_role["Condition"] == {"StringEquals": {"iam:PassedToService": "scheduler.amazonaws.com"}}
    # No schedule-group or wildcard scheduler permission was needed for repeating reminders.
    every = {a for s in statements for a in _as_list(s["Action"])}
    assert not {a for a in every if a.startswith("scheduler:") and a not in granted}
