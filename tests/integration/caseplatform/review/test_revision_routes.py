"""The review API's submitter routes, on SQLite and DynamoDB (moto): a reviewer's literal edit
response `{"decision": "edit", "feedback", "answers"}` sends the case back, the submitting agent
revises it (`/resubmit`, validated, only by its submitter), the revision is approved; every refusal
writes nothing. The feedback route only where the adapter enables the feedback tool."""

from __future__ import annotations

from typing import Any

from caseplatform.service import CaseService
from tests.integration.caseplatform.review.harness import ReviewClient, token
from tests.integration.caseplatform.review.test_api import ALICE, submit

ROBOT = {"name": "Ops robot", "role": "agent", "id": "robot"}
ROBOT_TOKEN = token("robot", "agents:ops_change", name="Ops robot")
OTHER_AGENT = token("intruder", "agents:ops_change", name="Intruder")
EDIT = {"decision": "edit", "feedback": "Delete only the 3 oldest", "answers": ["3", "oldest"]}


def _post(api: ReviewClient, case_id: str, route: str, bearer: str, **body: Any) -> Any:
    return api.call("POST", f"/review/cases/{case_id}/{route}", bearer=bearer, body=body)


def _types(cases: CaseService, case_id: str) -> list[str]:
    return [e.event_type for e in cases.get_case_history(case_id)]


def test_the_edit_response_goes_back_to_the_agent_who_revises_it(
    api: ReviewClient, cases: CaseService
) -> None:
    case_id = submit(cases, title="revise me", submitter=ROBOT)
    sent_back = _post(api, case_id, "decide", ALICE, request_id="e1", **EDIT)
    assert sent_back.status == 200, sent_back.body
    assert (sent_back.body["current_state"], sent_back.body["structured_decision"]) == (
        "changes_requested",
        "edit",
    )
    assert sent_back.body["feedback"] == EDIT["feedback"] and sent_back.body["answers"] == EDIT["answers"]

    queue = api.call("GET", "/review/cases", bearer=ALICE, query="state=changes_requested").body
    assert [item["case_id"] for item in queue["items"]] == [case_id]
    early = _post(api, case_id, "decide", ALICE, request_id="a1", decision="approve")
    assert (early.status, early.body["code"]) == (409, "INVALID_STATE_TRANSITION")

    invalid = _post(
        api, case_id, "resubmit", ROBOT_TOKEN, request_id="r0", payload={"action": "delete_notes"}
    )
    assert (invalid.status, invalid.body["code"]) == (422, "PAYLOAD_INVALID")
    stranger = _post(
        api, case_id, "resubmit", OTHER_AGENT, request_id="r0", payload={"action": "delete_notes", "count": 3}
    )
    assert (stranger.status, stranger.body["code"]) == (403, "NOT_SUBMITTER")
    reviewer = _post(
        api, case_id, "resubmit", ALICE, request_id="r0", payload={"action": "delete_notes", "count": 3}
    )
    assert reviewer.status == 403
    assert _types(cases, case_id) == ["submitted", "changes_requested"]

    revised = _post(
        api, case_id, "resubmit", ROBOT_TOKEN, request_id="r1", payload={"action": "delete_notes", "count": 3}
    )
    assert (revised.status, revised.body["current_state"]) == (200, "pending")
    approved = _post(api, case_id, "decide", ALICE, request_id="a2", decision="approve")
    assert approved.body["approved_payload"] == {"action": "delete_notes", "count": 3}
    detail = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body
    assert [e["event_type"] for e in detail["history"]] == _types(cases, case_id)
    assert _types(cases, case_id) == ["submitted", "changes_requested", "resubmitted", "decision_recorded"]


def test_the_feedback_route_is_refused_where_the_adapter_does_not_enable_it(
    api: ReviewClient, cases: CaseService
) -> None:
    case_id = submit(cases, title="feedback", submitter=ROBOT)
    refused = _post(api, case_id, "feedback", ROBOT_TOKEN, request_id="f1", feedback="the count is 12")
    assert (refused.status, refused.body["code"]) == (400, "FEEDBACK_TOOL_DISABLED")
    assert _types(cases, case_id) == ["submitted"]
