"""The store conformance suite: the same behaviour on SQLite and on DynamoDB (moto)."""

from __future__ import annotations

import pytest

from caseplatform import answers
from caseplatform.errors import (
    AdapterNotFound,
    AlreadyTerminal,
    AnswerRequired,
    CaseNotFound,
    EnvelopeInvalid,
    IdempotencyConflict,
    InvalidStateTransition,
    PayloadInvalid,
    QuestionRequired,
)
from caseplatform.service import CaseService
from tests.integration.caseplatform.steps import answer_of, ask, decide, reply
from tests.unit.caseplatform.factories import (
    AGENT,
    OPERATOR,
    OTHER_OPERATOR,
    T0,
    FakeClock,
    lgv_payload,
    submit,
    submit_args,
)

# ---------------------------------------------------------------------------- the whole flow


def test_submit_clarify_answer_approve_flow(service: CaseService, clock: FakeClock) -> None:
    case_id = submit(service)
    clock.advance(1000)
    assert ask(service, case_id).state_after == "needs_clarification"
    clock.advance(1000)
    assert reply(service, case_id).state_after == "pending"
    clock.advance(1000)
    assert decide(service, case_id).state_after == "approved"

    history = service.get_case_history(case_id)
    assert [e.event_type for e in history] == [
        "submitted",
        "needs_clarification",
        "clarification_provided",
        "decision_recorded",
    ]
    assert [e.created_at_ms for e in history] == [T0, T0 + 1000, T0 + 2000, T0 + 3000]
    view = service.get_case(case_id)
    assert view.record.state.current_state == "approved"
    assert view.record.state.active_terminal_event_id == history[-1].event_id
    assert view.record.state.active_decision_outcome == "approved"
    assert view.record.state.needs_clarification_since_ms is None
    assert view.payload == lgv_payload()
    assert [r.ref_value for r in view.refs] == ["LGV-07"]
    assert history[-1].actor.id == "op:dana"


def test_reject_from_needs_clarification(service: CaseService) -> None:
    case_id = submit(service)
    ask(service, case_id)
    assert decide(service, case_id, "rejected").state_after == "rejected"
    assert service.get_case(case_id).record.state.current_state == "rejected"


# ---------------------------------------------------------------------------- error codes


def test_unknown_adapter_is_adapter_not_found(service: CaseService) -> None:
    with pytest.raises(AdapterNotFound) as caught:
        service.submit_case(**submit_args(adapter_id="payments_risk"))
    assert answers.error_answer(caught.value)["code"] == "ADAPTER_NOT_FOUND"


def test_payload_invalid_lists_every_problem(service: CaseService) -> None:
    payload = lgv_payload(evidence=[], unexpected="x")
    del payload["site"]
    with pytest.raises(PayloadInvalid) as caught:
        service.submit_case(**submit_args(payload=payload))
    answer = answers.error_answer(caught.value)
    assert answer["status"] == "error"
    assert answer["code"] == "PAYLOAD_INVALID"
    paths = [d["path"] for d in answer["details"]]
    assert "$.payload.evidence" in paths
    assert "$.payload" in paths  # the missing `site` and the unexpected property
    assert len(answer["details"]) == 3
    assert list(service.store.iter_case_ids()) == []


def test_oversized_payload_is_refused(service: CaseService) -> None:
    with pytest.raises(PayloadInvalid) as caught:
        service.submit_case(**submit_args(payload=lgv_payload(evidence=["x" * 2000] * 40)))
    assert any("limit" in d["message"] for d in caught.value.details)


def test_envelope_bounds_are_checked(service: CaseService) -> None:
    with pytest.raises(EnvelopeInvalid) as caught:
        service.submit_case(**submit_args(title="t" * 201, priority="urgent", submitter={"name": "x"}))
    paths = {d["path"] for d in caught.value.details}
    assert paths == {"$.title", "$.priority", "$.submitter"}


def test_unknown_case_is_not_found(service: CaseService) -> None:
    missing = "HITL-00000000-0000-4000-8000-000000000000"
    with pytest.raises(CaseNotFound) as caught:
        service.get_case(missing)
    assert answers.error_answer(caught.value) == {"status": "not_found", "case_id": missing}
    with pytest.raises(CaseNotFound):
        decide(service, missing)


def test_invalid_transition_reports_state_and_action_and_writes_nothing(service: CaseService) -> None:
    case_id = submit(service)
    before = service.get_case(case_id).record.state
    answer = answer_of(lambda: reply(service, case_id))
    assert answer == {
        "status": "error",
        "code": "INVALID_STATE_TRANSITION",
        "message": "provide_clarification is not allowed from pending",
        "from_state": "pending",
        "requested_action": "provide_clarification",
    }
    assert len(service.get_case_history(case_id)) == 1
    assert service.get_case(case_id).record.state == before


@pytest.mark.parametrize("decision", ["approved", "rejected"])
def test_terminal_cases_accept_no_other_transition(service: CaseService, decision: str) -> None:
    case_id = submit(service)
    decide(service, case_id, decision)
    for call, action in ((ask, "request_clarification"), (reply, "provide_clarification")):
        with pytest.raises(InvalidStateTransition) as caught:
            call(service, case_id)
        assert (caught.value.from_state, caught.value.requested_action) == (decision, action)
    assert len(service.get_case_history(case_id)) == 2


def test_first_terminal_decision_wins(service: CaseService) -> None:
    case_id = submit(service)
    first = decide(service, case_id, "approved")
    with pytest.raises(AlreadyTerminal) as caught:
        decide(service, case_id, "rejected", actor=OTHER_OPERATOR)
    answer = answers.error_answer(caught.value)
    assert answer["code"] == "ALREADY_TERMINAL"
    assert answer["existing_decision"]["event_id"] == first.event_id
    assert answer["existing_decision"]["decision"] == "approved"
    assert answer["existing_decision"]["actor"]["id"] == "op:dana"
    assert service.get_case(case_id).record.state.current_state == "approved"
    assert [e.event_type for e in service.get_case_history(case_id)].count("decision_recorded") == 1


def test_question_and_answer_are_required(service: CaseService) -> None:
    case_id = submit(service)
    for question in (None, "", "   "):
        with pytest.raises(QuestionRequired):
            service.request_clarification(
                case_id=case_id, question=question, notes="", actor=AGENT, request_id="q"
            )
    ask(service, case_id)
    for answer in (None, "", "\n"):
        with pytest.raises(AnswerRequired):
            service.provide_clarification(
                case_id=case_id, answer=answer, notes="", actor=OPERATOR, request_id="a"
            )
    assert [e.event_type for e in service.get_case_history(case_id)] == ["submitted", "needs_clarification"]


def test_same_open_question_again_is_a_no_op_and_refused(service: CaseService, clock: FakeClock) -> None:
    case_id = submit(service)
    ask(service, case_id, "Which map version?")
    since = service.get_case(case_id).record.state.needs_clarification_since_ms
    with pytest.raises(InvalidStateTransition) as caught:
        ask(service, case_id, "Which map version?")
    assert caught.value.from_state == "needs_clarification"
    clock.advance(5000)
    revision = ask(service, case_id, "Which map version, and when was it loaded?")
    assert revision.event_type == "needs_clarification"
    state = service.get_case(case_id).record.state
    assert state.needs_clarification_since_ms == since  # a revision keeps the SLA clock
    assert state.updated_at_ms == T0 + 5000


# ---------------------------------------------------------------------------- idempotency


def test_retry_returns_the_first_answer_even_after_the_case_moved_on(service: CaseService) -> None:
    case_id = submit(service)
    first = answer_of(lambda: ask(service, case_id, rid="ask-1"))
    reply(service, case_id)
    decide(service, case_id, rid="decide-1")
    assert answer_of(lambda: ask(service, case_id, rid="ask-1")) == first
    retried = answer_of(lambda: decide(service, case_id, rid="decide-1"))
    assert retried["status"] == "success"
    assert retried["decision"] == "approved"
    assert len(service.get_case_history(case_id)) == 4


def test_request_id_with_a_different_payload_is_a_conflict(service: CaseService) -> None:
    case_id = submit(service)
    decide(service, case_id, "approved", rid="d-1")
    answer = answer_of(lambda: decide(service, case_id, "rejected", rid="d-1"))
    assert answer["code"] == "IDEMPOTENCY_CONFLICT"
    assert answer["request_id"] == "d-1"
    with pytest.raises(IdempotencyConflict):
        decide(service, case_id, "approved", rid="d-1", notes="different notes")


def test_submit_is_idempotent_globally(service: CaseService) -> None:
    args = submit_args(request_id="submit-once")
    first_event, _ = service.submit_case(**args)
    again_event, again_case = service.submit_case(**args)
    assert again_event == first_event
    assert again_case.case_id == first_event.case_id
    assert list(service.store.iter_case_ids()) == [first_event.case_id]
    with pytest.raises(IdempotencyConflict):
        service.submit_case(**{**args, "title": "another title"})


def test_request_ids_are_scoped_per_case(service: CaseService) -> None:
    one, two = submit(service), submit(service)
    decide(service, one, rid="same-id")
    assert decide(service, two, "rejected", rid="same-id").state_after == "rejected"
