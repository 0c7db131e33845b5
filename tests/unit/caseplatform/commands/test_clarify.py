"""The clarification round: a question moves the case to needs_clarification, an answer back to
pending; an empty question or answer is refused before anything is read."""

from __future__ import annotations

import pytest

from caseplatform.errors import AnswerRequired, QuestionRequired
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, submit


def test_a_question_and_its_answer(service: CaseService) -> None:
    case_id = submit(service)
    with pytest.raises(QuestionRequired):
        service.request_clarification(
            case_id=case_id, question=" ", notes="", actor=OPERATOR, request_id="q0"
        )
    asked = service.request_clarification(
        case_id=case_id, question="Which map?", notes="", actor=OPERATOR, request_id="q"
    )
    assert asked.state_after == "needs_clarification"
    with pytest.raises(AnswerRequired):
        service.provide_clarification(case_id=case_id, answer=None, notes="", actor=AGENT, request_id="a0")
    answered = service.provide_clarification(
        case_id=case_id, answer="v12", notes="", actor=AGENT, request_id="a"
    )
    assert answered.state_after == "pending"
    assert service.get_record(case_id).state.current_state == "pending"
