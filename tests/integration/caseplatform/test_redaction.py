"""The redaction hook on SQLite and DynamoDB (moto): applied before anything is hashed or stored, and
deterministic, so a retry stays idempotent."""

from __future__ import annotations

from caseplatform.ports import CaseStore
from caseplatform.redaction import mask_contacts
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, FakeClock, lgv_payload, submit


def test_redaction_hook_applies_before_storage(store: CaseStore, clock: FakeClock) -> None:
    service = CaseService(store, clock=clock, redactor=mask_contacts)
    service.ensure_default_adapters()
    case_id = submit(
        service, summary="call dana@example.com", payload=lgv_payload(evidence=["phone +972501234567"])
    )
    service.request_clarification(
        case_id=case_id,
        question="Reach 0501234567?",
        notes="from dana@example.com",
        actor=AGENT,
        request_id="r-1",
    )
    view = service.get_case(case_id)
    assert view.record.case.summary == "call [redacted-email]"
    assert view.payload["evidence"] == ["phone [redacted-phone]"]
    event = service.get_case_history(case_id)[-1]
    assert (event.question, event.notes) == ("Reach [redacted-phone]?", "from [redacted-email]")
    assert "dana@example.com" not in event.event_json
    # Deterministic redaction keeps retries idempotent.
    again = service.request_clarification(
        case_id=case_id,
        question="Reach 0501234567?",
        notes="from dana@example.com",
        actor=AGENT,
        request_id="r-1",
    )
    assert again == event
