"""The commands of the case flow as one-liners, shared by the store-level suites: ask a question,
answer it, decide; and the wire answer of a call (its result or its error)."""

from __future__ import annotations

from typing import Any

from caseplatform import answers
from caseplatform.errors import CasePlatformError
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import AGENT, OPERATOR, request_id


def ask(
    service: CaseService, case_id: str, question: str = "Which reflector map version is loaded?", **kw: Any
):
    return service.request_clarification(
        case_id=case_id,
        question=question,
        notes="need the map version",
        actor=AGENT,
        request_id=kw.pop("rid", request_id()),
    )


def reply(service: CaseService, case_id: str, answer: str = "v12", **kw: Any):
    return service.provide_clarification(
        case_id=case_id, answer=answer, notes="", actor=OPERATOR, request_id=kw.pop("rid", request_id())
    )


def decide(service: CaseService, case_id: str, decision: str = "approved", **kw: Any):
    return service.record_decision(
        case_id=case_id,
        decision=decision,
        notes=kw.pop("notes", "looks right"),
        actor=kw.pop("actor", OPERATOR),
        request_id=kw.pop("rid", request_id()),
    )


def answer_of(call: Any) -> dict[str, Any]:
    try:
        result = call()
    except CasePlatformError as error:
        return answers.error_answer(error)
    return answers.transition_answer(result)
