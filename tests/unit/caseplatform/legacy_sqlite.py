"""An SQLite database as an older release left it: the migrations up to a version applied, and the rows
of a database written by today's store copied into that older schema (the store only writes today's
schema, so a migration test cannot write through it on the old one)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from caseplatform.stores.sqlite_migrations import migrations, split_statements

_CASE_COLUMNS = (
    "case_id, schema_version, adapter_id, case_type, title, summary, payload_json, payload_hash_sha256,"
    " submitter_name, submitter_role, submitter_id, submitter_team, priority, confidence, created_at_ms,"
    " updated_at_ms"
)
_EVENT_COLUMNS = (
    "event_id, case_id, event_type, decision_outcome, notes, question, answer, actor_kind, actor_name,"
    " actor_role, actor_id, actor_team, supersedes_event_id, request_id, event_json, created_at_ms"
)
# hitl_state (migrations 1 to 4) from the projection columns of today's case row.
_STATE_FROM_CASES = (
    "SELECT case_id, current_state, active_terminal_event_id, active_decision_outcome,"
    " needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms, escalation_target,"
    " state_updated_at_ms FROM hitl_cases WHERE current_state IS NOT NULL"
)
# The projection's columns of the case row (migration 5 on).
_PROJECTION_COLUMNS = (
    "current_state, state_updated_at_ms, active_terminal_event_id, active_decision_outcome,"
    " needs_clarification_since_ms, escalation_due_at_ms, escalated_at_ms, escalation_target"
)
_STATE_COLUMNS = (
    "case_id, current_state, active_terminal_event_id, active_decision_outcome, needs_clarification_since_ms,"
    " escalation_due_at_ms, escalated_at_ms, escalation_target, updated_at_ms"
)


def write_legacy(source: Path, target: Path, *, version: int) -> None:
    """`target`: a new database at migration `version` (1 to 5) holding every row of `source` (a
    database of today's store). Up to 4 the projection is in hitl_state; at 5 it is in the case row,
    as today, under the CHECK constraints of migration 5."""
    if not 1 <= version <= 5:
        raise ValueError("the legacy layouts are migrations 1 to 5")
    every = migrations()
    old = sqlite3.connect(target, isolation_level=None)
    try:
        old.execute("PRAGMA foreign_keys = ON")
        old.execute("PRAGMA journal_mode = WAL")
        old.execute(
            "CREATE TABLE hitl_schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)"
        )
        for number, name, sql in every:
            if number > version:
                break
            old.execute("BEGIN IMMEDIATE")
            for statement in split_statements(sql):
                old.execute(statement)
            old.execute("INSERT INTO hitl_schema_migrations VALUES (?, ?, 0)", (number, name))
            old.execute("COMMIT")
        old.execute("ATTACH DATABASE ? AS src", (str(source),))
        old.execute("BEGIN IMMEDIATE")
        old.execute("INSERT INTO hitl_schema_registry SELECT * FROM src.hitl_schema_registry")
        old.execute(f"INSERT INTO hitl_cases ({_CASE_COLUMNS}) SELECT {_CASE_COLUMNS} FROM src.hitl_cases")  # noqa: S608 - fixed column lists
        old.execute(
            f"INSERT INTO hitl_events ({_EVENT_COLUMNS}) SELECT {_EVENT_COLUMNS} FROM src.hitl_events ORDER BY rowid"  # noqa: S608 - fixed column lists
        )
        if version < 5:
            old.execute(
                f"INSERT INTO hitl_state ({_STATE_COLUMNS}) {_STATE_FROM_CASES.replace('FROM hitl_cases', 'FROM src.hitl_cases')}"
            )
        else:
            old.execute(
                f"UPDATE hitl_cases SET ({_PROJECTION_COLUMNS}) = (SELECT {_PROJECTION_COLUMNS}"  # noqa: S608 - fixed column lists
                " FROM src.hitl_cases s WHERE s.case_id = hitl_cases.case_id)"
            )
        old.execute("INSERT INTO hitl_case_refs SELECT * FROM src.hitl_case_refs")
        old.execute("COMMIT")
        old.execute("DETACH DATABASE src")
    finally:
        old.close()
