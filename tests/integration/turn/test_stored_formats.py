"""What the turn path stores packed (`memo.packing`), and what an earlier release stored unpacked, read
back through the webhook: a question asked before an upgrade is answered after it, and "delete it"
still finds what was done before it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from memo.aws.conversation_table import latest_actions_of
from memo.aws.dynamo import from_item, to_item
from memo.conversation.pending import state_from_item
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation

APPROVE = 1
START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)  # Sunday 09:00 in Jerusalem


@pytest.fixture
def local(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    with LocalStack(start_poller=False, clock=FakeClock(START)) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


def _item(dana: Conversation, sk: str) -> dict[str, Any]:
    item: dict[str, Any] = boto3.client("dynamodb", region_name="us-east-1").get_item(
        TableName="memo-conversation", Key={"pk": {"S": f"THREAD#{dana.user.wa_id}"}, "sk": {"S": sk}}
    )["Item"]
    return item


def _put(item: dict[str, Any]) -> None:
    boto3.client("dynamodb", region_name="us-east-1").put_item(TableName="memo-conversation", Item=item)


def test_the_open_question_and_the_latest_actions_are_stored_packed(dana: Conversation) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to buy milk tomorrow at 6pm")
    assert "delete all your reminders (2)" in dana.say("delete all my reminders")

    pending = _item(dana, "PENDING")
    assert set(pending) == {"pk", "sk", "hitlId", "ttl", "state"} and "B" in pending["state"]
    state = state_from_item(from_item(pending))
    assert state.pending_hitl is not None and state.input.message == "delete all my reminders"
    assert len(pending["state"]["B"]) < len(state.to_json().encode()) / 3
    stored = from_item(_item(dana, "RECENT_ACTIONS"))
    # each turn's actions appended packed (`recent`), merged into `actions` now and then
    assert all(
        isinstance(packed, bytes) for packed in [*stored.get("recent", []), stored.get("actions", b"")]
    )
    actions = latest_actions_of(stored)
    assert [a["summary"] for a in actions] == [
        "reminder “buy milk” for Mon 23 Nov, 18:00",
        "reminder “call mom” for Mon 23 Nov, 17:00",
    ]


def test_a_question_asked_before_the_upgrade_is_answered_after_it(dana: Conversation) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to buy milk tomorrow at 6pm")
    assert "delete all your reminders (2)" in dana.say("delete all my reminders")
    # The earlier release stored the frozen state as JSON text, with a readable expiresAt beside it.
    item = from_item(_item(dana, "PENDING"))
    state = state_from_item(item)
    assert state.pending_hitl is not None
    _put(to_item({**item, "state": state.to_json(), "expiresAt": state.pending_hitl.expires_at.isoformat()}))

    assert dana.say("yes") == "Deleted 2 reminders: “call mom”, “buy milk”."
    assert dana.say("show my reminders") == "You have no upcoming reminders."


def test_hebrew_delete_it_finds_what_was_done_before_the_upgrade(dana: Conversation) -> None:
    assert dana.say("תזכיר לי להתקשר לאמא מחר ב-17:00").startswith("⏰")
    # The earlier release stored the latest actions as a list of maps.
    item = from_item(_item(dana, "RECENT_ACTIONS"))
    earlier = {k: v for k, v in item.items() if k != "recent"}
    _put(to_item({**earlier, "actions": latest_actions_of(item)}))

    question = dana.say("תמחק את זה")
    assert "אני עומד למחוק תזכורת אחת" in question and "„להתקשר לאמא”" in question
    assert dana.tap(APPROVE) == "מחקתי את התזכורת „להתקשר לאמא”."
    assert dana.say("מה התזכורות שלי?") == "אין לך תזכורות קרובות."


def _messages(dana: Conversation) -> list[dict[str, Any]]:
    """The thread's message items, oldest first."""
    items = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-conversation",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :m)",
        ExpressionAttributeValues={":pk": {"S": f"THREAD#{dana.user.wa_id}"}, ":m": {"S": "MSG#"}},
    )["Items"]
    return [from_item(item) for item in items]


def test_each_fact_of_a_message_is_stored_once(dana: Conversation) -> None:
    assert dana.say("remind me to call mom tomorrow at 5pm").startswith("⏰ Reminder set: “call mom”")
    assert "delete all your reminders (1)" in dana.say("delete all my reminders")
    assert dana.say("yes") == "Deleted 1 reminder: “call mom”."

    # (The test's clock stands still: every message has the same time, so they are taken by text.)
    users = {m["message"]["text"]: m for m in _messages(dana) if m["message"]["role"] == "user"}
    for item in _messages(dana):
        _msg, stamp, _seq, _wamid = item["sk"].split("#", 3)
        assert len(stamp) == 16  # the time, to the microsecond
        assert "at" not in item["message"]  # the sort key's alone
        assert "wamid" not in item["message"]
    plan, question, answer = (
        users[t] for t in ("remind me to call mom tomorrow at 5pm", "delete all my reminders", "yes")
    )
    assert plan["message"]["starts"] is True and "started" not in plan["message"]  # its own plan
    assert not {"starts", "started"} & set(question["message"])
    assert answer["message"]["started"] == question["sk"].split("#", 3)[3]  # the question's plan
    assert dana.say("show my reminders") == "You have no upcoming reminders."


def test_hebrew_move_it_while_a_request_sent_before_the_upgrade_is_running_waits_for_it(
    dana: Conversation, local: LocalStack
) -> None:
    from tests.integration.turn.test_plan_in_flight import HeldExecutor, _send

    assert dana.say("תזכיר לי לקנות חלב מחר ב-18:00").startswith("⏰")
    held = HeldExecutor(local)
    try:
        assert _send(dana, "תזכיר לי להתקשר לאמא מחר ב-17:00") == []
        # The earlier release stored the request with its time in milliseconds in the sort key, and
        # its time, wamid and plan (`started`) in full in the message.
        (request,) = [
            m for m in _messages(dana) if m["message"]["text"] == "תזכיר לי להתקשר לאמא מחר ב-17:00"
        ]
        assert request["message"]["starts"] is True
        _msg, stamp, seq, wamid = request["sk"].split("#", 3)
        at = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=int(stamp))
        old = {k: v for k, v in request["message"].items() if k != "starts"}
        message = {
            **old,
            "at": at.isoformat().replace("+00:00", "Z"),
            "wamid": wamid,
            "started": wamid,
        }
        _put(to_item({**request, "sk": f"MSG#{int(stamp) // 1000:013d}#{seq}#{wamid}", "message": message}))
        boto3.client("dynamodb", region_name="us-east-1").delete_item(
            TableName="memo-conversation", Key=to_item({"pk": request["pk"], "sk": request["sk"]})
        )

        (reply,) = _send(dana, "תזיז את זה ל-19:00")
        assert reply.startswith("אני עוד מטפל בבקשה הקודמת שלך")
    finally:
        held.release()
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
    (made,) = dana.replies()
    assert "להתקשר לאמא" in made
    moved = dana.say("תזיז את זה ל-19:00")
    assert "להתקשר לאמא" in moved and "לקנות חלב" not in moved
