"""The DynamoDB store's writes: a submission retried by its request_id is answered from the submit
marker's cancellation, and an append to an unknown case is CASE_NOT_FOUND (the projection's repair:
`test_dynamodb_projection.py`)."""

from __future__ import annotations

import pytest

from caseplatform.errors import CaseNotFound
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.unit.caseplatform.factories import submit_args


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
