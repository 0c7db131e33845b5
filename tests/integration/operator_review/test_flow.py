"""Operator review end to end: a WhatsApp request that the review policy sends to an operator waits on the
executor state machine (`.waitForTaskToken`, the same ASL as deployed, on moto) for a decision made
through the review API (handler resolver in-process, dev tokens), then runs once, or is refused."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from memo.aws.dynamo import from_item
from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.packing import unpack
from memo.wiring.review import ReviewRuntime
from tests.integration.caseplatform.review.harness import ReviewClient, token
from tests.support.clock import FakeClock
from tests.support.conversation import Conversation, LogEvents
from tests.support.conversation import log_events as log_events  # the fixture
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
def api(local: LocalStack) -> ReviewClient:
    """The review API as the review Lambda builds it (the runtime the stack installed, on its clock):
    the case store on DynamoDB (moto) and Memo's decision listener (task tokens on the ledger table,
    Step Functions on moto)."""
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
    # A deleted reminder waiting for a possible "Undo" (undo_key) is gone for the user.
    return [i for i in items if "undo_key" not in i]


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


@pytest.mark.parametrize(
    "local", [{"rules": [{"capability": "reminders", "action": "delete_all"}]}], indirect=True
)
def test_approved_with_edits_runs_the_edited_args_under_the_operators_approval(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    dana.say("remind me to call mom tomorrow at 5pm")
    dana.say("remind me to call dad tomorrow at 6pm")
    dana.say("delete all my reminders")
    choice = dana.choices[APPROVE - 1]
    (told,) = _send_to_review(dana, local, dana.user.button_reply(choice.id, choice.title))
    assert SENT_TO_REVIEW in told
    case = _only_case(api)
    titles = {i["sk"]["S"].removeprefix("REMINDER#"): i["title"]["S"] for i in _reminders(dana.user.wa_id)}
    (dad,) = [rid for rid, title in titles.items() if title == "call dad"]
    assert sorted(case["case"]["payload"]["args"]["reminderIds"]) == sorted(titles)
    payload = dict(case["case"]["payload"])
    # Another target than the user's is refused (an edit may only narrow); keeping one of them runs.
    elsewhere = {**payload, "args": {**payload["args"], "reminderIds": [dad, "another-users-reminder"]}}
    refused = api.call(
        "POST",
        f"/review/cases/{case['case']['case_id']}/approve",
        bearer=ALICE,
        body={"request_id": "e0", "payload": elsewhere},
    )
    assert (refused.status, refused.body["code"]) == (422, "EDIT_REFUSED")
    payload["args"] = {**payload["args"], "reminderIds": [dad]}  # the operator keeps one of the two
    answer = api.call(
        "POST",
        f"/review/cases/{case['case']['case_id']}/approve",
        bearer=ALICE,
        body={"request_id": "e1", "payload": payload},
    )
    assert answer.status == 200 and answer.body["approved_payload"]["args"]["reminderIds"] == [dad]
    _finish(dana, local)
    told, reply = dana.replies()  # first what the operator changed, then what ran
    assert told == (
        "An operator changed your request before it ran: I'll delete 1 of the 2 reminders you asked about."
    )
    assert reply == "Deleted 1 reminder: “call dad”."
    remaining = [i["sk"]["S"].removeprefix("REMINDER#") for i in _reminders(dana.user.wa_id)]
    assert dad not in remaining and len(remaining) == 1
    (run,) = [i for i in _executor_runs(local) if i.event.get("action") == "delete_all"]
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


# --- clarification through the user --------------------------------------------------------------

ASKED = "Which mom do you mean, your mother or the contact named Mom?"


def _answer(dana: Conversation, local: LocalStack, text: str) -> list[str]:
    """The user's message while the step still waits for the operator (no wait_all: it would block)."""
    response = post(dana.user.payload(dana.user.text(text)))
    assert response["statusCode"] == 200
    assert local.poller is not None
    local.poller.drain()
    return dana.replies()


def _pending_item(thread: str) -> dict[str, Any] | None:
    item: dict[str, Any] | None = (
        boto3.client("dynamodb", region_name="us-east-1")
        .get_item(
            TableName="memo-conversation",
            Key={"pk": {"S": f"THREAD#{thread}"}, "sk": {"S": "PENDING"}},
            ConsistentRead=True,
        )
        .get("Item")
    )
    return item


def _ask(api: ReviewClient, case_id: str, question: str = ASKED, request_id: str = "q1") -> Any:
    return api.call(
        "POST",
        f"/review/cases/{case_id}/clarify",
        bearer=ALICE,
        body={"request_id": request_id, "question": question},
    )


def _other_user_with_the_same_number() -> WhatsAppUser:
    return WhatsAppUser(phone_number_id="100000000000777")


@pytest.fixture
def sam(local: LocalStack) -> Conversation:
    """A user who writes to a second business phone number id."""
    return Conversation(stack=local, user=_other_user_with_the_same_number())


def test_clarification_round_trip_through_whatsapp(
    sam: Conversation, local: LocalStack, api: ReviewClient, clock: FakeClock
) -> None:
    _ask_delete_call_mom(sam, local)
    case_id = _only_case(api)["case"]["case_id"]
    asked = _ask(api, case_id)
    assert asked.status == 200 and asked.body["current_state"] == "needs_clarification"
    # The user gets the operator's question on WhatsApp, from the number they wrote to.
    (record,) = local.sink.messages(to=sam.user.wa_id, after=sam.seen)
    assert record.phone_number_id == "100000000000777"
    (question,) = sam.replies()
    assert "The operator reviewing your request asks:" in question and ASKED in question
    stored = _pending_item(sam.user.wa_id)
    assert stored is not None
    stored_state = unpack(from_item(stored)["state"])
    pending = json.loads(stored_state)["pendingHITL"]
    assert pending["kind"] == "clarification" and pending["source"] == "operator"
    assert pending["reason"] == "operator_question" and pending["expectedInput"] == "free_text"
    assert pending["returnTo"] == {"node": "case", "mode": "provide_clarification"}
    assert pending["context"]["caseId"] == case_id
    (token_item,) = _token_items()
    token = token_item["taskToken"]["S"]
    assert token not in stored_state and token not in json.dumps(stored, default=str)  # never the token
    # Not the 5-minute HITL TTL: the question lives as long as the operator's wait (a day).
    expires = datetime.fromisoformat(pending["expiresAt"])
    assert expires - clock() > timedelta(hours=23)
    # The user answers: the answer goes to the case, which is pending again.
    clock.advance(minutes=10)
    told = _answer(sam, local, "My mother, the reminder I made yesterday")
    assert told == ["I've passed that on to the reviewer. I'll message you as soon as it's decided."]
    assert _pending_item(sam.user.wa_id) is None
    case = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body
    assert case["state"]["current_state"] == "pending"
    provided = [e for e in case["history"] if e["event_type"] == "clarification_provided"]
    assert len(provided) == 1
    assert provided[0]["answer"] == "My mother, the reminder I made yesterday"
    assert provided[0]["actor"]["kind"] == "agent" and provided[0]["actor"]["role"] == "requester"
    assert sam.user.wa_id not in json.dumps(case)  # neither the number nor the thread in the case
    # The operator approves: the step runs once and the user is told.
    runs_before = len(_executor_runs_of(local, "delete"))
    approved = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a1"})
    assert approved.status == 200 and approved.body["current_state"] == "approved"
    (done,) = _finish(sam, local)
    assert done["status"] == "SUCCEEDED"
    assert sam.replies() == ["Deleted the reminder “call mom”."]
    assert len(_executor_runs_of(local, "delete")) == runs_before + 1
    assert _reminders(sam.user.wa_id) == []


def test_a_live_question_of_the_user_is_not_overwritten_and_the_case_keeps_waiting(
    dana: Conversation, local: LocalStack, api: ReviewClient, log_events: LogEvents
) -> None:
    _ask_delete_call_mom(dana, local)
    case_id = _only_case(api)["case"]["case_id"]
    # The user is in the middle of another question of their own.
    question = _answer(dana, local, "remind me to water the plants")
    assert question and "when" in question[0].lower()
    before = _pending_item(dana.user.wa_id)
    assert before is not None
    asked = _ask(api, case_id)
    assert asked.status == 200
    assert dana.replies() == []  # nothing relayed
    assert _pending_item(dana.user.wa_id) == before  # not overwritten
    assert "HITL_DUPLICATE_ATTEMPT" in log_events.names()
    case = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body
    assert case["state"]["current_state"] == "needs_clarification"


def test_a_cancel_word_declines_to_answer_and_the_case_stays_with_the_operator(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    _ask_delete_call_mom(dana, local)
    case_id = _only_case(api)["case"]["case_id"]
    assert _ask(api, case_id).status == 200
    dana.replies()
    (told,) = _answer(dana, local, "cancel")
    assert told.startswith("OK, I didn't pass anything on.")
    assert _pending_item(dana.user.wa_id) is None
    case = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body
    assert case["state"]["current_state"] == "needs_clarification"
    assert not [e for e in case["history"] if e["event_type"] == "clarification_provided"]
    # The operator may still decide without an answer.
    rejected = api.call(
        "POST",
        f"/review/cases/{case_id}/reject",
        bearer=ALICE,
        body={"request_id": "r1", "reason": "Unclear."},
    )
    assert rejected.status == 200
    _finish(dana, local)
    (reply,) = dana.replies()
    assert "Unclear." in reply
    assert len(_reminders(dana.user.wa_id)) == 1


def test_a_decision_withdraws_the_open_question_so_the_next_message_is_fresh(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    _ask_delete_call_mom(dana, local)
    case_id = _only_case(api)["case"]["case_id"]
    assert _ask(api, case_id).status == 200
    dana.replies()
    assert _pending_item(dana.user.wa_id) is not None
    approved = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a1"})
    assert approved.status == 200
    assert _pending_item(dana.user.wa_id) is None
    _finish(dana, local)
    assert dana.replies() == ["Deleted the reminder “call mom”."]
    # Not taken as an answer to the withdrawn question: a fresh request.
    assert "call dad" in dana.say("remind me to call dad tomorrow at 6pm")
    history = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body["history"]
    assert not [e for e in history if e["event_type"] == "clarification_provided"]
