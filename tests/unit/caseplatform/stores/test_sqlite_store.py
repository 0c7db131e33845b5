"""The SQLite store's write path: the schema version a submission was validated on is checked by the
envelope's INSERT (no read first), a write that fails half-way leaves nothing, migrations 0004 and
0005 keep every row and the queries (each on its index, no sort), and the connection settings the
durability story rests on."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from caseplatform.errors import PayloadInvalid
from caseplatform.model import Ref
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.service import CaseService
from caseplatform.stores import sqlite as sqlite_module
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, lgv_payload, submit, submit_args
from tests.unit.caseplatform.legacy_sqlite import write_legacy

ADAPTER = "lgv_troubleshooting"


def _count(store: SqliteCaseStore, table: str) -> int:
    return int(store._conn().execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # noqa: S608 - fixed table names


def _activate_short_sites(service: CaseService) -> None:
    """Version 2 of the LGV schema: `site` at most 5 characters."""
    record = service.store.get_schema(ADAPTER, 1)
    assert record is not None
    document = json.loads(json.dumps(record.schema))
    document["properties"]["site"]["maxLength"] = 5
    service.register_adapter_schema(ADAPTER, 2, document)
    service.activate_adapter_schema(ADAPTER, 2)


@pytest.fixture
def two_processes(tmp_path: Path) -> Any:
    """Two stores on one database file, as two processes would have them (each its own cache)."""
    db = tmp_path / "hitl.db"
    this = CaseService(SqliteCaseStore(db), clock=FakeClock())
    this.ensure_default_adapters()
    other = CaseService(SqliteCaseStore(db), clock=FakeClock())
    yield this, other
    this.store.close()  # type: ignore[attr-defined]
    other.store.close()  # type: ignore[attr-defined]


def test_a_submission_is_written_on_the_version_active_when_it_commits(
    two_processes: tuple[CaseService, CaseService],
) -> None:
    this, other = two_processes
    first = submit(this)  # `this` now knows version 1 as the active one
    assert this.get_record(first).case.schema_version == 1
    _activate_short_sites(other)  # another process activates version 2

    # Validated on version 1 (what `this` knew), refused by the envelope's INSERT, validated again
    # on version 2: a site too long for it is refused, and nothing is written.
    with pytest.raises(PayloadInvalid) as refused:
        submit(this)
    assert refused.value.details == [{"path": "$.payload.site", "message": "'Plant Haifa' is too long"}]
    assert _count(this.store, "hitl_cases") == 1  # type: ignore[arg-type]
    assert _count(this.store, "hitl_events") == 1  # type: ignore[arg-type]

    # A payload valid for version 2 is written on version 2, and so is the next one (no refusal).
    second = submit(this, payload=lgv_payload(site="Haifa"))
    third = submit(this, payload=lgv_payload(site="Acre"))
    assert [this.get_record(c).case.schema_version for c in (second, third)] == [2, 2]


def test_a_retry_after_another_version_became_active_answers_with_the_case_it_opened(
    two_processes: tuple[CaseService, CaseService],
) -> None:
    this, other = two_processes
    args = submit_args(request_id="submit-once")
    event, case = this.submit_case(**args)
    _activate_short_sites(other)
    again, same = this.submit_case(**args)  # "Plant Haifa" is too long for version 2
    assert (again.event_id, same.case_id, same.schema_version) == (event.event_id, case.case_id, 1)
    assert _count(this.store, "hitl_cases") == 1  # type: ignore[arg-type]


@pytest.mark.parametrize("failing", ["hitl_events", "hitl_case_refs"])
def test_a_submission_that_fails_half_way_writes_nothing(service: CaseService, failing: str) -> None:
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    conn = store._conn()
    # The event's (or the refs') INSERT fails after the case row, with its projection, was inserted.
    conn.execute(
        f"CREATE TEMP TRIGGER crash BEFORE INSERT ON main.{failing} BEGIN SELECT RAISE(ABORT, 'crash'); END"
    )
    args = submit_args(request_id="half-way")
    with pytest.raises(sqlite3.IntegrityError, match="crash"):
        service.submit_case(**args)
    assert not conn.in_transaction
    assert [_count(store, t) for t in ("hitl_cases", "hitl_events", "hitl_case_refs")] == [0, 0, 0]
    # Nothing half-written blocks the retry: the same request opens the case.
    conn.execute("DROP TRIGGER crash")
    event, case = service.submit_case(**args)
    assert service.get_record(case.case_id).state.current_state == "pending"
    assert [e.event_id for e in service.get_case_history(case.case_id)] == [event.event_id]


def test_a_decision_that_fails_half_way_writes_nothing(service: CaseService) -> None:
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    case_id = submit(service)
    conn = store._conn()
    # The projection's UPDATE (of the case row) fails after the decision's event was inserted.
    conn.execute(
        "CREATE TEMP TRIGGER crash BEFORE UPDATE ON main.hitl_cases BEGIN SELECT RAISE(ABORT, 'crash'); END"
    )
    with pytest.raises(sqlite3.IntegrityError, match="crash"):
        service.record_decision(
            case_id=case_id, decision="approved", notes="", actor=OPERATOR, request_id="d"
        )
    assert not conn.in_transaction
    assert [e.event_type for e in service.get_case_history(case_id)] == ["submitted"]
    assert service.get_record(case_id).state.current_state == "pending"
    assert service.check_drift().drifted is False

    conn.execute("DROP TRIGGER crash")
    event = service.record_decision(
        case_id=case_id, decision="approved", notes="", actor=OPERATOR, request_id="d"
    )
    assert (event.event_type, service.get_record(case_id).state.current_state) == (
        "decision_recorded",
        "approved",
    )


def test_an_interrupted_decision_leaves_the_connection_usable(service: CaseService) -> None:
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    case_id = submit(service)

    def interrupted(snapshot: CaseSnapshot) -> Transition:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        store.append(case_id, "interrupted", interrupted)
    assert not store._conn().in_transaction
    event = service.request_clarification(
        case_id=case_id, question="Which map version?", notes="", actor=AGENT, request_id="q"
    )
    assert event.state_after == "needs_clarification"


def _plan(conn: sqlite3.Connection, call: Callable[[], object]) -> str:
    """The query plan of the last statement `call` ran on `conn` (its SQL with the values bound)."""
    ran: list[str] = []
    conn.set_trace_callback(ran.append)
    try:
        call()
    finally:
        conn.set_trace_callback(None)
    return " | ".join(str(row[3]) for row in conn.execute("EXPLAIN QUERY PLAN " + ran[-1]))


@pytest.mark.parametrize(("version", "applied"), [(3, [4, 5, 6]), (4, [5, 6]), (5, [6])])
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
        "adapter": _plan(conn, lambda: store.list_cases(adapter_id=ADAPTER, limit=5)),
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
        str(row[3]) for row in conn.execute("EXPLAIN QUERY PLAN " + sqlite_module._SNAPSHOT, (asked, "x"))
    )
    assert "idx_hitl_events_type_created" not in snapshot_plan
    assert "sqlite_autoindex_hitl_events_2" in snapshot_plan
    assert "sqlite_autoindex_hitl_cases_1" in snapshot_plan
    # The CHECKs of the hot statements build no temporary b-tree (migration 0006).
    for sql, values in (
        (sqlite_module._INSERT_CASE, 24),
        (sqlite_module._INSERT_EVENT, 16),
        (sqlite_module._UPDATE_STATE, 9),
    ):
        ops = [row[1] for row in conn.execute("EXPLAIN " + sql, [None] * values)]
        assert "OpenEphemeral" not in ops, sql
    # The migrated store keeps working: the clarification answered, the case decided.
    service.provide_clarification(case_id=asked, answer="v12", notes="", actor=AGENT, request_id="a")
    service.record_decision(case_id=asked, decision="approved", notes="", actor=OPERATOR, request_id="d")
    assert service.get_record(asked).state.current_state == "approved"
    assert service.check_drift().drifted is False
    store.close()


def test_a_case_without_a_projection_is_not_listed_and_rebuild_restores_it(service: CaseService) -> None:
    """current_state NULL is what a missing hitl_state row was: the case is not read as a record until
    the projection is rebuilt from its events."""
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    kept, lost = submit(service), submit(service)
    store._conn().execute(
        "UPDATE hitl_cases SET current_state = NULL, state_updated_at_ms = NULL WHERE case_id = ?", (lost,)
    )
    assert [r.case.case_id for r in service.list_cases().items] == [kept]
    assert store.get_case(lost) is None
    assert [s.case_id for s in store.list_states()] == [kept]
    assert service.check_drift().drifted_case_ids == [lost]
    assert service.rebuild_projection().drifted_case_ids == [lost]
    assert service.check_drift().drifted is False
    assert service.get_record(lost).state.current_state == "pending"


def test_the_connection_settings_of_the_durability_story(sqlite_store: SqliteCaseStore) -> None:
    conn = sqlite_store._conn()
    settings = {
        name: conn.execute(f"PRAGMA {name}").fetchone()[0]
        for name in (
            "journal_mode",
            "synchronous",
            "foreign_keys",
            "wal_autocheckpoint",
            "journal_size_limit",
        )
    }
    assert settings == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "foreign_keys": 1,
        "wal_autocheckpoint": sqlite_module.WAL_AUTOCHECKPOINT_PAGES,
        "journal_size_limit": sqlite_module.JOURNAL_SIZE_LIMIT_BYTES,
    }


def test_checkpoint_copies_the_log_into_the_database_file(service: CaseService) -> None:
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    case_id = submit(service)
    logged, copied = store.checkpoint()
    assert logged == copied > 0  # no reader held any page back
    store._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log cut to nothing
    assert store.checkpoint() == (0, 0)
    assert service.get_record(case_id).state.current_state == "pending"  # read from the database file
