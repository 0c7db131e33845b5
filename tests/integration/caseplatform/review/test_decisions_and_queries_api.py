"""The review API and MCP over HTTP, on SQLite and DynamoDB (moto): the decision schema route
(`/decide`), allowed decisions and self-approval refused with nothing written, the case showing
what a reviewer may do, and the cross-case queries as routes and tools (reviewers:* only)."""

from __future__ import annotations

from typing import Any

from caseplatform.service import CaseService
from tests.integration.caseplatform.review.harness import ReviewClient, token
from tests.integration.caseplatform.review.test_api import AGENT, ALICE, submit

AUDITOR = token("audrey", "reviewers:*", name="Audrey")
BOTH = token("pat", "agents:ops_change", "reviewers:ops_change", name="Pat")


def _decide(api: ReviewClient, case_id: str, bearer: str, **body: Any) -> Any:
    return api.call(
        "POST", f"/review/cases/{case_id}/decide", bearer=bearer, body={"request_id": "r1", **body}
    )


def test_decide_records_the_structured_decision(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, title="edit me")
    detail = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body
    assert detail["allowed_decisions"] == ["approve", "edit", "reject"]  # respond: only where an adapter asks
    assert detail["own_case"] is False
    edited = _decide(
        api,
        case_id,
        ALICE,
        decision="edit",
        payload={"action": "delete_notes", "count": 3},
        feedback="only 3",
    )
    assert edited.status == 200, edited.body
    assert (edited.body["current_state"], edited.body["structured_decision"]) == ("approved", "edit")
    assert edited.body["approved_payload"] == {"action": "delete_notes", "count": 3}
    decided = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE).body["decision"]
    assert decided["structured_decision"] == "edit" and decided["approved_payload"]["count"] == 3


def test_decide_refusals_write_nothing(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, title="refusals")
    bad = _decide(api, case_id, ALICE, decision="ignore")
    assert bad.status == 400
    unchanged = _decide(api, case_id, ALICE, decision="edit", payload={"action": "delete_notes", "count": 12})
    assert (unchanged.status, unchanged.body["code"]) == (409, "DECISION_NOT_ALLOWED")
    invalid = _decide(api, case_id, ALICE, decision="edit", payload={"action": "delete_notes", "count": 0})
    assert (invalid.status, invalid.body["code"]) == (422, "PAYLOAD_INVALID")
    no_reason = _decide(api, case_id, ALICE, decision="reject")
    assert (no_reason.status, no_reason.body["code"]) == (400, "ENVELOPE_INVALID")
    assert [e.event_type for e in cases.get_case_history(case_id)] == ["submitted"]


def test_a_reviewer_may_not_approve_what_it_submitted(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, title="mine", submitter={"name": "Pat", "role": "agent", "id": "pat"})
    assert api.call("GET", f"/review/cases/{case_id}", bearer=BOTH).body["own_case"] is True
    for path, body in (("approve", {}), ("decide", {"decision": "approve"})):
        refused = api.call(
            "POST", f"/review/cases/{case_id}/{path}", bearer=BOTH, body={"request_id": path, **body}
        )
        assert (refused.status, refused.body["code"]) == (403, "SELF_APPROVAL"), refused.body
    assert [e.event_type for e in cases.get_case_history(case_id)] == ["submitted"]
    done = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "x"})
    assert done.body["current_state"] == "approved"


def test_queries_as_routes_need_every_adapter(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, title="q", refs=[{"ref_type": "user", "ref_key": "thread", "ref_value": "t-1"}])
    api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a"})
    forbidden = api.call("GET", "/review/queries/audit_decisions", bearer=ALICE)
    assert (forbidden.status, forbidden.body["code"]) == (403, "FORBIDDEN")
    audit = api.call("GET", "/review/queries/audit_decisions", bearer=AUDITOR)
    assert audit.status == 200 and audit.body["items"][0]["actor"]["id"] == "alice"
    assert audit.body["items"][0]["actor"]["assurance"] == "jwt"
    first = api.call(
        "GET", "/review/queries/list_by_principal", bearer=AUDITOR, query="principal=alice&limit=1"
    )
    assert first.body["count"] == 1
    by_agent = api.call(
        "GET", "/review/queries/list_by_principal", bearer=AUDITOR, query=f"principal={AGENT['id']}"
    )
    assert by_agent.body["items"][0]["event_type"] == "submitted"
    by_ref = api.call(
        "GET",
        "/review/queries/cases_by_ref",
        bearer=AUDITOR,
        query="ref_type=user&ref_key=thread&ref_value=t-1",
    )
    assert [i["case_id"] for i in by_ref.body["items"]] == [case_id]
    reviewed = api.call("GET", "/review/queries/list_reviewed", bearer=AUDITOR, query="decision=approved")
    assert [i["case_id"] for i in reviewed.body["items"]] == [case_id]
    stats = api.call(
        "GET", "/review/queries/decision_stats", bearer=AUDITOR, query=f"to_ms={2**42}&bucket_ms={2**41}"
    )
    assert sum(b["approved"] for b in stats.body["buckets"]) == 1
    for name in ("clarification_backlog", "escalations_due"):
        assert api.call("GET", f"/review/queries/{name}", bearer=AUDITOR).body["count"] == 0
    missing = api.call("GET", "/review/queries/cases_by_ref", bearer=AUDITOR)
    assert missing.status == 400
    unknown = api.call("GET", "/review/queries/everything", bearer=AUDITOR)
    assert unknown.status == 404
