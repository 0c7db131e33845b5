"""The SQLite store's statements and rows: the SQL it runs, the parameters it binds from domain
records and the records it reads back from rows."""

from __future__ import annotations

import json
from typing import Any

from caseplatform.model import Case, CaseRecord, CaseState, Event, Principal, SchemaRecord

CASE_COLUMNS = (
    "c.case_id, c.schema_version, c.adapter_id, c.case_type, c.title, c.summary, c.payload_json, "
    "c.payload_hash_sha256, c.submitter_name, c.submitter_role, c.submitter_id, c.submitter_team, "
    "c.priority, c.confidence, c.created_at_ms, c.updated_at_ms"
)
# The projection's columns in the case row (migration 0005), in `CaseState` field order; a case whose
# current_state is NULL has no projection.
STATE_COLUMNS = (
    "c.case_id, c.current_state, c.state_updated_at_ms, c.active_terminal_event_id, c.active_decision_outcome, "
    "c.needs_clarification_since_ms, c.escalation_due_at_ms, c.escalated_at_ms, c.escalation_target,"
    " c.resubmissions"
)
STATE_FIELDS = tuple(column.removeprefix("c.") for column in STATE_COLUMNS.split(", "))


# The envelope and its first projection, written only while the schema version the payload was
# validated on (?2) is still the adapter's (?3) active one: no row inserted means another version
# became active meanwhile.
INSERT_CASE = (
    f"INSERT INTO hitl_cases ({CASE_COLUMNS.replace('c.', '')}, {', '.join(STATE_FIELDS[1:])})"  # noqa: S608 - fixed column/clause constants; values are bound parameters
    f" SELECT {', '.join(f'?{n}' for n in range(1, 17 + len(STATE_FIELDS) - 1))}"
    " WHERE EXISTS (SELECT 1 FROM hitl_schema_registry WHERE adapter_id = ?3 AND schema_version = ?2"
    " AND is_active = 1)"
)
INSERT_EVENT = (
    "INSERT INTO hitl_events (event_id, case_id, event_type, decision_outcome, notes, question, answer,"
    " actor_kind, actor_name, actor_role, actor_id, actor_team, supersedes_event_id, request_id,"
    " event_json, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
UPDATE_STATE = (
    f"UPDATE hitl_cases SET {', '.join(f'{name} = ?' for name in STATE_FIELDS[1:])} WHERE case_id = ?"  # noqa: S608 - fixed column/clause constants; values are bound parameters
)
# What a command on an existing case decides on, in one statement: the columns of `_record_from_row`,
# then the event this request_id wrote already (NULL if none), the open question (while the case
# needs clarification), the approval votes (a JSON array of event_json, oldest first), the
# terminal event (once decided) and the adapter's active schema row (the columns of `ACTIVE_SCHEMA`).
SNAPSHOT = (
    f"SELECT {CASE_COLUMNS}, {STATE_COLUMNS},"  # noqa: S608 - fixed column/clause constants; values are bound parameters
    " (SELECT e.event_json FROM hitl_events e WHERE e.case_id = c.case_id AND e.request_id = ?2),"
    " CASE WHEN c.current_state = 'needs_clarification' THEN"
    " (SELECT q.question FROM hitl_events q WHERE q.case_id = c.case_id AND +q.event_type = 'needs_clarification'"
    " ORDER BY q.created_at_ms DESC, q.rowid DESC LIMIT 1) END,"
    " (SELECT json_group_array(v.event_json) FROM (SELECT event_json FROM hitl_events"
    " WHERE case_id = c.case_id AND +event_type = 'approval_vote' ORDER BY created_at_ms, rowid) v),"
    " CASE WHEN c.active_terminal_event_id IS NOT NULL THEN"
    " (SELECT w.event_json FROM hitl_events w WHERE w.event_id = c.active_terminal_event_id) END,"
    " r.adapter_id, r.schema_version, r.schema_json, r.is_active, r.updated_at_ms"
    " FROM hitl_cases c"
    " LEFT JOIN hitl_schema_registry r ON r.adapter_id = c.adapter_id AND r.is_active = 1"
    " WHERE c.case_id = ?1 AND c.current_state IS NOT NULL"
)
ACTIVE_SCHEMA = (
    "SELECT adapter_id, schema_version, schema_json, is_active, updated_at_ms FROM hitl_schema_registry"
    " WHERE adapter_id = ? AND is_active = 1"
)
# A `redacted` event's payload: the stored payload rewritten (its hash column keeps the original's).
REWRITE_PAYLOAD = "UPDATE hitl_cases SET payload_json = ? WHERE case_id = ?"
SUBMITTED_BY_REQUEST = (
    f"SELECT e.event_json, {CASE_COLUMNS}, {STATE_COLUMNS} FROM hitl_events e"  # noqa: S608 - fixed column/clause constants; values are bound parameters
    " JOIN hitl_cases c ON c.case_id = e.case_id"
    " WHERE e.event_type = 'submitted' AND e.request_id = ? AND c.current_state IS NOT NULL"
)


def case_values(case: Case, state: CaseState) -> tuple[Any, ...]:
    return (
        case.case_id,
        case.schema_version,
        case.adapter_id,
        case.case_type,
        case.title,
        case.summary,
        case.payload_json,
        case.payload_hash_sha256,
        case.submitter.name,
        case.submitter.role,
        case.submitter.id,
        case.submitter.team,
        case.priority,
        case.confidence,
        case.created_at_ms,
        case.updated_at_ms,
        state.current_state,
        state.updated_at_ms,
        state.active_terminal_event_id,
        state.active_decision_outcome,
        state.needs_clarification_since_ms,
        state.escalation_due_at_ms,
        state.escalated_at_ms,
        state.escalation_target,
        state.resubmissions,
    )


def event_values(event: Event) -> tuple[Any, ...]:
    actor = event.actor
    return (
        event.event_id,
        event.case_id,
        event.event_type,
        event.decision_outcome,
        event.notes,
        event.question,
        event.answer,
        actor.kind,
        actor.name,
        actor.role,
        actor.id,
        actor.team,
        event.supersedes_event_id,
        event.request_id,
        event.event_json,
        event.created_at_ms,
    )


def state_update(state: CaseState) -> tuple[Any, ...]:
    """The parameters of `UPDATE_STATE`."""
    return (
        state.current_state,
        state.updated_at_ms,
        state.active_terminal_event_id,
        state.active_decision_outcome,
        state.needs_clarification_since_ms,
        state.escalation_due_at_ms,
        state.escalated_at_ms,
        state.escalation_target,
        state.resubmissions,
        state.case_id,
    )


def schema_from_row(row: tuple[Any, ...]) -> SchemaRecord:
    """A row of `hitl_schema_registry`: adapter_id, schema_version, schema_json, is_active, updated_at_ms."""
    return SchemaRecord(row[0], int(row[1]), json.loads(row[2]), bool(row[3]), int(row[4]))


def record_from_row(row: tuple[Any, ...]) -> CaseRecord:
    """A row of `CASE_COLUMNS, STATE_COLUMNS`."""
    case = Case(
        case_id=row[0],
        schema_version=int(row[1]),
        adapter_id=row[2],
        case_type=row[3],
        title=row[4],
        summary=row[5],
        payload=json.loads(row[6]),
        payload_hash_sha256=row[7],
        submitter=Principal(kind="agent", name=row[8], role=row[9], id=row[10], team=row[11]),
        priority=row[12],
        confidence=row[13],
        created_at_ms=int(row[14]),
        updated_at_ms=int(row[15]),
    )
    return CaseRecord(case, CaseState(*row[16:26]))
