"""The review policy counts what a step really touches, and the user can withdraw
a request that waits for an operator ("cancel that", "בטל"), through the webhook with signed
payloads, on the executor state machine (moto) with the review submit Lambda and the case platform.

Withdrawn: the case is closed (rejected by Memo as the requester, "Withdrawn by the user"), the
waiting task fails as REVIEW_WITHDRAWN, the step never runs, and the user is told in their language.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.wiring.review import ReviewRuntime
from tests.integration.caseplatform.review.harness import ReviewClient, token
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.webhook import post

START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)
APPROVE = 1
REVIEW_ALL_REMINDER_DELETES = {"rules": [{"capability": "reminders", "action": "delete"}]}
ALICE = token("alice", "reviewers:memo_operation", name="Alice")
SENT_TO_REVIEW = "needs a quick check by one of our operators"
SENT_TO_REVIEW_HE = "צריכה בדיקה קצרה של אחד המפעילים"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def local(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, request: pytest.FixtureRequest
) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    policy = getattr(request, "param", None)
    if policy is not None:
        monkeypatch.setenv("MEMO_REVIEW_POLICY", json.dumps(policy))
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


@pytest.fixture
def api(local: LocalStack) -> ReviewClient:
    return ReviewClient(ReviewRuntime.current().review)


def _wait_for(local: LocalStack, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    assert local.stepfunctions is not None
    changed = local.stepfunctions.dispatcher.changed
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        with changed:
            while not predicate():
                assert not deadline.is_set(), "timed out"
                changed.wait(0.05)
    finally:
        timer.cancel()


def _approve_into_review(dana: Conversation, local: LocalStack) -> str:
    """Tap Approve on the open question; the turn's reply once the review case exists."""
    choice = dana.choices[APPROVE - 1]
    response = post(dana.user.payload(dana.user.button_reply(choice.id, choice.title)))
    assert response["statusCode"] == 200
    assert local.poller is not None and local.stepfunctions is not None
    local.poller.drain()
    _wait_for(
        local,
        lambda: any(
            i.function_name == "memo-review-submit"
            for i in local.stepfunctions.dispatcher.invocations  # type: ignore[union-attr]
        ),
    )
    (told,) = dana.replies()
    return told


def _waiting_case_id(api: ReviewClient) -> str:
    listed = api.call("GET", "/review/cases", bearer=ALICE, query="adapter_id=memo_operation")
    (item,) = listed.body["items"]
    return str(item["case_id"])


def _case(api: ReviewClient, case_id: str) -> dict[str, Any]:
    answer = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE)
    assert answer.status == 200, answer.body
    return dict(answer.body)


def _token_items() -> list[dict[str, Any]]:
    return [
        item
        for item in boto3.client("dynamodb", region_name="us-east-1").scan(TableName="memo-ledger")["Items"]
        if item["pk"]["S"].startswith("REVIEW#")
    ]


def test_clearing_a_twelve_item_list_waits_for_an_operator_and_cancel_withdraws_it(
    dana: Conversation, local: LocalStack, api: ReviewClient, log_events: LogEvents
) -> None:
    items = ", ".join(f"item{i}" for i in range(12))
    dana.say(f"add {items} to my shopping list")
    question = dana.say("clear my shopping list")
    assert "12" in question  # the approval counts the items
    # The default policy's "11 or more items" fires: clearing counts its items, not 1.
    assert SENT_TO_REVIEW in _approve_into_review(dana, local)
    case_id = _waiting_case_id(api)
    case = _case(api, case_id)
    assert case["case"]["payload"]["action"] == "clear"
    assert "12" in case["case"]["summary"]  # the operator reads how many items
    assert len(_token_items()) == 1

    assert dana.deliver(dana.user.text("cancel that")) == [
        "You withdrew the request, so I didn't clear your list. Nothing was changed."
    ]
    case = _case(api, case_id)
    assert case["state"]["current_state"] == "rejected"
    decided = [e for e in case["history"] if e["event_type"] == "decision_recorded"]
    assert decided[0]["actor"]["role"] == "requester" and "Withdrawn by the user" in decided[0]["notes"]
    assert _token_items() == []
    assert len(log_events.named("REVIEW_WITHDRAWN")) == 1
    assert not [i for i in local.stepfunctions.invocations if i.event.get("action") == "clear"]  # type: ignore[union-attr]
    shown = dana.say("show my shopping list")
    assert all(f"item{i}" in shown for i in range(12))
    # Nothing waits any more: "cancel" asks about the latest change, the add, and "no" keeps it.
    assert dana.say("cancel").startswith("Undo what I just did — added item0, item1")
    assert dana.say("no") == "OK, I left everything as it is."
    assert all(f"item{i}" in dana.say("show my shopping list") for i in range(12))


@pytest.mark.parametrize("local", [REVIEW_ALL_REMINDER_DELETES], indirect=True)
def test_batel_withdraws_a_delete_waiting_for_an_operator_in_hebrew(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    dana.say("תזכיר לי מחר ב-5 להתקשר לאמא")
    assert "להתקשר לאמא" in dana.say("מחק את התזכורת להתקשר לאמא")
    assert SENT_TO_REVIEW_HE in _approve_into_review(dana, local)
    case_id = _waiting_case_id(api)
    assert dana.deliver(dana.user.text("בטל")) == [
        "ביטלת את הבקשה למחוק את התזכורת, אז לא עשיתי את זה. שום דבר לא השתנה."
    ]
    assert _case(api, case_id)["state"]["current_state"] == "rejected"
    assert "להתקשר לאמא" in dana.say("תראה לי את התזכורות שלי")


@pytest.mark.parametrize("local", [REVIEW_ALL_REMINDER_DELETES], indirect=True)
def test_after_the_operator_decided_cancel_is_too_late(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("delete the call mom reminder")
    assert SENT_TO_REVIEW in _approve_into_review(dana, local)
    case_id = _waiting_case_id(api)
    approved = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a1"})
    assert approved.status == 200
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all(timeout=30)
    assert dana.replies() == ["Deleted the reminder “call mom”."]
    assert dana.say("cancel that") == (
        "An operator already decided on that request, so it can't be withdrawn anymore."
    )
    assert _case(api, case_id)["state"]["current_state"] == "approved"


@pytest.mark.parametrize("local", [REVIEW_ALL_REMINDER_DELETES], indirect=True)
def test_a_withdrawal_whose_hand_over_fails_is_turned_again_and_ends_the_wait_once(
    dana: Conversation, local: LocalStack, api: ReviewClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn records the rejection, then the withdrawals queue refuses the case: the turn fails
    before its write and SQS redelivers it; the rejection is replayed, the case handed over, and the
    review Lambda ends the wait once: the person hears it once."""
    from memo.aws.queue import SqsWithdrawalNotices
    from memo.errors import TransientFault

    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("delete the call mom reminder")
    assert SENT_TO_REVIEW in _approve_into_review(dana, local)
    case_id = _waiting_case_id(api)
    refusals = [TransientFault("the queue refused")]
    hand_over = SqsWithdrawalNotices.withdrawn

    def refused_once(self: SqsWithdrawalNotices, case: str) -> None:
        if refusals:
            raise refusals.pop()
        hand_over(self, case)

    monkeypatch.setattr(SqsWithdrawalNotices, "withdrawn", refused_once)
    assert dana.deliver(dana.user.text("cancel that")) == [
        "You withdrew the request, so I didn't delete the reminder. Nothing was changed."
    ]
    assert refusals == []  # the first hand-over was refused
    assert _case(api, case_id)["state"]["current_state"] == "rejected"
    decided = [e for e in _case(api, case_id)["history"] if e["event_type"] == "decision_recorded"]
    assert len(decided) == 1  # the redelivered turn's rejection was replayed, not recorded twice
    assert _token_items() == []
    assert "call mom" in dana.say("show my reminders")
