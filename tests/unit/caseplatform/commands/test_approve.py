"""Approval: only an operator approves; an edit that changes nothing is refused; the approval
answers where the case stands on the approver policy, also when replayed."""

from __future__ import annotations

import pytest

from caseplatform.errors import DecisionNotAllowed, EnvelopeInvalid
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, lgv_payload, submit


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
