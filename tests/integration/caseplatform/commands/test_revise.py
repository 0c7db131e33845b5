"""Changes requested and the submitter's revision, on both stores: a reviewer's `edit` without a
payload sends the case back with the feedback, the submitter resubmits a revised payload (validated
against the adapter's schema) and the case is pending again, its history keeping every round.
Invalid transitions are refused with their code and write nothing. Plus the adapter policy:
feedback required on every decision, the feedback tool."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from caseplatform.commands import Approval
from caseplatform.errors import (
    AlreadyTerminal,
    EnvelopeInvalid,
    FeedbackRequired,
    FeedbackToolDisabled,
    IdempotencyConflict,
    InvalidStateTransition,
    NotSubmitter,
    PayloadInvalid,
)
from caseplatform.model import Event
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, OTHER_OPERATOR, lgv_payload, submit

FEEDBACK = "Which reflector map version? Name the dock too."


def _request_changes(service: CaseService, case_id: str, rid: str = "edit-1") -> Any:
    return service.decide(
        case_id=case_id,
        decision="edit",
        feedback=FEEDBACK,
        answers=["map version", "dock"],
        actor=OPERATOR,
        request_id=rid,
    )


def _revised() -> dict[str, Any]:
    payload = lgv_payload()
    payload["missing_data"] = []
    payload["evidence"] = [*payload["evidence"], "reflector map v12 loaded at dock 3"]
    return payload


def _history(service: CaseService, case_id: str) -> list[str]:
    return [e.event_type for e in service.get_case_history(case_id)]


def test_the_literal_edit_response_sends_the_case_back_and_a_revision_is_approved(
    service: CaseService,
) -> None:
    case_id = submit(service)
    event = _request_changes(service, case_id)
    assert (event.event_type, event.state_after) == ("changes_requested", "changes_requested")
    assert (event.decision, event.feedback, event.answers) == ("edit", FEEDBACK, ["map version", "dock"])
    assert service.get_record(case_id).state.current_state == "changes_requested"
    assert service.list_review_queue() == []  # it waits on its submitter, not on a reviewer

    revised = service.resubmit_case(
        case_id=case_id, payload=_revised(), notes="map named", actor=AGENT, request_id="rev-1"
    )
    assert (revised.event_type, revised.state_after, revised.revised_payload) == (
        "resubmitted",
        "pending",
        _revised(),
    )
    view = service.get_case(case_id)
    assert view.payload == _revised() and view.record.state.resubmissions == 1

    approved = service.decide(case_id=case_id, decision="approve", actor=OPERATOR, request_id="ok")
    assert isinstance(approved, Approval)
    assert approved.event.approved_payload == _revised()  # the revision is what is approved
    assert _history(service, case_id) == [
        "submitted",
        "changes_requested",
        "resubmitted",
        "decision_recorded",
    ]
    assert service.check_drift().drifted is False


def test_every_round_is_kept(service: CaseService) -> None:
    case_id = submit(service)
    for round_no in (1, 2):
        _request_changes(service, case_id, rid=f"edit-{round_no}")
        payload = _revised()
        payload["evidence"].append(f"round {round_no}")
        service.resubmit_case(
            case_id=case_id, payload=payload, notes="", actor=AGENT, request_id=f"rev-{round_no}"
        )
    state = service.get_record(case_id).state
    assert (state.current_state, state.resubmissions) == ("pending", 2)
    assert service.get_case(case_id).payload["evidence"][-1] == "round 2"
    assert _history(service, case_id) == ["submitted", *["changes_requested", "resubmitted"] * 2]


@pytest.mark.parametrize(
    ("decision", "extra"),
    [("approve", {}), ("edit", {"payload": {**lgv_payload(), "site": "Plant Haifa, hall 2"}})],
)
def test_nothing_is_approved_while_changes_are_requested(
    service: CaseService, decision: str, extra: dict[str, Any]
) -> None:
    case_id = submit(service)
    _request_changes(service, case_id)
    with pytest.raises(InvalidStateTransition) as refused:
        service.decide(case_id=case_id, decision=decision, actor=OPERATOR, request_id="again", **extra)
    assert (refused.value.from_state, refused.value.requested_action) == (
        "changes_requested",
        "record_decision",
    )
    with pytest.raises(InvalidStateTransition):
        service.request_clarification(
            case_id=case_id, question="Which dock?", notes="", actor=OPERATOR, request_id="q"
        )
    assert _history(service, case_id) == ["submitted", "changes_requested"]


def test_a_rejection_still_ends_a_case_sent_back(service: CaseService) -> None:
    case_id = submit(service)
    _request_changes(service, case_id)
    event = service.decide(
        case_id=case_id, decision="reject", feedback="wrong site", actor=OPERATOR, request_id="r"
    )
    assert isinstance(event, Event) and event.state_after == "rejected"
    with pytest.raises(AlreadyTerminal):
        service.resubmit_case(case_id=case_id, payload=_revised(), notes="", actor=AGENT, request_id="late")


def test_a_revision_is_refused_when_it_does_not_fit(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(InvalidStateTransition) as early:  # pending: nothing was asked
        service.resubmit_case(case_id=case_id, payload=_revised(), notes="", actor=AGENT, request_id="early")
    assert early.value.from_state == "pending"
    _request_changes(service, case_id)
    invalid = _revised()
    del invalid["symptom"]
    with pytest.raises(PayloadInvalid):
        service.resubmit_case(case_id=case_id, payload=invalid, notes="", actor=AGENT, request_id="bad")
    with pytest.raises(NotSubmitter):
        service.resubmit_case(
            case_id=case_id, payload=_revised(), notes="", actor=OTHER_OPERATOR, request_id="x"
        )
    assert _history(service, case_id) == ["submitted", "changes_requested"]
    done = service.resubmit_case(case_id=case_id, payload=_revised(), notes="", actor=AGENT, request_id="rev")
    again = service.resubmit_case(
        case_id=case_id, payload=_revised(), notes="", actor=AGENT, request_id="rev"
    )
    assert again == done  # a retry answers the first revision
    with pytest.raises(IdempotencyConflict):
        service.resubmit_case(case_id=case_id, payload=lgv_payload(), notes="", actor=AGENT, request_id="rev")


def test_an_edit_without_payload_needs_feedback(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(EnvelopeInvalid) as refused:
        service.decide(case_id=case_id, decision="edit", feedback="  ", actor=OPERATOR, request_id="e")
    assert refused.value.details[0]["path"] == "$.feedback"
    assert _history(service, case_id) == ["submitted"]


def _adapter(service: CaseService, **policy: Any) -> str:
    schema = copy.deepcopy(service.store.active_schema("lgv_troubleshooting").schema)  # type: ignore[union-attr]
    schema["x-hitl"] = {**schema.get("x-hitl", {}), **policy}
    service.register_adapter_schema("lgv_strict", 1, schema)
    service.activate_adapter_schema("lgv_strict", 1)
    return submit(service, adapter_id="lgv_strict")


def test_always_require_feedback_holds_every_decision_to_it(service: CaseService) -> None:
    case_id = _adapter(service, always_require_feedback=True)
    with pytest.raises(FeedbackRequired):
        service.decide(case_id=case_id, decision="approve", actor=OPERATOR, request_id="a")
    with pytest.raises(FeedbackRequired):
        service.record_decision(
            case_id=case_id, decision="approved", notes="", actor=OPERATOR, request_id="b"
        )
    assert _history(service, case_id) == ["submitted"]
    done = service.decide(
        case_id=case_id, decision="approve", feedback="checked", actor=OPERATOR, request_id="c"
    )
    assert isinstance(done, Approval) and done.event.state_after == "approved"


def test_the_feedback_tool_only_where_the_adapter_enables_it(service: CaseService) -> None:
    closed = submit(service)
    with pytest.raises(FeedbackToolDisabled):
        service.leave_feedback(case_id=closed, feedback="looks odd", actor=AGENT, request_id="f")
    case_id = _adapter(service, enable_feedback_tool=True)
    event = service.leave_feedback(case_id=case_id, feedback="map is v12", actor=AGENT, request_id="f")
    assert (event.event_type, event.state_after, event.feedback) == (
        "feedback_added",
        "pending",
        "map is v12",
    )
    assert service.get_record(case_id).state.current_state == "pending"
    assert _history(service, closed) == ["submitted"]
