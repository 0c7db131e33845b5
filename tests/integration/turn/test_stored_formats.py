"""What the turn path stores packed (`memo.packing`), and what an earlier release stored unpacked, read
back through the webhook: a question asked before an upgrade is answered after it, and "delete it"
still finds what was done before it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from memo.aws.dynamo import from_item, to_item
from memo.conversation.pending import state_from_item
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.packing import unpack
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
    actions = json.loads(unpack(from_item(_item(dana, "RECENT_ACTIONS"))["actions"]))
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

    assert dana.say("yes") == "Deleted 2 reminders."
    assert dana.say("show my reminders") == "You have no upcoming reminders."


def test_hebrew_delete_it_finds_what_was_done_before_the_upgrade(dana: Conversation) -> None:
    assert dana.say("תזכיר לי להתקשר לאמא מחר ב-17:00").startswith("⏰")
    # The earlier release stored the latest actions as a list of maps.
    item = from_item(_item(dana, "RECENT_ACTIONS"))
    _put(to_item({**item, "actions": json.loads(unpack(item["actions"]))}))

    question = dana.say("תמחק את זה")
    assert "אני עומד למחוק תזכורת אחת" in question and "„להתקשר לאמא”" in question
    assert dana.tap(APPROVE) == "מחקתי את התזכורת „להתקשר לאמא”."
    assert dana.say("מה התזכורות שלי?") == "אין לך תזכורות קרובות."
