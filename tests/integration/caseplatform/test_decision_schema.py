"""The decision schema `{decision: approve|edit|reject|respond, feedback, answers}`, each case's
`allowed_decisions`, no self-approval and the assurance every event records: the same on SQLite and
DynamoDB (moto), through `CaseService`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from caseplatform.commands import Approval
from caseplatform.errors import (
    AlreadyTerminal,
    DecisionNotAllowed,
    EnvelopeInvalid,
    PayloadInvalid,
    SelfApproval,
)
from caseplatform.model import Event
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, lgv_payload, request_id, submit

QUESTIONS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["questions", "allowed_decisions"],
    "properties": {
        "questions": {"type": "array", "items": {"type": "string"}},
        "allowed_decisions": {"type": "array", "items": {"type": "string"}},
    },
    # An adapter that asks for `respond` (off by default).
    "x-hitl": {"allowed_decisions": ["approve", "edit", "reject", "respond"]},
}


def _decide(service: CaseService, case_id: str, decision: str, **kw: Any) -> Approval | Event:
    return service.decide(
        case_id=case_id,
        decision=decision,
        actor=kw.pop("actor", OPERATOR),
        request_id=kw.pop("rid", request_id("d")),
        **kw,
    )


def _event(done: Approval | Event) -> Event:
    return done.event if isinstance(done, Approval) else done


def test_approve_is_recorded_as_approve(service: CaseService) -> None:
    case_id = submit(service)
    event = _event(_decide(service, case_id, "approve", feedback="ok"))
    assert (event.decision_outcome, event.decision, event.feedback) == ("approved", "approve", "ok")
    assert event.approved_payload is None
    stored = service.get_case_history(case_id)[-1]
    assert stored.to_dict()["decision"] == "approve"


def test_edit_is_recorded_as_edit_with_the_final_payload(service: CaseService) -> None:
    case_id = submit(service)
    edited = lgv_payload(proposed_next_action="Reload the reflector map on LGV-07, then restart nav")
    event = _event(_decide(service, case_id, "edit", payload=edited, feedback="restart too"))
    assert (event.decision_outcome, event.decision) == ("approved", "edit")
    assert event.approved_payload == edited
    history = service.get_case_history(case_id)
    assert history[-1].approved_payload == edited and history[-1].decision == "edit"


def test_edit_needs_a_payload_that_changes_something_and_is_valid(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(EnvelopeInvalid):
        _decide(service, case_id, "edit")
    with pytest.raises(DecisionNotAllowed, match="changes nothing"):
        _decide(service, case_id, "edit", payload=lgv_payload())
    with pytest.raises(PayloadInvalid):
        _decide(service, case_id, "edit", payload=lgv_payload(site=7))
    with pytest.raises(EnvelopeInvalid):
        _decide(service, case_id, "approve", payload=lgv_payload(site="elsewhere"))
    assert service.get_case(case_id).record.state.current_state == "pending"  # nothing written


def test_reject_needs_feedback_and_is_recorded_as_reject(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(EnvelopeInvalid):
        _decide(service, case_id, "reject", feedback="  ")
    event = _event(_decide(service, case_id, "reject", feedback="wrong vehicle"))
    assert (event.decision_outcome, event.decision, event.notes) == ("rejected", "reject", "wrong vehicle")


def test_respond_is_refused_where_the_adapter_does_not_ask_for_it(service: CaseService) -> None:
    case_id = submit(service)  # lgv_troubleshooting: no x-hitl.allowed_decisions
    with pytest.raises(DecisionNotAllowed) as refused:
        _decide(service, case_id, "respond", feedback="check the map")
    assert refused.value.fields()["allowed_decisions"] == ["approve", "edit", "reject"]
    assert service.get_case_history(case_id)[-1].event_type == "submitted"  # nothing written


def test_respond_sends_answers_back_and_approves_nothing(service: CaseService) -> None:
    service.register_adapter_schema("questions", 1, QUESTIONS_SCHEMA)
    service.activate_adapter_schema("questions", 1)
    case_id = submit(
        service,
        adapter_id="questions",
        case_type="question",
        payload={"questions": ["Which map?"], "allowed_decisions": []},
    )
    with pytest.raises(EnvelopeInvalid):
        _decide(service, case_id, "respond")
    event = _event(_decide(service, case_id, "respond", answers=["map v12"], feedback="check the map"))
    assert (event.decision_outcome, event.decision, event.answers) == ("rejected", "respond", ["map v12"])
    with pytest.raises(AlreadyTerminal):
        _decide(service, case_id, "approve")


def test_unknown_decision_is_refused(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(EnvelopeInvalid):
        _decide(service, case_id, "ignore")


def test_allowed_decisions_from_the_payload_are_enforced(service: CaseService) -> None:
    service.register_adapter_schema("questions", 1, QUESTIONS_SCHEMA)
    service.activate_adapter_schema("questions", 1)
    case_id = submit(
        service,
        adapter_id="questions",
        case_type="question",
        payload={"questions": ["Which dock?"], "allowed_decisions": ["respond", "reject"]},
    )
    record = service.get_record(case_id)
    assert service.allowed_decisions(record) == ("reject", "respond")
    with pytest.raises(DecisionNotAllowed) as refused:
        _decide(service, case_id, "approve")
    assert refused.value.fields()["allowed_decisions"] == ["reject", "respond"]
    with pytest.raises(DecisionNotAllowed):  # the older approve path is held to the same list
        service.record_decision(
            case_id=case_id, decision="approved", notes="", actor=OPERATOR, request_id=request_id()
        )
    assert service.get_case(case_id).record.state.current_state == "pending"
    event = _event(_decide(service, case_id, "respond", answers=["dock 3"]))
    assert event.answers == ["dock 3"]


def test_allowed_decisions_from_the_adapter_policy(service: CaseService) -> None:
    schema = json.loads(json.dumps(QUESTIONS_SCHEMA))
    schema["x-hitl"] = {"allowed_decisions": ["approve", "reject"]}
    schema["required"] = ["questions"]
    service.register_adapter_schema("twobuttons", 1, schema)
    service.activate_adapter_schema("twobuttons", 1)
    case_id = submit(service, adapter_id="twobuttons", case_type="question", payload={"questions": ["?"]})
    with pytest.raises(DecisionNotAllowed):
        _decide(service, case_id, "respond", feedback="no")
    with pytest.raises(DecisionNotAllowed):
        _decide(service, case_id, "edit", payload={"questions": ["!"]})
    assert _event(_decide(service, case_id, "approve")).decision == "approve"


@pytest.mark.parametrize("surface", ["decide", "record_decision", "approve"])
def test_the_submitter_may_not_approve_its_own_case(service: CaseService, surface: str) -> None:
    submitter = {"name": "Dana Levi", "role": "site engineer", "id": "op:dana"}
    case_id = submit(service, submitter=submitter)
    own = {**submitter, "kind": "operator"}
    attempts = {
        "decide": lambda: _decide(service, case_id, "approve", actor=own),
        "record_decision": lambda: service.record_decision(
            case_id=case_id, decision="approved", notes="", actor=own, request_id=request_id()
        ),
        "approve": lambda: service.approve(
            case_id=case_id,
            notes="",
            actor=own,
            request_id=request_id(),
            edited_payload=lgv_payload(site="Plant Haifa North"),
        ),
    }
    with pytest.raises(SelfApproval):
        attempts[surface]()
    assert [e.event_type for e in service.get_case_history(case_id)] == ["submitted"]
    # Rejecting one's own case only narrows what runs: allowed.
    event = _event(_decide(service, case_id, "reject", actor=own, feedback="I got it wrong"))
    assert event.decision_outcome == "rejected"


def test_every_event_records_its_assurance(service: CaseService) -> None:
    case_id = submit(service, submitter={**AGENT, "assurance": "jwt"})
    _decide(service, case_id, "approve")
    submitted, decided = service.get_case_history(case_id)
    assert submitted.actor.assurance == "jwt"
    assert decided.actor.assurance == "local-unverified"  # asserted by an in-process caller
    assert service.get_case(case_id).record.case.submitter.assurance is None  # envelope unchanged
