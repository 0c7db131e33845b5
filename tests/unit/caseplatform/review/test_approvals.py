"""The review service on SQLite: the multi-approver policy (distinct principals, same payload), any
rejection rejects, authorization before any write, principal-scoped request ids, human input cases."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from caseplatform.errors import (
    AlreadyTerminal,
    DuplicateApprover,
    PayloadInvalid,
    SchemaInvalid,
    SelfApproval,
)
from caseplatform.review.approvals import ReviewService
from caseplatform.review.auth import Forbidden, Principal, principal_from_claims
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.integration.caseplatform.review.harness import seed_adapters
from tests.unit.caseplatform.factories import FakeClock


def reviewer(sub: str, *groups: str) -> Principal:
    return principal_from_claims({"sub": sub, "name": sub.title(), "cognito:groups": list(groups)}, "dev_jwt")


ANN = reviewer("ann", "reviewers:two_person", "reviewers:ops_change")
BEN = reviewer("ben", "reviewers:two_person", "reviewers:ops_change")
CAL = reviewer("cal", "reviewers:two_person")
LGV = reviewer("lgv", "reviewers:lgv_troubleshooting")
BOT = reviewer("bot", "agents:human_input", "agents:ops_change")


@pytest.fixture
def cases(tmp_path: Path) -> Iterator[CaseService]:
    store = SqliteCaseStore(tmp_path / "hitl.db")
    service = CaseService(store, clock=FakeClock())
    seed_adapters(service)
    yield service
    store.close()


@pytest.fixture
def review(cases: CaseService) -> ReviewService:
    return ReviewService(cases)


def _case(review: ReviewService, adapter: str = "two_person", count: int = 12) -> str:
    answer = review.submit(
        BOT if adapter != "two_person" else reviewer("bot2", "agents:two_person"),
        request_id=f"s-{adapter}-{count}",
        adapter_id=adapter,
        case_type="operation",
        title="Delete notes",
        summary="s",
        payload={"action": "delete_notes", "count": count},
    )
    return str(answer["case_id"])


def _types(cases: CaseService, case_id: str) -> list[str]:
    return [e.event_type for e in cases.get_case_history(case_id)]


def test_second_distinct_approver_completes_the_approval(review: ReviewService, cases: CaseService) -> None:
    case_id = _case(review)
    first = review.approve(ANN, case_id, request_id="1")
    assert (first["event_type"], first["current_state"], first["approvals"]) == (
        "approval_vote",
        "pending",
        {"required": 2, "recorded": 1},
    )
    with pytest.raises(DuplicateApprover):
        review.approve(ANN, case_id, request_id="2")
    assert _types(cases, case_id) == ["submitted", "approval_vote"]
    second = review.approve(BEN, case_id, request_id="1")
    assert (second["event_type"], second["current_state"]) == ("decision_recorded", "approved")
    with pytest.raises(AlreadyTerminal):
        review.approve(CAL, case_id, request_id="1")


def test_votes_for_different_payloads_do_not_add_up(review: ReviewService, cases: CaseService) -> None:
    case_id = _case(review)
    review.approve(ANN, case_id, request_id="1", payload={"action": "delete_notes", "count": 2})
    other = review.approve(BEN, case_id, request_id="1")  # the original payload: a different approval
    assert other["event_type"] == "approval_vote"
    same = review.approve(CAL, case_id, request_id="1", payload={"action": "delete_notes", "count": 2})
    assert same["current_state"] == "approved"
    assert cases.get_case_history(case_id)[-1].approved_payload == {"action": "delete_notes", "count": 2}


def test_an_edit_equal_to_the_payload_is_a_plain_approval(review: ReviewService, cases: CaseService) -> None:
    case_id = _case(review, "ops_change")
    answer = review.approve(ANN, case_id, request_id="1", payload={"action": "delete_notes", "count": 12})
    assert "approved_payload" not in answer
    assert cases.get_case_history(case_id)[-1].approved_payload is None


def test_rejection_after_a_vote_rejects(review: ReviewService, cases: CaseService) -> None:
    case_id = _case(review)
    review.approve(ANN, case_id, request_id="1")
    assert (
        review.reject(ANN, case_id, request_id="2", reason="changed my mind")["current_state"] == "rejected"
    )


def test_refusals_write_nothing(review: ReviewService, cases: CaseService) -> None:
    case_id = _case(review, "ops_change")
    with pytest.raises(Forbidden):
        review.approve(LGV, case_id, request_id="1")
    with pytest.raises(Forbidden):
        review.reject(CAL, case_id, request_id="1", reason="no")  # CAL reviews two_person only
    with pytest.raises(PayloadInvalid):
        review.approve(ANN, case_id, request_id="1", payload={"action": "delete_notes"})
    assert _types(cases, case_id) == ["submitted"]


def test_request_ids_replay_per_principal_only(review: ReviewService) -> None:
    case_id = _case(review)
    first = review.approve(ANN, case_id, request_id="same")
    assert review.approve(ANN, case_id, request_id="same")["event_id"] == first["event_id"]
    assert review.approve(BEN, case_id, request_id="same")["current_state"] == "approved"


def test_request_human_input_opens_a_question_case(review: ReviewService, cases: CaseService) -> None:
    answer = review.request_human_input(BOT, questions=["Which framework?"], request_id="h")
    view = cases.get_case(answer["case_id"])
    assert view.record.case.adapter_id == "human_input"
    assert view.payload == {
        "questions": ["Which framework?"],
        "allowed_decisions": ["approve", "edit", "reject"],
    }
    with pytest.raises(Forbidden):
        review.request_human_input(ANN, questions=["?"], request_id="h")


def test_required_approvers_is_bounded_in_the_schema(cases: CaseService) -> None:
    with pytest.raises(SchemaInvalid):
        cases.register_adapter_schema("too_many", 1, {"type": "object", "x-hitl": {"required_approvers": 0}})


def test_request_ids_of_subs_with_colons_never_collide(review: ReviewService, cases: CaseService) -> None:
    # Stored as "<sub>:<request_id>", sub "x:y" + id "z" and sub "x" + id "y:z" were the same key: the
    # second reviewer's approval replayed (or conflicted with) the first one's.
    colon = reviewer("x:y", "reviewers:two_person")
    plain = reviewer("x", "reviewers:two_person")
    case_id = _case(review)
    first = review.approve(colon, case_id, request_id="z")
    second = review.approve(plain, case_id, request_id="y:z")
    assert first["event_id"] != second["event_id"]
    assert second["current_state"] == "approved"
    keys = [e.request_id for e in cases.get_case_history(case_id)[1:]]
    assert keys == ["3:x:y:z", "1:x:y:z"]


def test_a_reviewer_who_submitted_the_case_may_not_approve_it(
    review: ReviewService, cases: CaseService
) -> None:
    both = reviewer("pat", "agents:ops_change", "reviewers:ops_change")
    answer = review.submit(
        both,
        request_id="own",
        adapter_id="ops_change",
        case_type="operation",
        title="Delete notes",
        summary="s",
        payload={"action": "delete_notes", "count": 1},
    )
    case_id = str(answer["case_id"])
    with pytest.raises(SelfApproval):
        review.approve(both, case_id, request_id="a1")
    with pytest.raises(SelfApproval):
        review.decide(both, case_id, request_id="a2", decision="approve")
    assert review.case(both, case_id)["own_case"] is True
    assert _types(cases, case_id) == ["submitted"]
    assert review.approve(ANN, case_id, request_id="a3")["current_state"] == "approved"
