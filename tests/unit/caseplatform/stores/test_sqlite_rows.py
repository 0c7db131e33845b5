"""The SQLite store's statements and rows: the parameters bound from a record read back as the same
record, and each statement takes as many parameters as it is given."""

from __future__ import annotations

import sqlite3

from caseplatform.model import Case, CaseState, Principal
from caseplatform.stores.sqlite_rows import (
    INSERT_EVENT,
    STATE_FIELDS,
    UPDATE_STATE,
    case_values,
    record_from_row,
    schema_from_row,
    state_update,
)

CASE = Case(
    case_id="HITL-1",
    schema_version=2,
    adapter_id="lgv_troubleshooting",
    case_type="incident",
    title="t",
    summary="s",
    payload={"site": "Acre"},
    payload_hash_sha256="0" * 64,
    submitter=Principal(kind="agent", name="bot", role="agent", id="agent:lgv", team=None),
    priority="high",
    confidence="low",
    created_at_ms=1,
    updated_at_ms=2,
)
STATE = CaseState("HITL-1", "needs_clarification", 3, None, None, 3, 10, None, None)


def test_a_case_row_reads_back_as_the_record_it_was_written_from() -> None:
    values = case_values(CASE, STATE)
    row = (*values[:16], CASE.case_id, *values[16:])  # the projection's columns start with case_id
    record = record_from_row(row)
    assert record.case == CASE
    assert record.state == STATE


def test_the_state_update_binds_every_projection_field_then_the_case() -> None:
    assert len(state_update(STATE)) == len(STATE_FIELDS) == UPDATE_STATE.count("?")
    assert state_update(STATE)[-1] == STATE.case_id
    assert INSERT_EVENT.count("?") == 16


def test_a_schema_row_reads_back_as_its_record() -> None:
    record = schema_from_row(("lgv_troubleshooting", 2, '{"type": "object"}', 1, 5))
    assert (record.adapter_id, record.schema_version, record.schema, record.is_active) == (
        "lgv_troubleshooting",
        2,
        {"type": "object"},
        True,
    )
    assert sqlite3.complete_statement(UPDATE_STATE + ";")
