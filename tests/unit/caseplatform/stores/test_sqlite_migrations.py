"""The SQLite store's migrations. Migrations 0004 and 0005 keep every row and the queries (each on its
index, no sort). Migration 0006: the CHECK constraints written as OR-ed comparisons accept and refuse exactly what
the `IN (...)` lists of migrations 1 to 5 did, and the migration moves every row as it was (rowids,
a superseding event, a case's winning event, refs), with the foreign keys intact."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from caseplatform.model import Ref
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from caseplatform.stores.sqlite_migrations import migrations, split_statements
from caseplatform.stores.sqlite_rows import INSERT_CASE, INSERT_EVENT, SNAPSHOT, UPDATE_STATE
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
    for number, _, sql in migrations():
        if number <= version:
            for statement in split_statements(sql):
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
    assert store.applied_migrations == [6, 7, 8]
    conn = store._conn()
    for table, rows in rows_before.items():
        after = conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()  # noqa: S608 - test constants
        if table == "hitl_cases":  # migration 0007 adds the revision count, 0 for every case before
            assert {row[-1] for row in after} == {0}
            after = [row[:-1] for row in after]
        assert after == rows
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


def _plan(conn: sqlite3.Connection, call: Callable[[], object]) -> str:
    """The query plan of the last statement `call` ran on `conn` (its SQL with the values bound)."""
    ran: list[str] = []
    conn.set_trace_callback(ran.append)
    try:
        call()
    finally:
        conn.set_trace_callback(None)
    return " | ".join(str(row[3]) for row in conn.execute("EXPLAIN QUERY PLAN " + ran[-1]))


@pytest.mark.parametrize(("version", "applied"), [(3, [4, 5, 6, 7, 8]), (4, [5, 6, 7, 8]), (5, [6, 7, 8])])
def test_migrations_keep_every_row_and_the_queries(tmp_path: Path, version: int, applied: list[int]) -> None:
    clock = FakeClock()
    source = SqliteCaseStore(tmp_path / "today.db")
    service = CaseService(source, clock=clock)
    service.ensure_default_adapters()
    decided = submit(service)
    service.record_decision(case_id=decided, decision="rejected", notes="no", actor=OPERATOR, request_id="d")
    clock.advance(1000)
    asked = submit(service, priority="high")
    service.request_clarification(case_id=asked, question="Which map?", notes="", actor=AGENT, request_id="q")
    clock.advance(1000)
    waiting = submit(service)
    before = service.check_drift()
    source.close()
    db = tmp_path / "hitl.db"
    write_legacy(tmp_path / "today.db", db, version=version)

    store = SqliteCaseStore(db)
    assert store.applied_migrations == applied
    service = CaseService(store, clock=clock)
    after = service.check_drift()
    assert (after.live_hash, after.drifted, after.cases) == (before.live_hash, False, 3)
    conn = store._conn()
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    tables = {
        row[0]: row[1] for row in conn.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'table'")
    }
    assert "hitl_state" not in tables  # the projection is in the case row
    assert tables["hitl_case_refs"].rstrip().endswith("WITHOUT ROWID")
    indexes = {
        row[0]: row[1]
        for row in conn.execute(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
        )
    }
    assert set(indexes) == {
        "idx_hitl_cases_created",
        "idx_hitl_cases_adapter_created",
        "idx_hitl_cases_priority_created",
        "idx_hitl_cases_state_created",
        "idx_hitl_cases_escalation_due",
        "idx_hitl_events_type_created",
        "idx_hitl_events_principal_created",
        "idx_hitl_callbacks_case",
        "ux_hitl_events_first_terminal",
        "ux_hitl_events_submit_request",
        "ux_hitl_schema_registry_active",
        "idx_hitl_case_refs_lookup",
    }
    assert not any(" DESC" in sql for sql in indexes.values())  # new rows append at the right edge

    # The queries over the projection answer as before: the queue, the listings, the sweep.
    assert {r.case.case_id for r in service.list_review_queue()} == {asked, waiting}
    assert [r.case.case_id for r in service.list_cases(state="rejected").items] == [decided]
    assert [r.case.case_id for r in service.list_cases(priority="high").items] == [asked]
    assert [r.case.case_id for r in service.list_cases().items] == [waiting, asked, decided]
    due = service.escalations_due(within_ms=365 * 24 * 3600 * 1000).items
    assert [s.case_id for s in due] == [asked]
    # The refs (each case has one) are kept and found both ways.
    assert [r.to_dict() for r in store.list_refs(asked)] == [
        {"ref_type": "neo4j_node", "ref_key": "lgv_id", "ref_value": "LGV-07"}
    ]
    assert service.cases_by_ref("neo4j_node", "lgv_id", "LGV-07").items == sorted([decided, asked, waiting])
    assert service.get_record(asked).state == next(
        s for s in service.recompute_projection() if s.case_id == asked
    )

    # Each listing walks its index in its own order: no table scan, no sort.
    year = 365 * 24 * 3600 * 1000
    plans = {
        "state": _plan(conn, lambda: store.list_cases(state="pending", limit=5)),
        "adapter": _plan(conn, lambda: store.list_cases(adapter_id="lgv_troubleshooting", limit=5)),
        "priority": _plan(conn, lambda: store.list_cases(priority="high", limit=5)),
        "all": _plan(conn, lambda: store.list_cases(limit=1)),
        "next page": _plan(
            conn, lambda: store.list_cases(limit=1, cursor=store.list_cases(limit=1).next_cursor)
        ),
        "sweep": _plan(conn, lambda: store.escalation_due(clock() + year, limit=5)),
        "by type": _plan(
            conn,
            lambda: store.list_events_by_type("decision_recorded", from_ms=0, to_ms=clock() + 1, limit=5),
        ),
        "by principal": _plan(
            conn, lambda: store.list_events_by_principal("op:dana", from_ms=0, to_ms=clock() + 1, limit=5)
        ),
        "by ref": _plan(conn, lambda: store.cases_by_ref(Ref("neo4j_node", "lgv_id", "LGV-07"), limit=1)),
        "refs of a case": _plan(conn, lambda: store.list_refs(asked)),
    }
    uses = {
        "state": "idx_hitl_cases_state_created",
        "adapter": "idx_hitl_cases_adapter_created",
        "priority": "idx_hitl_cases_priority_created",
        "all": "idx_hitl_cases_created",
        "next page": "idx_hitl_cases_created",
        "sweep": "idx_hitl_cases_escalation_due",
        "by type": "idx_hitl_events_type_created",
        "by principal": "idx_hitl_events_principal_created",
        "by ref": "idx_hitl_case_refs_lookup",
        "refs of a case": "USING PRIMARY KEY (case_id=?)",
    }
    for name, plan in plans.items():
        assert uses[name] in plan, (name, plan)
        assert "TEMP B-TREE" not in plan, (name, plan)
    # One case, its events: through the case's key and UNIQUE (case_id, request_id), never a type scan.
    snapshot_plan = " ".join(
        str(row[3]) for row in conn.execute("EXPLAIN QUERY PLAN " + SNAPSHOT, (asked, "x"))
    )
    assert "idx_hitl_events_type_created" not in snapshot_plan
    assert "sqlite_autoindex_hitl_events_2" in snapshot_plan
    assert "sqlite_autoindex_hitl_cases_1" in snapshot_plan
    # The CHECKs of the hot statements build no temporary b-tree (migration 0006).
    for sql, values in (
        (INSERT_CASE, 25),
        (INSERT_EVENT, 16),
        (UPDATE_STATE, 10),
    ):
        ops = [row[1] for row in conn.execute("EXPLAIN " + sql, [None] * values)]
        assert "OpenEphemeral" not in ops, sql
    # The migrated store keeps working: the clarification answered, the case decided.
    service.provide_clarification(case_id=asked, answer="v12", notes="", actor=AGENT, request_id="a")
    service.record_decision(case_id=asked, decision="approved", notes="", actor=OPERATOR, request_id="d")
    assert service.get_record(asked).state.current_state == "approved"
    assert service.check_drift().drifted is False
    store.close()
