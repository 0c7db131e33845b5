"""The review Lambda's resolver in-process, with API Gateway HTTP API (payload v2) events, on SQLite
and on DynamoDB (moto): queue, case, approve (plain, edited, invalid edit), reject, clarify, the
two-approver policy, and every refusal writing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform.service import CaseService
from tests.integration.caseplatform.review.harness import OTHER_SECRET, ReviewClient, token
from tests.unit.caseplatform.factories import FakeClock

ALICE = token("alice", "reviewers:ops_change", "reviewers:two_person", name="Alice")
BOB = token("bob", "reviewers:ops_change", "reviewers:two_person", name="Bob")
LGV_ONLY = token("carol", "reviewers:lgv_troubleshooting", name="Carol")
AGENT = {"name": "memo", "role": "agent", "id": "agent:memo"}
MINUTE = 60_000


def submit(cases: CaseService, adapter: str = "ops_change", **overrides: Any) -> str:
    args: dict[str, Any] = {
        "adapter_id": adapter,
        "case_type": "operation",
        "title": "Delete 12 notes",
        "summary": "The user asked to delete all notes tagged 'old'",
        "payload": {"action": "delete_notes", "count": 12},
        "submitter": AGENT,
        "request_id": f"submit-{adapter}-{overrides.get('title', '')}-{overrides.get('priority', '')}",
        "priority": "normal",
    }
    args.update(overrides)
    event, _ = cases.submit_case(**args)
    return event.case_id


def history_types(cases: CaseService, case_id: str) -> list[str]:
    return [e.event_type for e in cases.get_case_history(case_id)]


def test_queue_lists_open_cases_most_urgent_first_with_filters(
    api: ReviewClient, cases: CaseService, clock: FakeClock
) -> None:
    old = submit(cases, title="old", priority="normal")
    clock.advance(30 * MINUTE)
    urgent = submit(cases, title="urgent", priority="critical")
    submit(cases, "lgv_troubleshooting", title="lgv", payload=_lgv())

    answer = api.call("GET", "/review/cases", bearer=ALICE)
    assert answer.status == 200
    assert [i["case_id"] for i in answer.body["items"]] == [urgent, old]  # not the lgv case

    by_priority = api.call("GET", "/review/cases", bearer=ALICE, query="priority=normal")
    assert [i["case_id"] for i in by_priority.body["items"]] == [old]
    by_age = api.call("GET", "/review/cases", bearer=ALICE, query="min_age_minutes=20")
    assert [i["case_id"] for i in by_age.body["items"]] == [old]
    by_adapter = api.call("GET", "/review/cases", bearer=ALICE, query="adapter_id=two_person")
    assert by_adapter.body["items"] == []

    other = api.call("GET", "/review/cases", bearer=ALICE, query="adapter_id=lgv_troubleshooting")
    assert (other.status, other.body["code"]) == (403, "FORBIDDEN")
    bad = api.call("GET", "/review/cases", bearer=ALICE, query="state=closed")
    assert bad.status == 400


def test_decided_cases_page_with_a_cursor(api: ReviewClient, cases: CaseService, clock: FakeClock) -> None:
    ids = []
    for n in range(3):
        clock.advance(MINUTE)
        case_id = submit(cases, title=f"c{n}")
        assert (
            api.call(
                "POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a"}
            ).status
            == 200
        )
        ids.append(case_id)
    first = api.call("GET", "/review/cases", bearer=ALICE, query="state=approved&limit=2")
    assert [i["case_id"] for i in first.body["items"]] == [ids[2], ids[1]]
    second = api.call(
        "GET",
        "/review/cases",
        bearer=ALICE,
        query=f"state=approved&limit=2&cursor={first.body['next_cursor']}",
    )
    assert [i["case_id"] for i in second.body["items"]] == [ids[0]]


def test_case_view_has_payload_and_history(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    answer = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE)
    assert answer.status == 200
    assert answer.body["case"]["payload"] == {"action": "delete_notes", "count": 12}
    assert [e["event_type"] for e in answer.body["history"]] == ["submitted"]
    assert answer.body["approvals"] == {"required": 1, "votes": []}
    assert answer.body["decision"] is None and answer.body["may_review"] is True
    missing = api.call("GET", "/review/cases/HITL-00000000-0000-0000-0000-000000000000", bearer=ALICE)
    assert (missing.status, missing.body["status"]) == (404, "not_found")


def test_approve_records_the_principal_as_actor(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    answer = api.call(
        "POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "r1", "notes": "ok"}
    )
    assert answer.status == 200
    assert (answer.body["current_state"], answer.body["decision"]) == ("approved", "approved")
    decision = cases.get_case_history(case_id)[-1]
    assert (decision.actor.id, decision.actor.name, decision.actor.kind) == ("alice", "Alice", "operator")
    assert decision.approved_payload is None

    replay = api.call(
        "POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "r1", "notes": "ok"}
    )
    assert (replay.status, replay.body["event_id"]) == (200, answer.body["event_id"])
    late = api.call(
        "POST", f"/review/cases/{case_id}/reject", bearer=BOB, body={"request_id": "r1", "reason": "no"}
    )
    assert (late.status, late.body["code"]) == (409, "ALREADY_TERMINAL")
    assert "already approved by Alice" in late.body["message"]
    assert late.body["existing_decision"]["actor"]["id"] == "alice"
    assert history_types(cases, case_id) == ["submitted", "decision_recorded"]


def test_approve_with_valid_edits_keeps_the_edited_payload(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    edited = {"action": "delete_notes", "count": 3, "note": "only the three oldest"}
    answer = api.call(
        "POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "e", "payload": edited}
    )
    assert answer.status == 200 and answer.body["approved_payload"] == edited
    assert cases.get_case_history(case_id)[-1].approved_payload == edited
    view = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE)
    assert view.body["decision"]["approved_payload"] == edited
    assert view.body["case"]["payload"]["count"] == 12  # the submitted envelope is never rewritten


def test_approve_with_invalid_edits_is_422_and_writes_nothing(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    bad = {"action": "drop_database", "count": 0}
    answer = api.call(
        "POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "e", "payload": bad}
    )
    assert (answer.status, answer.body["code"]) == (422, "PAYLOAD_INVALID")
    assert {d["path"] for d in answer.body["details"]} == {"$.payload.action", "$.payload.count"}
    assert history_types(cases, case_id) == ["submitted"]


def test_reject_needs_a_reason(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    missing = api.call("POST", f"/review/cases/{case_id}/reject", bearer=ALICE, body={"request_id": "x"})
    blank = api.call(
        "POST", f"/review/cases/{case_id}/reject", bearer=ALICE, body={"request_id": "x", "reason": "  "}
    )
    assert (missing.status, blank.status) == (400, 400)
    assert history_types(cases, case_id) == ["submitted"]
    answer = api.call(
        "POST",
        f"/review/cases/{case_id}/reject",
        bearer=ALICE,
        body={"request_id": "x", "reason": "too many notes"},
    )
    assert (answer.status, answer.body["current_state"]) == (200, "rejected")
    assert cases.get_case_history(case_id)[-1].notes == "too many notes"


def test_clarify_asks_a_question(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    answer = api.call(
        "POST",
        f"/review/cases/{case_id}/clarify",
        bearer=ALICE,
        body={"request_id": "q", "question": "Which tag?"},
    )
    assert (answer.status, answer.body["current_state"], answer.body["question"]) == (
        200,
        "needs_clarification",
        "Which tag?",
    )
    again = api.call(
        "POST",
        f"/review/cases/{case_id}/clarify",
        bearer=BOB,
        body={"request_id": "q2", "question": "Which tag?"},
    )
    assert (again.status, again.body["code"]) == (409, "INVALID_STATE_TRANSITION")
    no_question = api.call(
        "POST", f"/review/cases/{case_id}/clarify", bearer=ALICE, body={"request_id": "q3"}
    )
    assert no_question.status == 400


def test_two_approvers_must_be_two_different_principals(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, "two_person")
    first = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a1"})
    assert (first.status, first.body["event_type"], first.body["current_state"]) == (
        200,
        "approval_vote",
        "pending",
    )
    assert first.body["approvals"] == {"required": 2, "recorded": 1}

    twice = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a2"})
    assert (twice.status, twice.body["code"]) == (409, "DUPLICATE_APPROVER")
    assert history_types(cases, case_id) == ["submitted", "approval_vote"]

    second = api.call("POST", f"/review/cases/{case_id}/approve", bearer=BOB, body={"request_id": "a1"})
    assert (second.status, second.body["current_state"]) == (200, "approved")
    view = api.call("GET", f"/review/cases/{case_id}", bearer=ALICE)
    assert [v["actor"]["id"] for v in view.body["approvals"]["votes"]] == ["alice"]
    assert view.body["decision"]["actor"]["id"] == "bob"


def test_any_rejection_rejects_a_two_approver_case(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, "two_person")
    api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "a1"})
    answer = api.call(
        "POST", f"/review/cases/{case_id}/reject", bearer=BOB, body={"request_id": "r", "reason": "no"}
    )
    assert (answer.status, answer.body["current_state"]) == (200, "rejected")
    late = api.call("POST", f"/review/cases/{case_id}/approve", bearer=BOB, body={"request_id": "a2"})
    assert late.body["code"] == "ALREADY_TERMINAL"


# ---------------------------------------------------------------------- refusals write nothing
def _approve_event(api: ReviewClient, case_id: str, **kwargs: Any) -> dict[str, Any]:
    return api.event("POST", f"/review/cases/{case_id}/approve", body={"request_id": "r"}, **kwargs)


def test_no_token_is_401(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    answer = api.send(_approve_event(api, case_id))
    assert (answer.status, answer.body["code"]) == (401, "UNAUTHENTICATED")
    assert api.call("GET", "/review/cases").status == 401
    assert api.call("GET", "/review/me").status == 401
    assert history_types(cases, case_id) == ["submitted"]


@pytest.mark.parametrize(
    "bearer",
    [
        token("alice", "reviewers:ops_change", secret=OTHER_SECRET),
        token("alice", "reviewers:ops_change", ttl=-10),
        "not-a-jwt",
        ALICE[:-4] + ("AAAA" if not ALICE.endswith("AAAA") else "BBBB"),
    ],
    ids=["wrong-signature", "expired", "garbage", "tampered"],
)
def test_a_bad_token_is_401(api: ReviewClient, cases: CaseService, bearer: str) -> None:
    case_id = submit(cases)
    answer = api.send(_approve_event(api, case_id, bearer=bearer))
    assert (answer.status, answer.body["code"]) == (401, "UNAUTHENTICATED")
    assert history_types(cases, case_id) == ["submitted"]


def test_without_a_dev_secret_only_authorizer_claims_count(cases: CaseService) -> None:
    from caseplatform.review.approvals import ReviewService

    deployed = ReviewClient(ReviewService(cases), dev_secret=None)
    case_id = submit(cases)
    assert deployed.send(_approve_event(deployed, case_id, bearer=ALICE)).status == 401
    claims = {"sub": "a1b2", "email": "dana@example.com", "cognito:groups": "[reviewers:ops_change admins]"}
    answer = deployed.send(_approve_event(deployed, case_id, claims=claims))
    assert answer.status == 200
    decision = cases.get_case_history(case_id)[-1]
    assert (decision.actor.id, decision.actor.name) == ("a1b2", "dana@example.com")
    me = deployed.call("GET", "/review/me", claims=claims)
    assert me.body["reviewer_of"] == ["ops_change"] and me.body["assurance"] == "api_gateway_jwt"


def test_a_reviewer_of_another_adapter_is_403(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases)
    for path, body in (
        ("approve", {"request_id": "r"}),
        ("reject", {"request_id": "r", "reason": "no"}),
        ("clarify", {"request_id": "r", "question": "why?"}),
    ):
        answer = api.call("POST", f"/review/cases/{case_id}/{path}", bearer=LGV_ONLY, body=body)
        assert (answer.status, answer.body["code"]) == (403, "FORBIDDEN")
    assert api.call("GET", f"/review/cases/{case_id}", bearer=LGV_ONLY).status == 403
    assert history_types(cases, case_id) == ["submitted"]


@pytest.mark.parametrize("field", ["actor", "actor_name", "approver"])
def test_a_forged_actor_is_refused(api: ReviewClient, cases: CaseService, field: str) -> None:
    case_id = submit(cases)
    forged = {"request_id": "r", field: {"name": "The CEO", "role": "boss", "id": "ceo"}}
    answer = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body=forged)
    assert (answer.status, answer.body["code"]) == (400, "ACTOR_NOT_ALLOWED")
    reject = api.call(
        "POST",
        f"/review/cases/{case_id}/reject",
        bearer=ALICE,
        body={"request_id": "r", "reason": "x", field: "ceo"},
    )
    assert (reject.status, reject.body["code"]) == (400, "ACTOR_NOT_ALLOWED")
    assert history_types(cases, case_id) == ["submitted"]


def test_request_ids_are_scoped_by_principal(api: ReviewClient, cases: CaseService) -> None:
    case_id = submit(cases, "two_person")
    first = api.call("POST", f"/review/cases/{case_id}/approve", bearer=ALICE, body={"request_id": "same"})
    second = api.call("POST", f"/review/cases/{case_id}/approve", bearer=BOB, body={"request_id": "same"})
    assert first.body["event_type"] == "approval_vote"
    assert second.body["event_id"] != first.body["event_id"] and second.body["current_state"] == "approved"


def test_openapi_and_page_are_served(api: ReviewClient) -> None:
    schema = api.call("GET", "/review/openapi.json")
    assert schema.status == 200
    paths = schema.body["paths"]
    assert {
        "/review/cases",
        "/review/cases/{case_id}",
        "/review/cases/{case_id}/approve",
        "/review/me",
    } <= set(paths)
    assert "ApproveRequest" in schema.body["components"]["schemas"]
    page = api.call("GET", "/review/")
    assert page.status == 200 and "<title>Case review</title>" in page.body


def _lgv() -> dict[str, Any]:
    from tests.unit.caseplatform.factories import lgv_payload

    return lgv_payload()
