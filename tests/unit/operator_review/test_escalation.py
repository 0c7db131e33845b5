"""The escalation sweep's answer and the projection drift check, on a case store with nothing due."""

from __future__ import annotations

from pathlib import Path

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from memo.operator_review.escalation import check_projection, escalate_overdue
from tests.unit.caseplatform.factories import FakeClock


def test_a_sweep_with_nothing_due_escalates_nothing(tmp_path: Path) -> None:
    cases = CaseService(SqliteCaseStore(tmp_path / "cases.db"), clock=FakeClock())
    assert escalate_overdue(cases, max_cases=10) == {
        "checked": 0,
        "escalated": [],
        "notified": [],
        "notify_failed": [],
        "past_sla": 0,
    }


def test_a_store_whose_projection_matches_its_events_has_no_drift(tmp_path: Path) -> None:
    cases = CaseService(SqliteCaseStore(tmp_path / "cases.db"), clock=FakeClock())
    report = check_projection(cases)
    assert report["drifted"] is False and report["drifted_case_ids"] == []
