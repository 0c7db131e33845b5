"""Migration 0006: the CHECK constraints written as OR-ed comparisons accept and refuse exactly what
the `IN (...)` lists of migrations 1 to 5 did, and the migration moves every row as it was (rowids,
a superseding event, a case's winning event, refs), with the foreign keys intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from caseplatform.service import CaseService
from caseplatform.stores import sqlite as sqlite_module
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, submit
from tests.unit.caseplatform.legacy_sqlite import write_legacy

_CASE = {
    "case_id": "HITL-00000000-0000-4000-8000-000000000001",
    "schema_version": 1,
    "adapter_id": "lgv_troubleshooting",
    "case_type": "incident",
    "title": "t",
    "summary": "s",
    "payload_json": "{}",
    "payload_hash_sha256": "0" * 64,
    "submitter_name": "bot",
    "submitter_role": "agent",
    "priority": "normal",
    "confidence": None,
    "created_at_ms": 1,
    "updated_at_ms": 1,
    "current_state": "pending",
    "state_updated_at_ms": 1,
}
_EVENT = {
    "event_id": "HEV-00000000-0000-4000-8000-000000000001",
    "case_id": _CASE["case_id"],
    "event_type": "submitted",
    "notes": "",
    "actor_kind": "agent",
    "actor_name": "bot",
    "actor_role": "agent",
    "event_json": "{}",
    "created_at_ms": 1,
}
# Every value listed by a CHECK, then near misses and other types.
_OUTSIDERS = ["", " ", "LOW", "Pending", "normal ", "x", "approved", "operator", 1, 0, 2.5, b"low"]
_COLUMNS: dict[tuple[str, str], list[Any]] = {
    ("hitl_cases", "priority"): ["low", "normal", "high", "critical", None],
    ("hitl_cases", "confidence"): ["high", "medium", "low", None],
    ("hitl_cases", "current_state"): ["pending", "needs_clarification", "approved", "rejected", None],
    ("hitl_events", "event_type"): [
        "submitted",
        "needs_clarification",
        "clarification_provided",
        "decision_recorded",
        "decision_superseded",
        "escalated",
        "approval_vote",
        None,
    ],
    ("hitl_events", "actor_kind"): ["operator", "agent", "system", None],
}


def _database(path: Path, version: int) -> sqlite3.Connection:
    """A database with the migrations up to `version` and nothing else in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(
        "CREATE TABLE hitl_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at_ms INTEGER NOT NULL)"
    )
    for number, _, sql in sqlite_module.migrations():
        if number <= version:
            for statement in sqlite_module._split_statements(sql):
                conn.execute(statement)
    return conn


def _accepts(conn: sqlite3.Connection, table: str, column: str, value: Any) -> bool:
    conn.execute("SAVEPOINT probe")
    try:
        if table == "hitl_events":
            _insert(conn, "hitl_cases", _CASE)
        row = {**(_CASE if table == "hitl_cases" else _EVENT), column: value}
        if (table, column) == ("hitl_cases", "current_state") and value is None:
            row["state_updated_at_ms"] = None  # no projection: both NULL
        if (table, column, value) == ("hitl_events", "event_type", "decision_recorded"):
            row["decision_outcome"] = "approved"
        if (table, column, value) == ("hitl_events", "event_type", "approval_vote"):
            row["actor_kind"] = "operator"
        if (table, column, value) == ("hitl_events", "event_type", "needs_clarification"):
            row["question"] = "q?"
        if (table, column, value) == ("hitl_events", "event_type", "clarification_provided"):
            row["answer"] = "a"
        _insert(conn, table, row)
    except sqlite3.IntegrityError:
        return False
    finally:
        conn.execute("ROLLBACK TO probe")
        conn.execute("RELEASE probe")
    return True


def _insert(conn: sqlite3.Connection, table: str, row: dict[str, Any]) -> None:
    conn.execute(
        f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",  # noqa: S608 - test constants
        tuple(row.values()),
    )


@pytest.mark.parametrize(("table", "column"), list(_COLUMNS), ids=lambda part: str(part))
def test_the_or_checks_accept_what_the_in_lists_accepted(tmp_path: Path, table: str, column: str) -> None:
    before, after = _database(tmp_path / "v5.db", 5), _database(tmp_path / "v6.db", 6)
    for value in [*_COLUMNS[(table, column)], *_OUTSIDERS]:
        expected = _accepts(before, table, column, value)
        assert _accepts(after, table, column, value) == expected, (column, value)
        nullable = column in ("confidence", "current_state")
        listed = value in _COLUMNS[(table, column)] and (value is not None or nullable)
        assert expected == listed, (column, value)


def test_migration_0006_moves_every_row_as_it_was(tmp_path: Path) -> None:
    clock = FakeClock()
    source = SqliteCaseStore(tmp_path / "today.db")
    service = CaseService(source, clock=clock)
    service.ensure_default_adapters()
    decided = submit(service)
    winner = service.record_decision(
        case_id=decided, decision="rejected", notes="no", actor=OPERATOR, request_id="d"
    )
    asked = submit(service)
    service.request_clarification(case_id=asked, question="Which map?", notes="", actor=AGENT, request_id="q")
    source.close()
    db = tmp_path / "hitl.db"
    write_legacy(tmp_path / "today.db", db, version=5)
    with sqlite3.connect(db, isolation_level=None) as old:
        old.execute("PRAGMA foreign_keys = ON")
        # An event that supersedes another (no command writes one today; the schema allows it).
        _insert(
            old,
            "hitl_events",
            {
                **_EVENT,
                "event_id": "HEV-00000000-0000-4000-8000-00000000000f",
                "case_id": decided,
                "event_type": "decision_superseded",
                "decision_outcome": "rejected",
                "supersedes_event_id": winner.event_id,
                "created_at_ms": clock() + 1,
            },
        )
        rows_before = {
            table: old.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()  # noqa: S608 - test constants
            for table in ("hitl_cases", "hitl_events")
        }
        refs_before = old.execute("SELECT * FROM hitl_case_refs ORDER BY 1, 2, 3, 4").fetchall()

    store = SqliteCaseStore(db)
    assert store.applied_migrations == [6]
    conn = store._conn()
    for table, rows in rows_before.items():
        assert conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall() == rows  # noqa: S608 - test constants
    assert conn.execute("SELECT * FROM hitl_case_refs ORDER BY 1, 2, 3, 4").fetchall() == refs_before
    assert conn.execute(
        "SELECT active_terminal_event_id FROM hitl_cases WHERE case_id = ?", (decided,)
    ).fetchone() == (winner.event_id,)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    temp = conn.execute("SELECT name FROM temp.sqlite_schema").fetchall()
    assert temp == []  # the tables set aside are gone
    # The foreign keys still hold after the rebuild.
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("DELETE FROM hitl_events WHERE event_id = ?", (winner.event_id,))
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("DELETE FROM hitl_cases WHERE case_id = ?", (asked,))
    service = CaseService(store, clock=clock)
    service.provide_clarification(case_id=asked, answer="v12", notes="", actor=AGENT, request_id="a")
    service.record_decision(case_id=asked, decision="approved", notes="", actor=OPERATOR, request_id="d")
    assert service.get_record(asked).state.current_state == "approved"
    store.close()
