"""The DynamoDB store's writes: a submission retried by its request_id is answered from the submit
marker's cancellation, an append to an unknown case is CASE_NOT_FOUND, and the rebuild rewrites each
case's projection."""

from __future__ import annotations

import pytest

from caseplatform.errors import CaseNotFound
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.unit.caseplatform.factories import AGENT, submit, submit_args


def test_a_retried_submission_is_answered_with_the_case_it_opened(dynamo_service: CaseService) -> None:
    args = submit_args(request_id="once")
    event, case = dynamo_service.submit_case(**args)
    again, same = dynamo_service.submit_case(**args)
    assert (again.event_id, same.case_id) == (event.event_id, case.case_id)
    assert dynamo_service.list_cases().items[0].case.case_id == case.case_id
    assert len(dynamo_service.list_cases().items) == 1


def test_an_append_to_an_unknown_case_writes_nothing(dynamo_store: DynamoCaseStore) -> None:
    def never(snapshot: CaseSnapshot) -> Transition:
        raise AssertionError("no case, no decision")

    with pytest.raises(CaseNotFound):
        dynamo_store.append("HITL-missing", "r", never)


def test_the_rebuild_rewrites_the_projection_with_the_open_question(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore
) -> None:
    asked = submit(dynamo_service)
    dynamo_service.request_clarification(
        case_id=asked, question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    assert dynamo_service.check_drift().drifted is False
    assert dynamo_service.rebuild_projection().drifted is False
    record = dynamo_store.get_case(asked)
    assert record is not None
    assert record.revision is not None and record.revision["open_question"] == "Which map?"
