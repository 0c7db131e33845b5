"""A question case as both MCP surfaces open it: the agent's questions, the decisions it offers
(approve / edit / reject unless it names fewer), and the `human_input` adapter registered once."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.errors import PayloadInvalid
from caseplatform.human_input import HUMAN_INPUT_ADAPTER, ensure_human_input_adapter, human_input_case
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, FakeClock


@pytest.fixture
def service(tmp_path: Path) -> CaseService:
    return CaseService(SqliteCaseStore(tmp_path / "hitl.db"), clock=FakeClock())


def test_the_adapter_is_registered_once(service: CaseService) -> None:
    assert ensure_human_input_adapter(service) == [HUMAN_INPUT_ADAPTER]
    assert ensure_human_input_adapter(service) == []


def test_a_question_case_offers_the_three_decisions_unless_fewer_are_named(service: CaseService) -> None:
    ensure_human_input_adapter(service)
    case = human_input_case(questions=["What framework?", "Include tests?"], prompt="Input needed")
    assert case["payload"] == {
        "questions": ["What framework?", "Include tests?"],
        "allowed_decisions": ["approve", "edit", "reject"],
        "prompt": "Input needed",
    }
    assert (case["title"], case["summary"]) == ("What framework?", "Input needed")
    event, _ = service.submit_case(**case, submitter=AGENT, request_id="h-1")
    assert service.allowed_decisions(service.get_record(event.case_id)) == ("approve", "edit", "reject")
    narrow = human_input_case(questions=["Go?"], allowed_decisions=["approve", "reject"], title="x" * 300)
    assert len(narrow["title"]) == 200
    event, _ = service.submit_case(**narrow, submitter=AGENT, request_id="h-2")
    assert service.allowed_decisions(service.get_record(event.case_id)) == ("approve", "reject")


def test_respond_or_no_question_is_refused_by_the_adapters_schema(service: CaseService) -> None:
    ensure_human_input_adapter(service)
    for case in (
        human_input_case(questions=["Go?"], allowed_decisions=["respond"]),
        human_input_case(questions=[]),
    ):
        with pytest.raises(PayloadInvalid):
            service.submit_case(**case, submitter=AGENT, request_id="bad")
