"""The pipeline of every command: listeners hear each written event (and again on a replay), and a
decision refused as ALREADY_TERMINAL names the decision that won."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.errors import AlreadyTerminal
from caseplatform.model import Case, Event
from caseplatform.service import CaseService, build_case_service
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import OPERATOR, OTHER_OPERATOR, FakeClock, submit


class _Heard:
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def on_event(self, case: Case, event: Event) -> None:
        self.events.append((case.case_id, event.event_type))


def test_listeners_hear_each_event_and_a_replay(tmp_path: Path) -> None:
    heard = _Heard()
    store = SqliteCaseStore(tmp_path / "hitl.db")
    service = build_case_service(store, clock=FakeClock(), listeners=[heard])
    service.ensure_default_adapters()
    case_id = submit(service)
    for _ in range(2):
        service.record_decision(
            case_id=case_id, decision="rejected", notes="no", actor=OPERATOR, request_id="d"
        )
    assert heard.events == [(case_id, "decision_recorded"), (case_id, "decision_recorded")]
    store.close()


def test_a_late_decision_names_the_winner(service: CaseService) -> None:
    case_id = submit(service)
    service.record_decision(case_id=case_id, decision="rejected", notes="no", actor=OPERATOR, request_id="d1")
    with pytest.raises(AlreadyTerminal) as late:
        service.record_decision(
            case_id=case_id, decision="rejected", notes="no", actor=OTHER_OPERATOR, request_id="d2"
        )
    assert late.value.existing["decision"] == "rejected"
    assert late.value.existing["actor"]["id"] == OPERATOR["id"]
