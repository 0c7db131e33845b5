"""Migration 0002 on a database created at version 1: rows kept, the projection unchanged, foreign
keys intact, and approval_vote events accepted afterwards."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, submit
from tests.unit.caseplatform.legacy_sqlite import write_legacy


def test_0002_keeps_data_and_accepts_votes(tmp_path: Path) -> None:
    db = tmp_path / "hitl.db"
    source = SqliteCaseStore(tmp_path / "today.db")
    service = CaseService(source, clock=FakeClock())
    service.ensure_default_adapters()
    decided = submit(service)
    service.record_decision(case_id=decided, decision="approved", notes="", actor=OPERATOR, request_id="d")
    asked = submit(service)
    service.request_clarification(case_id=asked, question="Which map?", notes="", actor=AGENT, request_id="q")
    before = service.check_drift()
    source.close()
    write_legacy(tmp_path / "today.db", db, version=1)  # the same rows in the database of version 1
    with sqlite3.connect(db) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO hitl_events (event_id, case_id, event_type, notes, actor_kind, actor_name, actor_role,"
            " event_json, created_at_ms) VALUES ('HEV-x', ?, 'approval_vote', '', 'operator', 'a', 'b', '{}', 1)",
            (asked,),
        )

    store = SqliteCaseStore(db)
    assert store.applied_migrations == [2, 3, 4, 5, 6, 7, 8]
    service = CaseService(store, clock=FakeClock())
    after = service.check_drift()
    assert (after.live_hash, after.drifted) == (before.live_hash, False)
    assert [e.event_type for e in service.get_case_history(asked)] == ["submitted", "needs_clarification"]
    conn = store._conn()
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    schema = dict(service.store.get_schema("lgv_troubleshooting", 1).schema)  # type: ignore[union-attr]
    service.register_adapter_schema("lgv_troubleshooting", 2, {**schema, "x-hitl": {"required_approvers": 2}})
    service.activate_adapter_schema("lgv_troubleshooting", 2)
    vote = service.record_approval(case_id=asked, notes="", actor=OPERATOR, request_id="v")
    assert (vote.event_type, vote.state_after) == ("approval_vote", "needs_clarification")
    store.close()
