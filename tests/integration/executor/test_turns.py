"""End to end: WhatsApp turns through the webhook handler that run plans on the executor
state machine (the same ASL as deployed, on moto), with real capabilities, the responder and the
reminder ticker, on a fake clock."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memo.aws.scheduler import EventBridgeReminderScheduler
from memo.errors import ServiceFault
from memo.executor.contracts import Approval, ExecutionInput, StepTask, args_hash
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.fake_openai import FakeOpenAI, Reply

APPROVE = 1
# Sunday 22 Nov 2026, 09:00 in Jerusalem.
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def local(clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def test_a_reminder_is_delivered_at_its_time(dana: Conversation, local: LocalStack, clock: FakeClock) -> None:
    assert (
        dana.say("remind me to call mom today at 5pm") == "⏰ Reminder set: “call mom” for Sun 22 Nov, 17:00."
    )
    assert local.ticker is not None
    clock.set(datetime(2026, 11, 22, 14, 59, tzinfo=UTC))  # 16:59 in Jerusalem: not yet
    assert local.ticker.tick() == []
    assert dana.replies() == []
    clock.set(datetime(2026, 11, 22, 15, 0, 30, tzinfo=UTC))
    fired = local.ticker.tick()
    assert len(fired) == 1 and fired[0].error is None
    (delivered,) = dana.replies()  # inside WhatsApp's 24-hour window: a plain text message
    assert "call mom" in delivered and delivered.startswith("⏰")
    assert local.ticker.tick() == []  # the schedule is gone: delivered once
    assert dana.say("show my reminders") == "You have no upcoming reminders."


def test_a_reminder_outside_the_24_hour_window_is_a_template(
    dana: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    dana.say("remind me to call mom in 3 days at 5pm")
    assert local.ticker is not None
    clock.set(datetime(2026, 11, 25, 15, 0, 30, tzinfo=UTC))
    assert len(local.ticker.tick()) == 1
    (delivered,) = dana.replies()
    assert delivered == "[template memo_reminder] call mom"


def test_delete_with_approval_removes_the_reminder_and_its_schedule(
    dana: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    question = dana.say("delete the call mom reminder")
    assert "call mom" in question and [c.title for c in dana.choices] == ["Approve", "Edit", "Reject"]
    assert dana.tap(APPROVE) == "Deleted the reminder “call mom”."
    assert local.ticker is not None
    clock.advance(days=2)
    assert local.ticker.tick() == []  # no schedule is left to fire
    assert dana.replies() == []


def test_three_matching_reminders_pick_one(dana: Conversation) -> None:
    _three_calls(dana)
    listed = dana.say("delete the call reminder")  # pick first, then approve that exact item
    assert "Which one" in listed
    assert [c.title.split(" — ")[0] for c in dana.choices] == ["call mom", "call dad", "call the bank"]
    assert "I'm about to delete 1 reminder:\n1. “call dad”" in dana.tap(2)
    assert dana.tap(APPROVE) == "Deleted the reminder “call dad”."
    remaining = dana.say("show my reminders")
    assert "call mom" in remaining and "call the bank" in remaining and "call dad" not in remaining


def test_three_matching_reminders_pick_two(dana: Conversation) -> None:
    _three_calls(dana)
    dana.say("delete the call reminders")
    assert "I'm about to delete 2 reminders:" in dana.say("1 3")
    assert dana.tap(APPROVE) == "Deleted 2 reminders: “call mom”, “call the bank”."
    assert "call dad" in dana.say("show my reminders")


def test_three_matching_reminders_switch_intent(dana: Conversation, log_events: LogEvents) -> None:
    _three_calls(dana)
    assert "Which one" in dana.say("delete the call reminder")
    reply = dana.say("add milk to my shopping list")
    assert reply == "Added milk to your shopping list."
    assert log_events.named("HITL_SWITCH_INTENT")
    assert dana.say("show my reminders").count("call") == 3  # nothing was deleted


def test_delete_it_right_after_creating(dana: Conversation) -> None:
    dana.say("remind me to water the plants tomorrow at 8am")
    question = dana.say("delete it")
    assert "water the plants" in question
    assert dana.tap(APPROVE) == "Deleted the reminder “water the plants”."


def test_hebrew_reminder_and_list(dana: Conversation) -> None:
    assert dana.say("תזכיר לי להתקשר לאמא מחר ב-17:00").startswith("⏰")
    assert "חלב" in dana.say("תוסיף חלב לרשימת הקניות")
    assert "חלב" in dana.say("מה ברשימת הקניות?")


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch, local: LocalStack) -> Iterator[FakeOpenAI]:
    from memo.settings import WebhookSettings
    from memo.wiring import use_runtime
    from memo.wiring.webhook import WebhookRuntime

    with FakeOpenAI() as server:
        for key, value in {
            "OPENAI_API_KEY": "sk-local-test",
            "OPENAI_BASE_URL": server.base_url,
            "MEMO_LLM_MAX_RETRIES": "0",
        }.items():
            monkeypatch.setenv(key, value)
        use_runtime(WebhookRuntime(WebhookSettings.from_env(os.environ), clock=local._clock))
        yield server


def _llm_plan(*steps: dict[str, Any]) -> dict[str, Any]:
    return {
        "intentType": "operation",
        "confidence": 0.95,
        "riskLevel": "low",
        "needsApproval": False,
        "missingFields": [],
        "plan": list(steps),
        "routingSuggestions": [],
    }


def _step(
    step_id: str,
    capability: str,
    action: str,
    *,
    constraints: dict[str, Any] | None = None,
    changes: dict[str, Any] | None = None,
    depends_on: list[str] | None = None,
) -> dict[str, Any]:
    return {
        "id": step_id,
        "capability": capability,
        "action": action,
        "constraints": [{"key": k, "value": v} for k, v in (constraints or {}).items()],
        "changes": [{"key": k, "value": v} for k, v in (changes or {}).items()],
        "dependsOn": depends_on or [],
    }


def test_a_plan_with_two_dependent_steps_runs_them_in_order(
    dana: Conversation, local: LocalStack, llm: FakeOpenAI
) -> None:
    llm.script(
        Reply.json(
            _llm_plan(
                _step(
                    "s1",
                    "lists",
                    "add",
                    constraints={"listName": "shopping"},
                    changes={"items": ["milk", "eggs"]},
                ),
                _step("s2", "lists", "show", constraints={"listName": "shopping"}, depends_on=["s1"]),
            )
        )
    )
    reply = dana.say("add milk and eggs to shopping and then show me the list")
    assert "milk" in reply and "eggs" in reply
    assert local.stepfunctions is not None
    order = [(i.function_name, i.event.get("step_id")) for i in local.stepfunctions.invocations]
    assert order == [("memo-executor", "s1"), ("memo-executor", "s2"), ("memo-responder", None)]


def test_a_partial_failure_is_worded_truthfully(
    dana: Conversation, llm: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_args: object, **_kwargs: object) -> None:
        raise ServiceFault("the Scheduler refused the schedule")

    monkeypatch.setattr(EventBridgeReminderScheduler, "schedule", refused)
    llm.script(
        Reply.json(
            _llm_plan(
                _step("s1", "notes", "save", changes={"text": "the gate code is 4321"}),
                _step(
                    "s2", "reminders", "create", constraints={"title": "feed the cat", "whenText": "at 6pm"}
                ),
            )
        )
    )
    reply = dana.say("note the gate code is 4321 and remind me to feed the cat at 6pm")
    assert "✅" in reply and "❌" in reply
    assert "gate code" in reply
    assert (
        "❌ Something went wrong when I tried to set the reminder, and I can't confirm it went through."
        in reply
    )


def _run(local: LocalStack, task: StepTask) -> dict[str, Any]:
    assert local.stepfunctions is not None
    execution = ExecutionInput(
        trace_id=task.trace_id, thread_id=task.thread_id, phone_number_id="100000000000001", groups=[[task]]
    )
    return local.stepfunctions.run(execution)


def _delete_task(dana: Conversation, *, approval: Approval, args: dict[str, Any], trace: str) -> StepTask:
    return StepTask(
        trace_id=trace,
        thread_id=dana.user.wa_id,
        step_id="s1",
        capability="reminders",
        action="delete",
        args=args,
        args_hash=args_hash(args),
        approval=approval,
    )


def _reminder_ids(local: LocalStack, thread: str) -> list[str]:
    import boto3

    items = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :r)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{thread}"}, ":r": {"S": "REMINDER#"}},
    )["Items"]
    # A deleted reminder waiting for a possible "Undo" (undo_key) is gone for the user.
    return [i["sk"]["S"].removeprefix("REMINDER#") for i in items if "undo_key" not in i]


def test_args_changed_after_approval_are_refused(
    dana: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to call dad tomorrow at 6pm")
    mom, dad = _reminder_ids(local, dana.user.wa_id)
    approved = {"reminderIds": [mom]}
    approval = Approval(
        hitl_id="h-1", args_hash=args_hash(approved), expires_at=clock.now + timedelta(minutes=5)
    )
    # The execution carries other args than the ones the user approved (an edit after approval).
    _run(local, _delete_task(dana, approval=approval, args={"reminderIds": [dad]}, trace="wamid.drift"))
    (reply,) = dana.replies()
    assert reply.startswith("I didn't") and "changed after you approved" in reply
    assert sorted(_reminder_ids(local, dana.user.wa_id)) == sorted([mom, dad])


def test_an_approval_that_expired_before_execution_is_refused(
    dana: Conversation, local: LocalStack, clock: FakeClock
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    (mom,) = _reminder_ids(local, dana.user.wa_id)
    args = {"reminderIds": [mom]}
    approval = Approval(hitl_id="h-2", args_hash=args_hash(args), expires_at=clock.now - timedelta(seconds=1))
    _run(local, _delete_task(dana, approval=approval, args=args, trace="wamid.expired"))
    (reply,) = dana.replies()
    assert "approval expired" in reply
    assert _reminder_ids(local, dana.user.wa_id) == [mom]


def test_a_redelivered_turn_does_not_repeat_the_side_effect(dana: Conversation, local: LocalStack) -> None:
    """The same WhatsApp message reaching the turn path again (Meta or SQS redelivery after the
    webhook's idempotency record is gone) starts the same execution name: a no-op."""
    message = dana.user.text("add bread to my shopping list")
    assert dana.deliver(message) == ["Added bread to your shopping list."]
    import boto3

    boto3.client("dynamodb", region_name="us-east-1").delete_item(
        TableName="memo-idempotency", Key={"id": {"S": _idempotency_key(local)}}
    )
    assert dana.deliver(message) == []
    assert dana.say("show my shopping list").count("bread") == 1


def _idempotency_key(local: LocalStack) -> str:
    import boto3

    (item,) = boto3.client("dynamodb", region_name="us-east-1").scan(TableName="memo-idempotency")["Items"]
    return str(item["id"]["S"])


def _three_calls(dana: Conversation) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to call dad tomorrow at 6pm")
    dana.say("remind me to call the bank tomorrow at 7pm")


def test_delete_all_deletes_the_set_that_was_approved(
    dana: Conversation, local: LocalStack, log_events: LogEvents
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("delete all my reminders")
    dana.tap(APPROVE)  # approved while "all" is one reminder
    (started,) = [e for e in log_events.named("EXECUTION_STARTED")][-1:]
    assert started["steps"] == 1
    assert dana.say("show my reminders") == "You have no upcoming reminders."
    # A later execution pinned to an older set leaves newer reminders alone.
    dana.say("remind me to call dad tomorrow at 6pm")
    (dad,) = _reminder_ids(local, dana.user.wa_id)
    args = {"reminderIds": ["gone-already"]}
    task = StepTask(
        trace_id="wamid.pinned",
        thread_id=dana.user.wa_id,
        step_id="s1",
        capability="reminders",
        action="delete_all",
        args=args,
        args_hash=args_hash(args),
    )
    _run(local, task)
    dana.replies()
    assert _reminder_ids(local, dana.user.wa_id) == [dad]
