"""Operator edits that would broaden a user's step, replayed through the review API, the MCP tools
and the structured decision, on the local stack: two approvers once turned "add eggs" into forty
items with a phishing link, and the user was told "I'll add 40 of the 1 lists you asked about"; an
edit with an unknown argument failed only when the step ran. Now every such edit is refused when the
decision is recorded (422 / an MCP error, code EDIT_REFUSED), nothing is recorded and nothing runs;
an edit that narrows the step runs, and the user hears real figures."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest

from memo.local.stack import LocalStack
from memo.local.whatsapp_user import WhatsAppUser
from memo.wiring.review import ReviewRuntime
from tests.integration.caseplatform.review.harness import Answer, ReviewClient, token
from tests.support.clock import TEST_NOW, FakeClock
from tests.support.conversation import Conversation
from tests.support.webhook import post

ALICE = token("alice", "reviewers:memo_operation", name="Alice")
BOB = token("bob", "reviewers:memo_operation", name="Bob")
REVIEWED = {
    "rules": [
        {"capability": "lists", "action": "add"},
        {"capability": "reminders", "action": "delete_all"},
    ]
}
TWO_APPROVERS = {**REVIEWED, "adapter": {"required_approvers": 2}}
FORTY = [f"item {n}" for n in range(39)] + ["https://evil.example/login"]
MCP_HEADERS = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}


@pytest.fixture
def local(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[LocalStack]:
    monkeypatch.setenv("MEMO_DEFAULT_TIMEZONE", "Asia/Jerusalem")
    monkeypatch.setenv("MEMO_REVIEW_POLICY", json.dumps(getattr(request, "param", REVIEWED)))
    with LocalStack(start_poller=False, clock=FakeClock(TEST_NOW)) as running:
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
    expired = threading.Event()
    timer = threading.Timer(timeout, expired.set)
    timer.start()
    try:
        with changed:
            while not predicate():
                assert not expired.is_set(), "timed out"
                changed.wait(0.05)
    finally:
        timer.cancel()


def _to_review(dana: Conversation, local: LocalStack, message: dict[str, Any]) -> dict[str, Any]:
    """Deliver a message whose step waits for an operator; the case it opened. A request the
    policy names is first asked of the user (`tool_requires_review`): its Approve is tapped."""
    if message.get("type") == "text":
        (question,) = dana.deliver(message)
        assert question.startswith("This needs a check"), question
        approve = dana.choices[0]
        message = dana.user.button_reply(approve.id, approve.title)
    assert post(dana.user.payload(message))["statusCode"] == 200
    assert local.poller is not None and local.stepfunctions is not None
    local.poller.drain()
    invocations = local.stepfunctions.dispatcher.invocations
    _wait_for(local, lambda: any(i.function_name == "memo-review-submit" for i in invocations))
    assert "needs a quick check" in " ".join(dana.replies())
    api = ReviewClient(ReviewRuntime.current().review)
    listed = api.call("GET", "/review/cases", bearer=ALICE, query="adapter_id=memo_operation")
    (item,) = listed.body["items"]
    return dict(api.call("GET", f"/review/cases/{item['case_id']}", bearer=ALICE).body["case"])


def _with_args(case: dict[str, Any], **args: Any) -> dict[str, Any]:
    return {**case["payload"], "args": {**case["payload"]["args"], **args}}


def _mcp_decide(api: ReviewClient, bearer: str, **arguments: Any) -> dict[str, Any]:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "record_decision", "arguments": arguments},
    }
    answer = api.call("POST", "/review/mcp", body=call, headers=MCP_HEADERS, bearer=bearer)
    assert answer.status == 200, answer.body
    return dict(json.loads(answer.body)["result"])


def _refused(answer: Answer, path: str) -> None:
    assert answer.status == 422, answer.body
    assert answer.body["code"] == "EDIT_REFUSED"
    assert path in [d["path"] for d in answer.body["details"]], answer.body


def _history(api: ReviewClient, case_id: str) -> list[str]:
    detail = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body
    return [e["event_type"] for e in detail["history"]]


def _list_items(user: WhatsAppUser) -> list[str]:
    items = boto3.client("dynamodb", region_name="us-east-1").query(
        TableName="memo-items",
        KeyConditionExpression="pk = :pk AND begins_with(sk, :l)",
        ExpressionAttributeValues={":pk": {"S": f"USER#{user.wa_id}"}, ":l": {"S": "LIST#"}},
    )["Items"]
    return sorted(i["text"]["S"] for i in items if "undo_key" not in i)


def _executor_runs(local: LocalStack, action: str) -> list[Any]:
    assert local.stepfunctions is not None
    return [
        i
        for i in local.stepfunctions.invocations
        if i.function_name == "memo-executor" and i.event.get("action") == action
    ]


@pytest.mark.parametrize("local", [TWO_APPROVERS], indirect=True)
def test_two_approvers_cannot_turn_add_eggs_into_forty_items(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    case = _to_review(dana, local, dana.user.text("add eggs to the shopping list"))
    assert case["payload"]["args"]["items"] == ["eggs"]
    case_id, forty = case["case_id"], _with_args(case, items=FORTY)

    # Each surface an operator decides on refuses it, before anything is recorded.
    approve = api.call(
        "POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a1", "payload": forty}
    )
    _refused(approve, "$.payload.args.items")
    decide = api.call(
        "POST",
        f"/review/cases/{case_id}/decide",
        bearer=BOB,
        body={"request_id": "b1", "decision": "edit", "payload": forty},
    )
    _refused(decide, "$.payload.args.items")
    mcp = _mcp_decide(api, BOB, case_id=case_id, decision="edit", request_id="b2", payload=forty)
    assert mcp["isError"] is True and mcp["structuredContent"]["code"] == "EDIT_REFUSED"
    assert _history(api, case_id) == ["submitted"]  # no vote, no decision

    # Approved as the user asked, by two people: one egg, and no word of forty.
    for bearer, request_id in ((ALICE, "a2"), (BOB, "b3")):
        assert (
            api.call(
                "POST", f"/review/cases/{case_id}/approve", bearer=bearer, body={"request_id": request_id}
            ).status
            == 200
        )
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
    (reply,) = dana.replies()
    assert "eggs" in reply and "40" not in reply
    assert _list_items(dana.user) == ["eggs"]


def test_an_unknown_argument_is_refused_when_recorded_not_when_run(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    case = _to_review(dana, local, dana.user.text("add eggs to the shopping list"))
    case_id = case["case_id"]
    unknown = _with_args(case, quantity=40)
    _refused(
        api.call(
            "POST",
            f"/review/cases/{case_id}/approve",
            bearer=ALICE,
            body={"request_id": "a1", "payload": unknown},
        ),
        "$.payload.args.quantity",
    )
    mcp = _mcp_decide(api, ALICE, case_id=case_id, decision="edit", request_id="a2", payload=unknown)
    assert mcp["structuredContent"]["code"] == "EDIT_REFUSED"
    assert _history(api, case_id) == ["submitted"]
    assert _executor_runs(local, "add") == []


def _three_reminders_to_review(dana: Conversation, local: LocalStack) -> dict[str, Any]:
    for title, hour in (("call mom", 17), ("call dad", 18), ("pay rent", 19)):
        dana.say(f"remind me to {title} tomorrow at {hour - 12}pm")
    question = dana.say("delete all my reminders")
    assert [c.title for c in dana.choices] == ["Approve", "Edit", "Reject"], question
    approve = dana.choices[0]
    return _to_review(dana, local, dana.user.button_reply(approve.id, approve.title))


def test_edits_that_would_widen_a_delete_are_refused_and_nothing_is_deleted(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    case = _three_reminders_to_review(dana, local)
    case_id, pinned = case["case_id"], case["payload"]["args"]["reminderIds"]
    unpinned = {**case["payload"], "args": {}}  # no ids left: "every reminder"
    attempts = [
        (_with_args(case, reminderIds=[*pinned, "someone-elses-id"]), "$.payload.args.reminderIds"),
        (_with_args(case, reminderIds=None), "$.payload.args.reminderIds"),
        (unpinned, "$.payload.args.reminderIds"),
        ({**case["payload"], "action": "clear"}, "$.payload.action"),
    ]
    for n, (payload, path) in enumerate(attempts):
        body = {"request_id": f"w{n}", "payload": payload}
        _refused(api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body=body), path)
    assert _history(api, case_id) == ["submitted"]
    assert _executor_runs(local, "delete_all") == []


def test_a_narrowed_delete_runs_and_the_user_hears_real_figures(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    case = _three_reminders_to_review(dana, local)
    keep_one = _with_args(case, reminderIds=case["payload"]["args"]["reminderIds"][:1])
    answer = api.call(
        "POST",
        f"/review/cases/{case['case_id']}/approve",
        bearer=ALICE,
        body={"request_id": "n1", "payload": keep_one},
    )
    assert answer.status == 200 and answer.body["current_state"] == "approved"
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
    told, reply = dana.replies()
    assert (
        told
        == "An operator changed your request before it ran: I'll delete 1 of the 3 reminders you asked about."
    )
    assert reply == "Deleted 1 reminder: “call mom”."
    (run,) = _executor_runs(local, "delete_all")
    assert run.event["args"]["reminderIds"] == keep_one["args"]["reminderIds"]


def test_a_narrowed_list_add_names_the_items_not_lists(
    dana: Conversation, local: LocalStack, api: ReviewClient
) -> None:
    case = _to_review(dana, local, dana.user.text("add eggs, milk and bread to the shopping list"))
    items = case["payload"]["args"]["items"]
    assert len(items) == 3
    keep = _with_args(case, items=items[1:2])
    body = {"request_id": "n1", "payload": keep}
    assert api.call("POST", f"/review/cases/{case['case_id']}/approve", bearer=ALICE, body=body).status == 200
    assert local.stepfunctions is not None
    local.stepfunctions.wait_all()
    told, _ = dana.replies()
    assert (
        told == "An operator changed your request before it ran: I'll add 1 of the 3 items you asked about."
    )
    assert _list_items(dana.user) == items[1:2]
