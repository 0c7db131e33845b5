"""Issue 6 end to end: a WhatsApp request that the review policy sends to an operator waits on the
executor state machine (`.waitForTaskToken`, the same ASL as deployed, on moto) for a decision made
through the review API (handler resolver in-process, dev tokens), then runs once, or is refused."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from caseplatform.review.approvals import ReviewService, ensure_review_adapters
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.review.wiring import ReviewBridgeSettings, decision_listeners
from tests.integration.review.harness import ReviewClient, token
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation
from tests.support.webhook import post

START = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)
APPROVE = 1
REVIEW_ALL_REMINDER_DELETES = {"rules": [{"capability": "reminders", "action": "delete"}]}
ALICE = token("alice", "reviewers:memo_operation", name="Alice")
BOB = token("bob", "reviewers:memo_operation", name="Bob")
SENT_TO_REVIEW = "needs a quick check by one of our operators"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def _stack(monkeypatch: pytest.MonkeyPatch, clock: FakeClock, policy: dict[str, Any]) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    monkeypatch.setenv("MEMO_REVIEW_POLICY", json.dumps(policy))
    with LocalStack(start_poller=False, clock=clock) as running:
        yield running


@pytest.fixture
def local(
    monkeypatch: pytest.MonkeyPatch, clock: FakeClock, request: pytest.FixtureRequest
) -> Iterator[LocalStack]:
    policy = getattr(request, "param", REVIEW_ALL_REMINDER_DELETES)
    yield from _stack(monkeypatch, clock, policy)


@pytest.fixture
def dana(local: LocalStack) -> Conversation:
    return Conversation(stack=local, user=WhatsAppUser())


@pytest.fixture
def api(local: LocalStack, clock: FakeClock) -> ReviewClient:
    """The review API as the review Lambda builds it: the case store on DynamoDB (moto) and Memo's
    decision listener (task tokens on the ledger table, Step Functions on moto)."""
    import os

    settings = ReviewBridgeSettings.from_env(os.environ)
    cases = CaseService(
        DynamoCaseStore(settings.cases_table, boto3.client("dynamodb", region_name="us-east-1")),
        listeners=decision_listeners(settings, clock=clock),
    )
    cases.ensure_default_adapters()
    ensure_review_adapters(cases)
    return ReviewClient(ReviewService(cases))


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


def _send_to_review(dana: Conversation, local: LocalStack, message: dict[str, Any]) -> list[str]:
    """Deliver a message whose plan waits for an operator: the turn's reply, once the case exists."""
    response = post(dana.user.payload(message))
    assert response["statusCode"] == 200
    assert local.poller is not None
    local.poller.drain()
    assert local.stepfunctions is not None
    _wait_for(
        local,
        lambda: any(
            i.function_name == "memo-review-submit" for i in local.stepfunctions.dispatcher.invocations
        ),
    )
    return dana.replies()


def _finish(dana: Conversation, local: LocalStack, timeout: float = 30.0) -> list[dict[str, Any]]:
    assert local.stepfunctions is not None
    return local.stepfunctions.wait_all(timeout=timeout)


def _ask_delete_call_mom(dana: Conversation, local: LocalStack) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    question = dana.say("delete the call mom reminder")
    assert [c.title for c in dana.choices] == ["Approve", "Edit", "Reject"], question
    choice = dana.choices[APPROVE - 1]
    (told,) = _send_to_review(dana, local, dana.user.button_reply(choice.id, choice.title))
    assert SENT_TO_REVIEW in told


def _queue(api: ReviewClient, bearer: str = ALICE) -> list[dict[str, Any]]:
    answer = api.call("GET", "/review/cases", bearer=bearer, query="adapter_id=memo_operation")
    assert answer.status == 200, answer.body
    return list(answer.body["items"])


def _only_case(api: ReviewClient) -> dict[str, Any]:
    (item,) = _queue(api)
    answer = api.call("GET", f"/review/cases/{item['case_id']}", bearer=ALICE)
    assert answer.status == 200
    return dict(answer.body)


def _reminders(thread: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :r)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{thread}"}, ":r": {"S": "REMINDER#"}},
    )["Items"]
    return items


def _token_items() -> list[dict[str, Any]]:
    return [
        item
        for item in boto3.client("dynamodb", region_name="us-east-1").scan(TableName="memo-ledger")["Items"]
        if item["pk"]["S"].startswith("REVIEW#")
    ]


def _executor_runs(local: LocalStack) -> list[Any]:
    assert local.stepfunctions is not None
    return [i for i in local.stepfunctions.invocations if i.function_name == "memo-executor"]


def test_approved_by_an_operator_the_step_runs_once_and_the_user_is_told(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    _ask_delete_call_mom(dana, local)
    case = _only_case(api)
    payload = case["case"]["payload"]
    assert payload["capability"] == "reminders" and payload["action"] == "delete"
    assert dana.user.wa_id not in json.dumps(case)  # the user's number is not in the case
    runs_before = len(_executor_runs(local))
    answer = api.call(
        "POST", f"/review/cases/{case['case']['case_id']}/approve", bearer=ALICE, body={"request_id": "a1"}
    )
    assert answer.status == 200 and answer.body["current_state"] == "approved"
    (done,) = _finish(dana, local)
    assert done["status"] == "SUCCEEDED"
    assert dana.replies() == ["Deleted the reminder “call mom”."]
    assert _reminders(dana.user.wa_id) == []
    runs = _executor_runs(local)[runs_before:]
    assert len(runs) == 1
    approval = runs[0].event["approval"]
    assert approval["approved_by"] == "operator:alice" and approval["hitl_id"] == case["case"]["case_id"]
    # The same decision again (a retry) is replayed, and nothing runs a second time.
    again = api.call(
        "POST", f"/review/cases/{case['case']['case_id']}/approve", bearer=ALICE, body={"request_id": "a1"}
    )
    assert again.status == 200
    assert len(_executor_runs(local)) == runs_before + 1
    assert _token_items() == []


def test_rejected_by_an_operator_the_user_gets_the_reason(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    _ask_delete_call_mom(dana, local)
    case_id = _only_case(api)["case"]["case_id"]
    answer = api.call(
        "POST",
        f"/review/cases/{case_id}/reject",
        bearer=ALICE,
        body={"request_id": "r1", "reason": "This reminder belongs to a shared account."},
    )
    assert answer.status == 200 and answer.body["current_state"] == "rejected"
    _finish(dana, local)
    (reply,) = dana.replies()
    assert reply.startswith("An operator didn't approve this, so I didn't delete the reminder.")
    assert "This reminder belongs to a shared account." in reply
    assert len(_reminders(dana.user.wa_id)) == 1
    assert _executor_runs_of(local, "delete") == []


def test_approved_with_edits_runs_the_edited_args_under_the_operators_approval(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    dana.say("remind me to call dad tomorrow at 6pm")
    (dad,) = [i["sk"]["S"].removeprefix("REMINDER#") for i in _reminders(dana.user.wa_id)]
    _ask_delete_call_mom(dana, local)
    case = _only_case(api)
    payload = dict(case["case"]["payload"])
    payload["args"] = {**payload["args"], "reminderIds": [dad]}  # the operator picks another target
    answer = api.call(
        "POST",
        f"/review/cases/{case['case']['case_id']}/approve",
        bearer=ALICE,
        body={"request_id": "e1", "payload": payload},
    )
    assert answer.status == 200 and answer.body["approved_payload"]["args"]["reminderIds"] == [dad]
    _finish(dana, local)
    (reply,) = dana.replies()
    assert reply == "Deleted the reminder “call dad”."
    remaining = [i["sk"]["S"].removeprefix("REMINDER#") for i in _reminders(dana.user.wa_id)]
    assert dad not in remaining and len(remaining) == 1
    (run,) = [i for i in _executor_runs(local) if i.event.get("action") == "delete"]
    from memo.executor.contracts import args_hash

    assert run.event["args"]["reminderIds"] == [dad]
    assert run.event["approval"]["args_hash"] == args_hash(run.event["args"]) == run.event["args_hash"]


@pytest.mark.parametrize(
    "local", [{**REVIEW_ALL_REMINDER_DELETES, "adapter": {"required_approvers": 2}}], indirect=True
)
def test_two_approvers_are_two_different_principals(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    _ask_delete_call_mom(dana, local)
    case_id = _only_case(api)["case"]["case_id"]
    first = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "v1"})
    assert first.status == 200 and first.body["event_type"] == "approval_vote"
    same = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "v2"})
    assert same.status == 409 and same.body["code"] == "DUPLICATE_APPROVER"
    assert _executor_runs_of(local, "delete") == []
    assert len(_reminders(dana.user.wa_id)) == 1
    second = api.call("POST", f"/review/cases/{case_id}/approve", bearer=BOB, body={"request_id": "v3"})
    assert second.status == 200 and second.body["current_state"] == "approved"
    _finish(dana, local)
    assert dana.replies() == ["Deleted the reminder “call mom”."]
    (run,) = _executor_runs_of(local, "delete")
    assert run.event["approval"]["approved_by"] == "operator:bob"


def _executor_runs_of(local: LocalStack, action: str) -> list[Any]:
    return [i for i in _executor_runs(local) if i.event.get("action") == action]


@pytest.mark.parametrize("local", [{**REVIEW_ALL_REMINDER_DELETES, "timeout_seconds": 2}], indirect=True)
def test_the_wait_times_out_and_the_user_is_told_it_expired(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    _ask_delete_call_mom(dana, local)
    case_id = _only_case(api)["case"]["case_id"]
    (done,) = _finish(dana, local)
    assert done["status"] == "SUCCEEDED"
    (reply,) = dana.replies()
    assert "expired before an operator reviewed it" in reply
    assert len(_reminders(dana.user.wa_id)) == 1
    # A late approval is recorded on the case, but the expired token is only logged: nothing runs.
    late = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "late"})
    assert late.status == 200
    assert _executor_runs_of(local, "delete") == []
    assert dana.replies() == []


def test_the_task_token_is_never_shown(dana: Conversation, local: LocalStack, api: ReviewClient) -> None:
    _ask_delete_call_mom(dana, local)
    (stored,) = _token_items()
    task_token = stored["taskToken"]["S"]
    case_id = stored["pk"]["S"].removeprefix("REVIEW#")
    shown = [
        api.call("GET", "/review/cases", bearer=ALICE).body,
        api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body,
        api.call("GET", "/review/cases", bearer=ALICE, query="state=pending&adapter_id=memo_operation").body,
        api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "t1"}).body,
        api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body,
    ]
    assert all(task_token not in json.dumps(body) for body in shown)
    assert task_token not in json.dumps(api.review.cases.get_case_history(case_id), default=str)
    _finish(dana, local)
    assert dana.replies() == ["Deleted the reminder “call mom”."]
