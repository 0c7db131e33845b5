"""Approval: only an operator approves; an edit that changes nothing is refused, and so is one the
adapter's edit check refuses (EDIT_REFUSED, nothing recorded); the approval answers where the case
stands on the approver policy, also when replayed."""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform.errors import DecisionNotAllowed, EditRefused, EnvelopeInvalid
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, lgv_payload, submit


def test_only_an_operator_approves(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(EnvelopeInvalid):
        service.approve(case_id=case_id, notes="", actor={**AGENT, "kind": "agent"}, request_id="a")


def test_an_edit_that_changes_nothing_is_refused(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(DecisionNotAllowed):
        service.decide(
            case_id=case_id, decision="edit", payload=lgv_payload(), actor=OPERATOR, request_id="e"
        )


def test_an_approval_and_its_replay_answer_the_same_status(service: CaseService) -> None:
    case_id = submit(service)
    first = service.approve(case_id=case_id, notes="", actor=OPERATOR, request_id="a")
    again = service.approve(case_id=case_id, notes="", actor=OPERATOR, request_id="a")
    assert first.event.event_type == "decision_recorded"
    assert again.event == first.event
    assert (again.status.required_approvers, len(again.status.votes)) == (
        first.status.required_approvers,
        len(first.status.votes),
    )


def _only_evidence_may_shrink(original: dict[str, Any], edited: dict[str, Any]) -> list[dict[str, str]]:
    """An adapter's edit check: `evidence` may lose entries, nothing else may change."""
    rest = {k: v for k, v in edited.items() if k != "evidence"}
    if rest != {k: v for k, v in original.items() if k != "evidence"}:
        return [{"path": "$.payload", "message": "only evidence may be edited"}]
    if not set(edited["evidence"]) <= set(original["evidence"]):
        return [{"path": "$.payload.evidence", "message": "may only drop entries"}]
    return []


@pytest.fixture
def checked(sqlite_store: SqliteCaseStore, clock: FakeClock) -> CaseService:
    svc = build_case_service(
        sqlite_store, clock=clock, edit_checks={"lgv_troubleshooting": _only_evidence_may_shrink}
    )
    svc.ensure_default_adapters()
    return svc


def test_an_edit_the_adapters_check_refuses_is_edit_refused_and_records_nothing(checked: CaseService) -> None:
    case_id = submit(checked, payload=lgv_payload(evidence=["a", "b"]))
    before = checked.get_case_history(case_id)
    broader = lgv_payload(evidence=["a", "b", "c"])
    for attempt in (
        lambda: checked.approve(
            case_id=case_id, notes="", actor=OPERATOR, request_id="e1", edited_payload=broader
        ),
        lambda: checked.decide(
            case_id=case_id, decision="edit", payload=broader, actor=OPERATOR, request_id="e2"
        ),
    ):
        with pytest.raises(EditRefused) as refused:
            attempt()
        assert refused.value.details == [{"path": "$.payload.evidence", "message": "may only drop entries"}]
    assert checked.get_case_history(case_id) == before
    assert checked.get_record(case_id).state.current_state == "pending"


def test_an_edit_the_adapters_check_allows_is_recorded(checked: CaseService) -> None:
    case_id = submit(checked, payload=lgv_payload(evidence=["a", "b"]))
    approval = checked.approve(
        case_id=case_id,
        notes="",
        actor=OPERATOR,
        request_id="e1",
        edited_payload=lgv_payload(evidence=["a"]),
    )
    assert approval.event.approved_payload is not None
    assert approval.event.approved_payload["evidence"] == ["a"]


def test_an_adapter_without_a_check_takes_any_valid_edit(checked: CaseService, service: CaseService) -> None:
    case_id = submit(service, payload=lgv_payload(evidence=["a"]))
    approval = service.approve(
        case_id=case_id, notes="", actor=OPERATOR, request_id="e1", edited_payload=lgv_payload(evidence=["z"])
    )
    assert approval.event.approved_payload is not None
