"""Structured decisions: each carries what it needs (an edit its payload, a rejection its reason, a
response feedback or answers), and a rejection ends the case."""

from __future__ import annotations

import pytest

from caseplatform.errors import EnvelopeInvalid
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import OPERATOR, lgv_payload, submit


@pytest.mark.parametrize(
    ("decision", "extra", "path"),
    [
        ("maybe", {}, "$.decision"),
        ("edit", {}, "$.feedback"),
        ("approve", {"payload": lgv_payload()}, "$.payload"),
        ("reject", {"payload": lgv_payload(), "feedback": "no"}, "$.payload"),
        ("reject", {}, "$.feedback"),
        ("respond", {}, "$.feedback"),
    ],
)
def test_a_structured_decision_missing_what_it_needs_is_refused(
    service: CaseService, decision: str, extra: dict[str, object], path: str
) -> None:
    case_id = submit(service)
    with pytest.raises(EnvelopeInvalid) as refused:
        service.decide(case_id=case_id, decision=decision, actor=OPERATOR, request_id="d", **extra)  # type: ignore[arg-type]
    assert [d["path"] for d in refused.value.details] == [path]
    assert service.get_record(case_id).state.current_state == "pending"


def test_a_rejection_ends_the_case(service: CaseService) -> None:
    case_id = submit(service)
    event = service.decide(
        case_id=case_id, decision="reject", feedback="wrong dock", actor=OPERATOR, request_id="d"
    )
    assert not isinstance(event, tuple)
    assert service.get_record(case_id).state.current_state == "rejected"
