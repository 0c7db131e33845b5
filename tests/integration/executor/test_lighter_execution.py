"""The execution that follows an approval, lighter and still exact.

Through the webhook with signed payloads on the local stack (moto, the deployed ASL, a fake clock).
The execution the "Approve" tap starts is held back (as Step Functions may start it late, or retry
it), so the person can act in between; then it runs:

- the whole execution of "delete all my reminders" (2 reminders) and its reply takes 4 DynamoDB
  requests: one transaction of the ledger claim and a conditional tombstone per reminder (no read
  before it), the ledger completion (one update of the entry); the reply claim with the
  latestActions appended (no read), and the one write after the send;
- no user text stays in the ledger once the reply is claimed, and a late re-run of the execution
  neither runs the step again nor replies twice;
- a reminder the person moved after approving is left alone — item and schedule — and the reply
  says so; one deleted meanwhile is counted as already gone (English and Hebrew).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from botocore.client import BaseClient

from memo.executor.contracts import ExecutionInput
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

APPROVE = 1
# Sunday 22 Nov 2026, 09:00 in Jerusalem.
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)


class HeldExecutions:
    """Holds back the next execution the turn starts (its StartExecution input), and counts the
    DynamoDB requests made while it runs."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str] = []
        self.dynamodb: list[tuple[str, dict[str, Any]]] = []
        self.counting = False

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = BaseClient._make_api_call

        def call(client: Any, operation: str, params: dict[str, Any]) -> Any:
            if operation == "StartExecution" and self.holding:
                self.holding = False
                self.held.append(params["input"])
                arn = (
                    params["stateMachineArn"].replace(":stateMachine:", ":execution:") + ":" + params["name"]
                )
                return {"executionArn": arn, "startDate": datetime.now(UTC)}
            if self.counting and client.meta.service_model.service_name == "dynamodb":
                self.dynamodb.append((operation, params))
            return original(client, operation, params)

        monkeypatch.setattr(BaseClient, "_make_api_call", call)

    def approve(self, chat: Conversation) -> None:
        """Tap "Approve"; its execution is held (so no reply yet)."""
        self.holding = True
        choice = chat.choices[APPROVE - 1]
        assert chat.deliver(chat.user.button_reply(choice.id, choice.title)) == []
        assert len(self.held) == 1, "the approval started no execution"

    def release(self, local: LocalStack) -> list[str]:
        """Run the held execution to its end, counting its DynamoDB requests."""
        assert local.stepfunctions is not None
        self.counting = True
        try:
            local.stepfunctions.run(ExecutionInput.model_validate_json(self.held.pop()))
        finally:
            self.counting = False
        return [operation for operation, _ in self.dynamodb]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def executions(monkeypatch: pytest.MonkeyPatch) -> HeldExecutions:
    held = HeldExecutions()
    held.install(monkeypatch)
    return held


@pytest.fixture
def local(
    clock: FakeClock, executions: HeldExecutions, monkeypatch: pytest.MonkeyPatch
) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def _reminders(user: WhatsAppUser) -> dict[str, dict[str, Any]]:
    """The user's reminder items by title, tombstoned ones included (marked by `undo_key`)."""
    items = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :r)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{user.wa_id}"}, ":r": {"S": "REMINDER#"}},
    )["Items"]
    return {item["title"]["S"]: item for item in items}


def test_the_execution_of_delete_all_takes_three_dynamodb_requests(
    dana: Conversation, local: LocalStack, executions: HeldExecutions
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to buy milk tomorrow at 6pm")
    assert "delete all your reminders (2)" in dana.say("delete all my reminders")
    executions.approve(dana)

    requests = executions.release(local)

    assert dana.replies() == ["Deleted 2 reminders: “call mom”, “buy milk”."]
    # Executor: the completed claim with both tombstones (no write after it). Responder: the claim
    # with the latestActions appended, reply+quote records after the send.
    assert requests == ["TransactWriteItems", "TransactWriteItems", "BatchWriteItem"]
    (claimed, _replied, _after) = (params for _, params in executions.dynamodb)
    assert [next(iter(w.values()))["TableName"] for w in claimed["TransactItems"]] == [
        "memo-ledger",
        "memo-items",
        "memo-items",
    ]
    entries = boto3.client("dynamodb", region_name="us-east-1").scan(TableName="memo-ledger")["Items"]
    (entry,) = [e for e in entries if "delete_all" in e.get("replay", {}).get("S", "")]
    assert entry["status"]["S"] == "completed"
    replay = json.loads(entry["replay"]["S"])
    assert sorted(replay["external_ids"]["reminderIds"]) == sorted(
        item["sk"]["S"].removeprefix("REMINDER#") for item in _reminders(dana.user).values()
    )
    assert all("undo_key" in item for item in _reminders(dana.user).values())
    # Its latest actions went in with the reply's claim: "undo it" / "delete it" know what it did.
    (undo,) = dana.choices
    assert undo.title == "Undo"
    executions.holding = False
    dana.tap(1)
    assert not any("undo_key" in item for item in _reminders(dana.user).values())  # both are back


def _ledger_text() -> str:
    """Every item of the ledger table, as stored."""
    items = boto3.client("dynamodb", region_name="us-east-1").scan(TableName="memo-ledger")["Items"]
    return json.dumps(items, ensure_ascii=False)


def test_no_user_text_stays_in_the_ledger_and_a_late_rerun_does_not_save_twice(
    dana: Conversation, local: LocalStack, executions: HeldExecutions
) -> None:
    executions.holding = True
    assert dana.deliver(dana.user.text("note: secret gate code Q7Z4")) == []
    (held,) = executions.held
    executions.held.append(held)  # the same execution again, after the reply (a redrive)

    executions.release(local)

    (saved,) = dana.replies()
    assert "secret gate code Q7Z4" in saved
    ledger = _ledger_text()
    assert '"completed"' in ledger  # the step's entry: what exactly-once needs
    assert "Q7Z4" not in ledger.upper() and "secret" not in ledger and "gate" not in ledger

    executions.release(local)

    # The step is known done: not run again, and the turn already replied.
    assert dana.replies() == []
    assert dana.say("show my notes").count("secret gate code Q7Z4") == 1
    assert "Q7Z4" not in _ledger_text().upper()  # Q and Z are in no hex id


def test_a_reminder_moved_after_the_approval_is_left_alone_and_named(
    dana: Conversation, local: LocalStack, executions: HeldExecutions, clock: FakeClock
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to buy milk tomorrow at 6pm")
    dana.say("delete all my reminders")
    executions.approve(dana)
    clock.advance(minutes=1)
    assert dana.say("move the call mom reminder to 8pm") == (
        "Updated the reminder “call mom” — now for Mon 23 Nov, 20:00."
    )

    executions.release(local)

    assert dana.replies() == [
        "Deleted 1 reminder: “buy milk”. I didn't delete “call mom”: it was changed after you approved "
        "(now for Mon 23 Nov, 20:00)."
    ]
    items = _reminders(dana.user)
    assert "undo_key" in items["buy milk"] and "undo_key" not in items["call mom"]
    assert items["call mom"]["status"]["S"] == "scheduled"
    assert dana.say("show my reminders") == "Your reminders:\n• “call mom” — Mon 23 Nov, 20:00"
    # Nothing else was touched: the moved reminder's schedule still fires, milk's does not.
    assert local.ticker is not None
    clock.set(datetime(2026, 11, 23, 16, 0, 30, tzinfo=UTC))  # 18:00 in Jerusalem
    assert local.ticker.tick() == []
    clock.set(datetime(2026, 11, 23, 18, 0, 30, tzinfo=UTC))  # 20:00 in Jerusalem
    assert len(local.ticker.tick()) == 1
    (delivered,) = dana.replies()
    assert "call mom" in delivered


def test_a_reminder_deleted_meanwhile_is_counted_as_already_gone(
    dana: Conversation, local: LocalStack, executions: HeldExecutions
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to buy milk tomorrow at 6pm")
    dana.say("delete all my reminders")
    executions.approve(dana)
    dana.say("delete the buy milk reminder")
    assert dana.tap(APPROVE) == "Deleted the reminder “buy milk”."

    executions.release(local)

    assert dana.replies() == ["Deleted 1 reminder: “call mom”. 1 reminder was already gone."]
    assert all("undo_key" in item for item in _reminders(dana.user).values())
    # Its "Undo" brings back only what this execution deleted; milk stays deleted.
    (undo,) = dana.choices
    assert undo.title == "Undo"
    dana.tap(1)
    assert dana.say("show my reminders") == "Your reminders:\n• “call mom” — Mon 23 Nov, 17:00"


def test_hebrew_every_approved_reminder_changed_so_nothing_is_deleted(
    dana: Conversation, local: LocalStack, executions: HeldExecutions, clock: FakeClock
) -> None:
    dana.say("תזכיר לי להתקשר לאמא מחר ב-17:00")
    assert "(1)" in dana.say("תמחק את כל התזכורות שלי")
    executions.approve(dana)
    clock.advance(minutes=1)
    assert dana.say("תזיז את התזכורת להתקשר לאמא ל-20:00").startswith("עדכנתי את התזכורת „להתקשר לאמא”")

    executions.release(local)

    assert dana.replies() == [
        "את „להתקשר לאמא” לא מחקתי: הפרטים השתנו אחרי שאישרת (עכשיו ליום ב׳ 23.11 בשעה 20:00). "
        "אפשר לבקש שוב אם עדיין צריך."
    ]
    (mom,) = _reminders(dana.user).values()
    assert "undo_key" not in mom and mom["status"]["S"] == "scheduled"
    assert dana.say("מה התזכורות שלי").endswith("„להתקשר לאמא” — יום ב׳ 23.11 בשעה 20:00")
