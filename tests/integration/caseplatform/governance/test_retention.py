"""Retention on both stores: a decided case past its adapter's `after_days` has its `purge_fields`
blanked (or is archived, then its whole payload blanked), recorded as a `redacted` event of the
retention actor; open cases and cases short of the limit are untouched; a repeated run writes
nothing; a run is bounded by max_cases and the time left, and resumes from its cursor."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from caseplatform.errors import InvalidCursor, SchemaInvalid
from caseplatform.governance.retention import DirectoryArchive, run_retention
from caseplatform.ports import CaseStore
from caseplatform.redaction import REDACTED
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import DAY_MS, OPERATOR, T0, FakeClock, lgv_payload, submit


def _with_retention(service: CaseService, retention: dict[str, Any]) -> None:
    """The lgv adapter's next version, with `retention` in its x-hitl."""
    active = service.store.active_schema("lgv_troubleshooting")
    assert active is not None
    document = {**active.schema, "x-hitl": {**(active.schema.get("x-hitl") or {}), "retention": retention}}
    version = active.schema_version + 1
    service.register_adapter_schema("lgv_troubleshooting", version, document)
    service.activate_adapter_schema("lgv_troubleshooting", version)


@pytest.fixture
def service(store_factory: Callable[[], CaseStore], clock: FakeClock) -> CaseService:
    built = CaseService(store_factory(), clock=clock)
    built.ensure_default_adapters()
    return built


def _decided(service: CaseService, decision: str = "rejected") -> str:
    case_id = submit(service)
    service.record_decision(case_id=case_id, decision=decision, notes="", actor=OPERATOR, request_id="d")
    return case_id


def test_purge_fields_after_the_days_and_not_a_millisecond_before(service: CaseService) -> None:
    _with_retention(service, {"after_days": 30, "purge_fields": ["site", "evidence"]})
    decided, approved, open_case = _decided(service), _decided(service, "approved"), submit(service)
    limit = T0 + 30 * DAY_MS

    early = run_retention(service, now_ms=limit - 1, archive=None, max_cases=100)
    assert (early.checked, early.purged_case_ids) == (2, [])
    report = run_retention(service, now_ms=limit, archive=None, max_cases=100)
    assert sorted(report.purged_case_ids) == sorted([decided, approved])
    for case_id in (decided, approved):
        payload = service.get_record(case_id).case.payload
        assert (payload["site"], payload["evidence"], payload["lgv_id"]) == (REDACTED, REDACTED, "LGV-07")
        last = service.get_case_history(case_id)[-1]
        assert (last.event_type, last.actor.kind, last.redacted_fields) == (
            "redacted",
            "system",
            ("site", "evidence"),
        )
    assert service.get_record(open_case).case.payload == lgv_payload()  # open: never touched
    assert len(service.get_case_history(open_case)) == 1

    again = run_retention(service, now_ms=limit + DAY_MS, archive=None, max_cases=100)
    assert again.purged_case_ids == []  # nothing left to purge: no write
    assert len(service.get_case_history(decided)) == 3
    assert not service.check_drift().drifted


def test_archive_then_purge_the_whole_payload(service: CaseService, tmp_path: Path) -> None:
    _with_retention(service, {"after_days": 1, "archive": True})
    case_id = _decided(service)
    now = T0 + 2 * DAY_MS

    unarchived = run_retention(service, now_ms=now, archive=None, max_cases=100)
    assert (unarchived.unarchived_case_ids, unarchived.purged_case_ids) == ([case_id], [])
    assert service.get_record(case_id).case.payload == lgv_payload()  # nowhere to archive: kept

    report = run_retention(service, now_ms=now, archive=DirectoryArchive(tmp_path), max_cases=100)
    where = Path(report.archived[case_id])
    archived = json.loads(where.read_text(encoding="utf-8"))
    assert archived["payload"] == lgv_payload()
    assert [e["event_type"] for e in archived["events"]] == ["submitted", "decision_recorded"]
    assert set(service.get_record(case_id).case.payload.values()) == {REDACTED}
    assert str(where) in service.get_case_history(case_id)[-1].notes  # the event says where it went


def test_a_run_stops_at_max_cases_and_resumes_from_its_cursor(service: CaseService) -> None:
    _with_retention(service, {"after_days": 1, "purge_fields": ["site"]})
    cases = {_decided(service) for _ in range(3)} | {_decided(service, "approved") for _ in range(2)}
    now = T0 + 2 * DAY_MS
    purged: set[str] = set()
    cursor = None
    runs = 0
    while True:
        report = run_retention(service, now_ms=now, archive=None, max_cases=2, cursor=cursor)
        runs += 1
        assert report.checked <= 2
        purged |= set(report.purged_case_ids)
        if report.complete:
            break
        assert report.stopped_by == "max_cases"
        cursor = report.next_cursor
    assert purged == cases and runs >= 3


def test_a_run_out_of_time_starts_no_page_and_a_foreign_cursor_is_refused(service: CaseService) -> None:
    _with_retention(service, {"after_days": 1, "purge_fields": ["site"]})
    _decided(service)
    report = run_retention(
        service, now_ms=T0 + 2 * DAY_MS, archive=None, max_cases=10, time_left=lambda: False
    )
    assert (report.checked, report.stopped_by, report.next_cursor) == (0, "time", "approved:")
    with pytest.raises(InvalidCursor):
        run_retention(service, now_ms=T0, archive=None, max_cases=10, cursor="pending:")


@pytest.mark.parametrize(
    "retention",
    [
        {"purge_fields": ["site"]},  # no after_days
        {"after_days": 0, "purge_fields": ["site"]},
        {"after_days": 30},  # neither purge nor archive
        {"after_days": 30, "archive": False},
        {"after_days": 30, "purge_fields": []},
    ],
)
def test_a_retention_policy_is_checked_when_registered(
    service: CaseService, retention: dict[str, Any]
) -> None:
    with pytest.raises(SchemaInvalid):
        _with_retention(service, retention)
