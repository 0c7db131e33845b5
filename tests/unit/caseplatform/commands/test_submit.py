"""Opening a case: the envelope checked (PAYLOAD_INVALID when only the payload is wrong), the
request_id idempotent across cases, and the redactor applied before anything is stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.errors import EnvelopeInvalid, IdempotencyConflict, PayloadInvalid
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import lgv_payload, submit_args


def test_only_a_wrong_payload_is_payload_invalid(service: CaseService) -> None:
    with pytest.raises(PayloadInvalid):
        service.submit_case(**submit_args(payload=lgv_payload(site=7)))
    with pytest.raises(EnvelopeInvalid):
        service.submit_case(**submit_args(payload=lgv_payload(site=7), priority="urgent"))


def test_the_same_request_answers_with_its_case_and_another_intent_conflicts(service: CaseService) -> None:
    args = submit_args(request_id="once")
    event, case = service.submit_case(**args)
    assert service.submit_case(**args) == (event, case)
    with pytest.raises(IdempotencyConflict):
        service.submit_case(**{**args, "title": "another title"})


def test_the_redactor_applies_before_the_case_is_stored(tmp_path: Path) -> None:
    store = SqliteCaseStore(tmp_path / "hitl.db")
    service = build_case_service(store, redact="contacts")
    service.ensure_default_adapters()
    _, case = service.submit_case(
        **submit_args(title="call +972501234567", payload=lgv_payload(site="a@b.io"))
    )
    stored = service.get_record(case.case_id).case
    assert (stored.title, stored.payload["site"]) == ("call [redacted-phone]", "[redacted-email]")
    store.close()
