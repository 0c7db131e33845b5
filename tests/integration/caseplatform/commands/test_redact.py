"""Redaction on both stores: the named fields are blanked in the stored payload (on DynamoDB also in
the submit marker's copy of the envelope), a `redacted` event records the fields, the reason, the
actor and the payload's hash after; the envelope's hash stays the submitted payload's; a rebuild of
the projection (and on DynamoDB of a lost CASE item) keeps the redaction; bad requests write
nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from caseplatform.errors import EnvelopeInvalid, IdempotencyConflict
from caseplatform.model import canonical_json, sha256_hex
from caseplatform.ports import CaseStore
from caseplatform.redaction import REDACTED
from caseplatform.review.approvals import ReviewService
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.integration.caseplatform.review.harness import ReviewClient, token
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, lgv_payload, submit

REVIEWER = token("rita", "reviewers:lgv_troubleshooting", name="Rita")


@pytest.fixture
def service(store_factory: Callable[[], CaseStore], clock: FakeClock) -> CaseService:
    built = CaseService(store_factory(), clock=clock)
    built.ensure_default_adapters()
    return built


def _redact(service: CaseService, case_id: str, *fields: str, request_id: str = "redact-1") -> Any:
    return service.redact_case(
        case_id=case_id, fields=list(fields), reason="the site asked", actor=OPERATOR, request_id=request_id
    )


def test_a_redaction_blanks_the_fields_and_records_the_hash_after(service: CaseService) -> None:
    case_id = submit(service, payload=lgv_payload(site="Plant Haifa, gate 4"))
    submitted_hash = service.get_record(case_id).case.payload_hash_sha256
    event = _redact(service, case_id, "site", "lgv_id")

    stored = service.get_record(case_id).case
    assert (stored.payload["site"], stored.payload["lgv_id"]) == (REDACTED, REDACTED)
    assert stored.payload["symptom"] == lgv_payload()["symptom"]  # nothing else changes
    assert stored.payload_hash_sha256 == submitted_hash  # the hash of what was submitted
    assert event.payload_hash_after == sha256_hex(canonical_json(stored.payload))
    assert (event.event_type, event.redacted_fields, event.notes) == (
        "redacted",
        ("site", "lgv_id"),
        "the site asked",
    )
    assert event.actor.id == OPERATOR["id"]
    assert service.get_case(case_id).payload["site"] == REDACTED  # the payload as read
    assert service.get_record(case_id).state.current_state == "pending"  # the case does not move


def test_a_rebuild_keeps_the_redaction(service: CaseService) -> None:
    case_id = submit(service)
    service.record_decision(case_id=case_id, decision="rejected", notes="", actor=OPERATOR, request_id="d")
    _redact(service, case_id, "site")
    assert not service.check_drift().drifted
    service.rebuild_projection()
    assert service.get_record(case_id).case.payload["site"] == REDACTED
    assert [e.event_type for e in service.get_case_history(case_id)] == [
        "submitted",
        "decision_recorded",
        "redacted",
    ]


def test_a_lost_case_item_rebuilt_from_the_submit_marker_keeps_the_redaction(service: CaseService) -> None:
    store = service.store
    if not isinstance(store, DynamoCaseStore):
        pytest.skip("the submit marker's copy of the envelope is DynamoDB's")
    case_id = submit(service)
    _redact(service, case_id, "site")
    client = store._client
    client.delete_item(TableName=store.table_name, Key={"pk": {"S": f"CASE#{case_id}"}, "sk": {"S": "CASE"}})
    service.rebuild_projection()
    assert service.get_record(case_id).case.payload["site"] == REDACTED


def test_bad_requests_write_nothing(service: CaseService) -> None:
    case_id = submit(service)
    cases = [
        (["nope"], "the site asked", "$.fields[0]"),  # no such field
        ([], "the site asked", "$.fields"),
        (["site..x"], "the site asked", "$.fields[0]"),
        (["site"], "  ", "$.reason"),
    ]
    for fields, reason, path in cases:
        with pytest.raises(EnvelopeInvalid) as refused:
            service.redact_case(case_id=case_id, fields=fields, reason=reason, actor=OPERATOR, request_id="r")
        assert path in [d["path"] for d in refused.value.details]
    assert [e.event_type for e in service.get_case_history(case_id)] == ["submitted"]
    assert service.get_record(case_id).case.payload == lgv_payload()


OPEN_FORM: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}


def test_at_the_field_limit_and_past_it(service: CaseService) -> None:
    service.register_adapter_schema("open_form", 1, OPEN_FORM)
    service.activate_adapter_schema("open_form", 1)
    payload = {"extra": {f"f{i}": "x" for i in range(51)}}
    case_id = submit(service, adapter_id="open_form", payload=payload, refs=[])
    at_limit = [f"extra.f{i}" for i in range(50)]
    assert _redact(service, case_id, *at_limit).redacted_fields == tuple(at_limit)
    with pytest.raises(EnvelopeInvalid):
        _redact(service, case_id, *at_limit, "extra.f50", request_id="redact-2")


def test_a_retry_is_answered_with_the_first_redaction(service: CaseService) -> None:
    case_id = submit(service)
    first = _redact(service, case_id, "site")
    assert _redact(service, case_id, "site").event_id == first.event_id
    with pytest.raises(IdempotencyConflict):
        _redact(service, case_id, "lgv_id")
    assert len(service.get_case_history(case_id)) == 2


def test_a_revision_redacted_later_reads_blanked(service: CaseService) -> None:
    case_id = submit(service)
    service.decide(case_id=case_id, decision="edit", feedback="which dock?", actor=OPERATOR, request_id="c")
    revised = lgv_payload(site="Plant Haifa, dock 3")
    service.resubmit_case(case_id=case_id, payload=revised, notes="", actor=AGENT, request_id="v")
    _redact(service, case_id, "site")
    assert service.get_case(case_id).payload["site"] == REDACTED
    # The event log is not rewritten: the revision's event keeps what was resubmitted.
    (revision,) = [e for e in service.get_case_history(case_id) if e.event_type == "resubmitted"]
    assert revision.revised_payload == revised


def test_the_review_api_shows_an_approved_edit_redacted_in_the_final_payload(service: CaseService) -> None:
    """The edit's event keeps its text (events are never rewritten); the case's final payload, the
    one an approved case is read as, applies the redaction."""
    api = ReviewClient(ReviewService(service))
    case_id = submit(service)
    edited = lgv_payload(site="Plant Haifa, hall B")
    service.decide(case_id=case_id, decision="edit", payload=edited, actor=OPERATOR, request_id="edit")
    _redact(service, case_id, "site")
    body = api.call("GET", f"/review/cases/{case_id}", bearer=REVIEWER).body
    assert (body["final_payload"]["site"], body["final_payload"]["lgv_id"]) == (REDACTED, "LGV-07")
    assert body["case"]["payload"]["site"] == REDACTED
    (approval,) = [e for e in service.get_case_history(case_id) if e.event_type == "decision_recorded"]
    assert approval.approved_payload == edited
