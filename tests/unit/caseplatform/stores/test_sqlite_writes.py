"""The SQLite store's writes: the schema version a submission was validated on is checked by the
envelope's INSERT (no read first), and a write that fails half-way leaves nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from caseplatform.errors import PayloadInvalid
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, OPERATOR, FakeClock, lgv_payload, submit, submit_args

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
