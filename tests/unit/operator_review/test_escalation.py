"""The escalation Lambda's logic on a SQLite case store: the sweep's answer, and the drift and rebuild
jobs, which run at most `max_cases` cases and no page after the first once time runs short, answer
where to resume, and refuse an event they do not understand without touching anything."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from caseplatform import projection
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from memo.operator_review.escalation import escalate_overdue, run_projection_job
from tests.unit.caseplatform.factories import FakeClock, submit


@pytest.fixture
def cases(tmp_path: Path) -> CaseService:
    service = CaseService(SqliteCaseStore(tmp_path / "cases.db"), clock=FakeClock())
    service.ensure_default_adapters()
    return service


def _tamper(cases: CaseService, case_ids: list[str]) -> None:
    """Someone edits the projection behind the platform's back."""
    store = cases.store
    assert isinstance(store, SqliteCaseStore)
    with sqlite3.connect(store.path) as conn:
        conn.executemany(
            "UPDATE hitl_cases SET current_state = 'approved' WHERE case_id = ?", [(c,) for c in case_ids]
        )


def _job(cases: CaseService, event: dict[str, Any], max_cases: int = 100, **kw: Any) -> dict[str, Any]:
    return run_projection_job(cases, event, max_cases=max_cases, time_left=kw.get("time_left", lambda: True))


def test_a_sweep_with_nothing_due_escalates_nothing(cases: CaseService) -> None:
    assert escalate_overdue(cases, max_cases=10) == {
        "checked": 0,
        "escalated": [],
        "reassigned": [],
        "notified": [],
        "notify_failed": [],
        "past_sla": 0,
    }


def test_a_store_whose_projection_matches_its_events_has_no_drift(cases: CaseService) -> None:
    submit(cases)
    report = _job(cases, {"job": "drift"})
    assert (report["status"], report["checked"], report["drifted"], report["complete"]) == (
        "success",
        1,
        False,
        True,
    )
    assert report["drifted_case_ids"] == [] and report["next_cursor"] is None


def test_the_rebuild_job_repairs_what_the_drift_job_found(cases: CaseService) -> None:
    tampered, clean = submit(cases), submit(cases)
    _tamper(cases, [tampered])
    assert _job(cases, {"job": "drift"})["drifted_case_ids"] == [tampered]
    rebuilt = _job(cases, {"job": "rebuild"})
    assert (rebuilt["checked"], rebuilt["repaired_case_ids"], rebuilt["complete"]) == (2, [tampered], True)
    assert _job(cases, {"job": "drift"})["drifted_case_ids"] == []
    assert cases.get_record(tampered).state.current_state == "pending"
    assert cases.get_record(clean).state.current_state == "pending"


def test_max_cases_at_the_limit_completes_and_past_it_answers_where_to_resume(cases: CaseService) -> None:
    ids = sorted(submit(cases) for _ in range(3))  # one time: oldest first, then by id
    _tamper(cases, ids)
    at_limit = _job(cases, {"job": "drift"}, max_cases=3)
    assert (at_limit["checked"], at_limit["complete"], at_limit["stopped_by"]) == (3, True, None)

    first = _job(cases, {"job": "rebuild"}, max_cases=2)
    assert (first["checked"], first["complete"], first["stopped_by"]) == (2, False, "max_cases")
    assert first["repaired_case_ids"] == ids[:2]
    assert _job(cases, {"job": "drift"})["drifted_case_ids"] == [ids[2]]  # the rest is untouched
    rest = _job(cases, {"job": "rebuild", "cursor": first["next_cursor"]}, max_cases=2)
    assert (rest["checked"], rest["repaired_case_ids"], rest["complete"]) == (1, [ids[2]], True)
    assert _job(cases, {"job": "drift"})["drifted"] is False


def test_no_page_after_the_first_once_time_runs_short(
    cases: CaseService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(projection, "PAGE_SIZE", 2)
    ids = [submit(cases) for _ in range(5)]
    _tamper(cases, ids)
    runs = []
    cursor = None
    while True:
        event = {"job": "rebuild"} if cursor is None else {"job": "rebuild", "cursor": cursor}
        report = _job(cases, event, time_left=lambda: False)
        runs.append((report["checked"], report["stopped_by"]))
        cursor = report["next_cursor"]
        if report["complete"]:
            break
    assert runs == [(2, "time"), (2, "time"), (1, None)]  # every run makes progress
    assert _job(cases, {"job": "drift"})["drifted"] is False


@pytest.mark.parametrize(
    "event",
    [
        {"job": "purge"},
        {"job": "rebuild", "max_cases": 10**9},
        {"job": "rebuild", "cursor": ""},
        {"job": ["rebuild"]},
    ],
)
def test_an_event_that_is_not_a_job_changes_nothing(cases: CaseService, event: dict[str, Any]) -> None:
    tampered = submit(cases)
    _tamper(cases, [tampered])
    answer = _job(cases, event)
    assert (answer["status"], answer["code"]) == ("error", "JOB_INVALID")
    assert answer["details"]
    assert cases.get_record(tampered).state.current_state == "approved"  # not repaired


def test_a_cursor_the_store_did_not_issue_is_refused(cases: CaseService) -> None:
    submit(cases)
    answer = _job(cases, {"job": "rebuild", "cursor": "bm90LWEtY3Vyc29y"})
    assert (answer["status"], answer["code"]) == ("error", "INVALID_CURSOR")
