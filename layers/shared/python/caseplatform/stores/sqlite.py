"""SQLite store (the embedded default): WAL, `BEGIN IMMEDIATE` write transactions, the plan's DDL.

Every write path runs read-check-write inside one `BEGIN IMMEDIATE` transaction, so the transition
is decided on state no other writer can change before the commit; the partial unique index on
decision_recorded and UNIQUE(case_id, request_id) back that up at the schema level. Each thread
gets its own connection (sqlite3 connections must not be shared between threads).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from caseplatform.errors import (
    ActiveSchemaChanged,
    AdapterNotFound,
    CaseNotFound,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.model import (
    Case,
    CaseRecord,
    CaseState,
    Decision,
    Event,
    EventType,
    NewCase,
    Page,
    Principal,
    Recorded,
    Ref,
    SchemaRecord,
)
from caseplatform.ports import CaseSnapshot, Decide
from caseplatform.stores import cursor as cursors

BUSY_TIMEOUT_MS = 30_000
# Checkpoint the write-ahead log into the database file every 1,000 pages (about 4 MB, SQLite's
# default). With synchronous=NORMAL the log is synced only at a checkpoint: an application crash
# loses nothing committed; a power loss may lose the commits since the last sync the OS had not
# written out yet, up to this many pages of them (docs/case-platform.md). A longer interval is
# 10-15% faster on `make bench` and widens that window as much: decisions are worth more.
# The log file is cut back to JOURNAL_SIZE_LIMIT_BYTES after a checkpoint.
WAL_AUTOCHECKPOINT_PAGES = 1_000
JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024

_CASE_COLUMNS = (
    "c.case_id, c.schema_version, c.adapter_id, c.case_type, c.title, c.summary, c.payload_json, "
    "c.payload_hash_sha256, c.submitter_name, c.submitter_role, c.submitter_id, c.submitter_team, "
    "c.priority, c.confidence, c.created_at_ms, c.updated_at_ms"
)
# The projection's columns in the case row (migration 0005), in `CaseState` field order; a case whose
# current_state is NULL has no projection.
_STATE_COLUMNS = (
    "c.case_id, c.current_state, c.state_updated_at_ms, c.active_terminal_event_id, c.active_decision_outcome, "
    "c.needs_clarification_since_ms, c.escalation_due_at_ms, c.escalated_at_ms, c.escalation_target"
)
_STATE_FIELDS = tuple(column.removeprefix("c.") for column in _STATE_COLUMNS.split(", "))


# The envelope and its first projection, written only while the schema version the payload was
# validated on (?2) is still the adapter's (?3) active one: no row inserted means another version
# became active meanwhile.
_INSERT_CASE = (
    f"INSERT INTO hitl_cases ({_CASE_COLUMNS.replace('c.', '')}, {', '.join(_STATE_FIELDS[1:])})"  # noqa: S608 - fixed column/clause constants; values are bound parameters
    f" SELECT {', '.join(f'?{n}' for n in range(1, 17 + len(_STATE_FIELDS) - 1))}"
    " WHERE EXISTS (SELECT 1 FROM hitl_schema_registry WHERE adapter_id = ?3 AND schema_version = ?2"
    " AND is_active = 1)"
)
_INSERT_EVENT = (
    "INSERT INTO hitl_events (event_id, case_id, event_type, decision_outcome, notes, question, answer,"
    " actor_kind, actor_name, actor_role, actor_id, actor_team, supersedes_event_id, request_id,"
    " event_json, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_UPDATE_STATE = (
    f"UPDATE hitl_cases SET {', '.join(f'{name} = ?' for name in _STATE_FIELDS[1:])} WHERE case_id = ?"  # noqa: S608 - fixed column/clause constants; values are bound parameters
)
# What a command on an existing case decides on, in one statement: the columns of `_record_from_row`,
# then the event this request_id wrote already (NULL if none), the open question (while the case
# needs clarification), the approval votes (a JSON array of event_json, oldest first), the
# terminal event (once decided) and the adapter's active schema row (the columns of `_ACTIVE_SCHEMA`).
_SNAPSHOT = (
    f"SELECT {_CASE_COLUMNS}, {_STATE_COLUMNS},"  # noqa: S608 - fixed column/clause constants; values are bound parameters
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
_ACTIVE_SCHEMA = (
    "SELECT adapter_id, schema_version, schema_json, is_active, updated_at_ms FROM hitl_schema_registry"
    " WHERE adapter_id = ? AND is_active = 1"
)
_SUBMITTED_BY_REQUEST = (
    f"SELECT e.event_json, {_CASE_COLUMNS}, {_STATE_COLUMNS} FROM hitl_events e"  # noqa: S608 - fixed column/clause constants; values are bound parameters
    " JOIN hitl_cases c ON c.case_id = e.case_id"
    " WHERE e.event_type = 'submitted' AND e.request_id = ? AND c.current_state IS NOT NULL"
)


def _case_values(case: Case, state: CaseState) -> tuple[Any, ...]:
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
    )


def _event_values(event: Event) -> tuple[Any, ...]:
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


def _state_update(state: CaseState) -> tuple[Any, ...]:
    """The parameters of `_UPDATE_STATE`."""
    return (
        state.current_state,
        state.updated_at_ms,
        state.active_terminal_event_id,
        state.active_decision_outcome,
        state.needs_clarification_since_ms,
        state.escalation_due_at_ms,
        state.escalated_at_ms,
        state.escalation_target,
        state.case_id,
    )


def _split_statements(script: str) -> list[str]:
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in current.splitlines()
    ):
        raise ValueError("migration ends with an incomplete statement")
    return statements


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every `migrations/NNNN_name.sql`, in order."""
    found = []
    for entry in resources.files("caseplatform.migrations").iterdir():
        if entry.name.endswith(".sql"):
            version, _, name = entry.name.removesuffix(".sql").partition("_")
            found.append((int(version), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conn: sqlite3.Connection, now_ms: int) -> list[int]:
    """Apply pending migrations, each in its own BEGIN IMMEDIATE transaction; returns what it applied."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS hitl_schema_migrations ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)"
    )
    applied = []
    for version, name, sql in migrations():
        with _transaction(conn):
            done = conn.execute(
                "SELECT 1 FROM hitl_schema_migrations WHERE version = ?", (version,)
            ).fetchone()
            if done:
                continue
            for statement in _split_statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO hitl_schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)",
                (version, name, now_ms),
            )
            applied.append(version)
    return applied


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if any (a failed COMMIT may have ended it already)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class SqliteCaseStore:
    def __init__(self, path: str | Path, *, now_ms: int = 0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # The active schema row last read per adapter, parsed (a row equal to it is not parsed again);
        # what `decision_schema` serves outside `append`.
        self._parsed: dict[str, tuple[tuple[Any, ...], SchemaRecord]] = {}
        self.applied_migrations = migrate(self._conn(), now_ms)

    # ------------------------------------------------------------------ connections
    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
            conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT_BYTES}")
            conn.execute("PRAGMA foreign_keys = ON")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def _cursor(self) -> sqlite3.Cursor:
        """This thread's cursor for the write paths (`Connection.execute` makes a new cursor per call);
        each result is fetched before the next statement."""
        cursor: sqlite3.Cursor | None = getattr(self._local, "cursor", None)
        if cursor is None:
            cursor = self._conn().cursor()
            self._local.cursor = cursor
        return cursor

    def checkpoint(self) -> tuple[int, int]:
        """Copy the write-ahead log into the database file now (a PASSIVE checkpoint: it waits for no
        reader or writer); returns (pages in the log, pages copied). SQLite also does this on its own
        every WAL_AUTOCHECKPOINT_PAGES pages."""
        _, logged, copied = self._conn().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(logged), int(copied)

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with _transaction(self._conn()) as conn:
            yield conn

    # ------------------------------------------------------------------ schema registry
    def put_schema(self, record: SchemaRecord) -> SchemaRecord:
        with self._write() as conn:
            existing = self._schema(conn, record.adapter_id, record.schema_version)
            if existing is not None:
                if existing.schema != record.schema:
                    raise SchemaVersionExists(record.adapter_id, record.schema_version)
                return existing
            conn.execute(
                "INSERT INTO hitl_schema_registry (adapter_id, schema_version, schema_json, is_active, updated_at_ms)"
                " VALUES (?, ?, ?, 0, ?)",
                (record.adapter_id, record.schema_version, record.schema_json, record.updated_at_ms),
            )
        return SchemaRecord(
            record.adapter_id, record.schema_version, record.schema, False, record.updated_at_ms
        )

    @staticmethod
    def _schema_from_row(row: tuple[Any, ...]) -> SchemaRecord:
        return SchemaRecord(row[0], int(row[1]), json.loads(row[2]), bool(row[3]), int(row[4]))

    def _schema(self, conn: sqlite3.Connection, adapter_id: str, version: int) -> SchemaRecord | None:
        row = conn.execute(
            "SELECT adapter_id, schema_version, schema_json, is_active, updated_at_ms FROM hitl_schema_registry"
            " WHERE adapter_id = ? AND schema_version = ?",
            (adapter_id, version),
        ).fetchone()
        return None if row is None else self._schema_from_row(row)

    def get_schema(self, adapter_id: str, schema_version: int) -> SchemaRecord | None:
        return self._schema(self._conn(), adapter_id, schema_version)

    def active_schema(self, adapter_id: str) -> SchemaRecord | None:
        row = self._conn().execute(_ACTIVE_SCHEMA, (adapter_id,)).fetchone()
        self._active_from_row(adapter_id, row)  # what decision_schema serves from now on
        return None if row is None else self._schema_from_row(row)  # the caller's own copy

    def decision_schema(self, adapter_id: str) -> SchemaRecord | None:
        # Inside `append` the active schema was read with the case, under the write lock: the version
        # active at commit. Elsewhere (submit_case) the one read last, else read now: `create_case`
        # writes only while that version is still the active one (else ActiveSchemaChanged, and the
        # service reads it again).
        read: tuple[str, tuple[Any, ...] | None] | None = getattr(self._local, "active", None)
        if read is not None and read[0] == adapter_id:
            return self._active_from_row(adapter_id, read[1])
        known = self._parsed.get(adapter_id)
        if known is not None:
            return known[1]
        return self._active_from_row(
            adapter_id, self._conn().execute(_ACTIVE_SCHEMA, (adapter_id,)).fetchone()
        )

    def _active_from_row(self, adapter_id: str, row: tuple[Any, ...] | None) -> SchemaRecord | None:
        """The active schema row as read now, remembered per adapter (a row equal to the one read
        before is not parsed again)."""
        if row is None:
            self._parsed.pop(adapter_id, None)
            return None
        known = self._parsed.get(adapter_id)
        if known is not None and known[0] == row:
            return known[1]
        record = self._schema_from_row(row)
        self._parsed[adapter_id] = (row, record)
        return record

    def list_schemas(self, adapter_id: str | None = None) -> list[SchemaRecord]:
        sql = "SELECT adapter_id, schema_version, schema_json, is_active, updated_at_ms FROM hitl_schema_registry"
        params: tuple[Any, ...] = ()
        if adapter_id is not None:
            sql += " WHERE adapter_id = ?"
            params = (adapter_id,)
        rows = self._conn().execute(sql + " ORDER BY adapter_id, schema_version", params).fetchall()
        return [self._schema_from_row(row) for row in rows]

    def activate_schema(self, adapter_id: str, schema_version: int, now_ms: int) -> int | None:
        with self._write() as conn:
            versions = {
                row[0]: bool(row[1])
                for row in conn.execute(
                    "SELECT schema_version, is_active FROM hitl_schema_registry WHERE adapter_id = ?",
                    (adapter_id,),
                )
            }
            if not versions:
                raise AdapterNotFound(adapter_id)
            if schema_version not in versions:
                raise SchemaVersionNotFound(adapter_id, schema_version)
            previous = next((v for v, active in versions.items() if active), None)
            if previous == schema_version:
                return previous
            conn.execute(
                "UPDATE hitl_schema_registry SET is_active = 0, updated_at_ms = ? WHERE adapter_id = ? AND is_active = 1",
                (now_ms, adapter_id),
            )
            conn.execute(
                "UPDATE hitl_schema_registry SET is_active = 1, updated_at_ms = ?"
                " WHERE adapter_id = ? AND schema_version = ?",
                (now_ms, adapter_id, schema_version),
            )
        self._parsed.pop(adapter_id, None)
        return previous

    # ------------------------------------------------------------------ writes
    def create_case(self, new: NewCase) -> Recorded:
        case, event = new.case, new.event
        # One transaction, written out (not `_write`) as this is the hot path: envelope with its
        # projection, event, refs; anything raised rolls all of it back.
        cur = self._cursor()
        conn = cur.connection
        cur.execute("BEGIN IMMEDIATE")
        try:
            if cur.execute(_INSERT_CASE, _case_values(case, new.state)).rowcount != 1:
                # Validated on a version no longer active: nothing is written.
                raise ActiveSchemaChanged(case.adapter_id)
            cur.execute(_INSERT_EVENT, _event_values(event))
            if new.refs:
                conn.executemany(
                    "INSERT INTO hitl_case_refs (case_id, ref_type, ref_key, ref_value) VALUES (?, ?, ?, ?)",
                    [(case.case_id, r.ref_type, r.ref_key, r.ref_value) for r in new.refs],
                )
            cur.execute("COMMIT")
        except BaseException as exc:
            _rollback(conn)
            if not isinstance(exc, sqlite3.IntegrityError | ActiveSchemaChanged):
                raise
            # The unique index on submitted events' request_id: this request opened a case already.
            # (Checked after the fact, so a first submission costs no read.) A retry is answered with
            # that case even when another schema version became active since.
            row = conn.execute(_SUBMITTED_BY_REQUEST, (event.request_id,)).fetchone()
            if row is None:
                if isinstance(exc, ActiveSchemaChanged):
                    self._parsed.pop(case.adapter_id, None)
                raise
            return Recorded(Event.from_json(row[0]), replayed=True, case=self._record_from_row(row[1:]).case)
        return Recorded(event)

    def append(
        self, case_id: str, request_id: str, decide: Decide, *, seen: CaseRecord | None = None
    ) -> Recorded:
        # `seen` is not needed: the one statement below reads, under the write lock, the request's
        # earlier event, the case and its projection, the open question, the votes and the winner.
        # One transaction, written out (not `_write`) as this is the hot path.
        cur = self._cursor()
        conn = cur.connection
        cur.execute("BEGIN IMMEDIATE")
        try:
            row = cur.execute(_SNAPSHOT, (case_id, request_id)).fetchone()
            if row is None:
                raise CaseNotFound(case_id)
            earlier, question, votes_json, winner = row[25:29]
            record = self._record_from_row(row[:25])
            votes = () if votes_json == "[]" else tuple(Event.from_json(t) for t in json.loads(votes_json))
            if earlier is not None:
                cur.execute("COMMIT")
                return Recorded(Event.from_json(earlier), replayed=True, case=record.case, votes=votes)
            snapshot = CaseSnapshot(
                record.case,
                record.state,
                question,
                votes=votes,
                winner=None if winner is None else Event.from_json(winner),
            )
            self._local.active = (record.case.adapter_id, row[29:] if row[29] is not None else None)
            try:
                transition = decide(snapshot)
            finally:
                self._local.active = None
            cur.execute(_INSERT_EVENT, _event_values(transition.event))
            cur.execute(_UPDATE_STATE, _state_update(transition.state))
            cur.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
        return Recorded(transition.event)

    # ------------------------------------------------------------------ reads
    @staticmethod
    def _record_from_row(row: tuple[Any, ...]) -> CaseRecord:
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
        return CaseRecord(case, CaseState(*row[16:25]))

    def _case_record(self, conn: sqlite3.Connection, case_id: str) -> CaseRecord | None:
        row = conn.execute(
            f"SELECT {_CASE_COLUMNS}, {_STATE_COLUMNS} FROM hitl_cases c"  # noqa: S608 - fixed column/clause constants; values are bound parameters
            " WHERE c.case_id = ? AND c.current_state IS NOT NULL",
            (case_id,),
        ).fetchone()
        return None if row is None else self._record_from_row(row)

    def get_case(self, case_id: str) -> CaseRecord | None:
        return self._case_record(self._conn(), case_id)

    def list_events(self, case_id: str) -> list[Event]:
        rows = self._conn().execute(
            "SELECT event_json FROM hitl_events WHERE case_id = ? ORDER BY created_at_ms, rowid", (case_id,)
        )
        return [Event.from_json(row[0]) for row in rows]

    def list_refs(self, case_id: str) -> list[Ref]:
        rows = self._conn().execute(
            "SELECT ref_type, ref_key, ref_value FROM hitl_case_refs WHERE case_id = ?"
            " ORDER BY ref_type, ref_key, ref_value",
            (case_id,),
        )
        return [Ref(*row) for row in rows]

    def list_cases(
        self,
        *,
        state: str | None = None,
        adapter_id: str | None = None,
        priority: str | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[CaseRecord]:
        where, params = ["c.current_state IS NOT NULL"], []
        for column, value in (
            ("c.current_state", state),
            ("c.adapter_id", adapter_id),
            ("c.priority", priority),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        after = cursors.decode_list(cursor, 2)
        if after is not None:
            where.append("(c.created_at_ms, c.case_id) < (?, ?)")
            params.extend(after)
        rows = (
            self._conn()
            .execute(
                f"SELECT {_CASE_COLUMNS}, {_STATE_COLUMNS} FROM hitl_cases c"  # noqa: S608 - fixed column/clause constants; values are bound parameters
                f" WHERE {' AND '.join(where)} ORDER BY c.created_at_ms DESC, c.case_id DESC LIMIT ?",
                (*params, limit + 1),
            )
            .fetchall()
        )
        records = [self._record_from_row(row) for row in rows[:limit]]
        next_cursor = None
        if len(rows) > limit:
            last = records[-1].case
            next_cursor = cursors.encode([last.created_at_ms, last.case_id])
        return Page(records, next_cursor)

    def _event_page(self, where: str, params: list[Any], limit: int, cursor: str | None) -> Page[Event]:
        after = cursors.decode_list(cursor, 2)
        if after is not None:
            where += " AND (created_at_ms, event_id) < (?, ?)"
            params = [*params, *after]
        rows = (
            self._conn()
            .execute(
                f"SELECT event_json FROM hitl_events WHERE {where} ORDER BY created_at_ms DESC, event_id DESC LIMIT ?",  # noqa: S608 - fixed column/clause constants; values are bound parameters
                (*params, limit + 1),
            )
            .fetchall()
        )
        events = [Event.from_json(row[0]) for row in rows[:limit]]
        next_cursor = None
        if len(rows) > limit:
            next_cursor = cursors.encode([events[-1].created_at_ms, events[-1].event_id])
        return Page(events, next_cursor)

    def list_events_by_type(
        self,
        event_type: EventType,
        *,
        from_ms: int,
        to_ms: int,
        decision: Decision | None = None,
        limit: int,
        cursor: str | None = None,
    ) -> Page[Event]:
        where = "event_type = ? AND created_at_ms >= ? AND created_at_ms < ?"
        params: list[Any] = [event_type, from_ms, to_ms]
        if decision is not None:
            where += " AND decision_outcome = ?"
            params.append(decision)
        return self._event_page(where, params, limit, cursor)

    def list_events_by_principal(
        self, principal: str, *, from_ms: int, to_ms: int, limit: int, cursor: str | None = None
    ) -> Page[Event]:
        where = "coalesce(actor_id, actor_name) = ? AND created_at_ms >= ? AND created_at_ms < ?"
        return self._event_page(where, [principal, from_ms, to_ms], limit, cursor)

    def cases_by_ref(self, ref: Ref, *, limit: int, cursor: str | None = None) -> Page[str]:
        after = cursors.decode_list(cursor, 1)
        rows = (
            self._conn()
            .execute(
                "SELECT case_id FROM hitl_case_refs WHERE ref_type = ? AND ref_key = ? AND ref_value = ? AND case_id > ?"
                " ORDER BY case_id LIMIT ?",
                (ref.ref_type, ref.ref_key, ref.ref_value, after[0] if after else "", limit + 1),
            )
            .fetchall()
        )
        ids = [row[0] for row in rows[:limit]]
        return Page(ids, cursors.encode([ids[-1]]) if len(rows) > limit else None)

    def escalation_due(self, before_ms: int, *, limit: int, cursor: str | None = None) -> Page[CaseState]:
        where, params = "c.escalation_due_at_ms IS NOT NULL AND c.escalation_due_at_ms <= ?", [before_ms]
        after = cursors.decode_list(cursor, 2)
        if after is not None:
            where += " AND (c.escalation_due_at_ms, c.case_id) > (?, ?)"
            params.extend(after)
        rows = (
            self._conn()
            .execute(
                f"SELECT {_STATE_COLUMNS} FROM hitl_cases c WHERE {where}"  # noqa: S608 - fixed column/clause constants; values are bound parameters
                " ORDER BY c.escalation_due_at_ms, c.case_id LIMIT ?",
                (*params, limit + 1),
            )
            .fetchall()
        )
        states = [CaseState(*row) for row in rows[:limit]]
        next_cursor = None
        if len(rows) > limit:
            next_cursor = cursors.encode([states[-1].escalation_due_at_ms, states[-1].case_id])
        return Page(states, next_cursor)

    # ------------------------------------------------------------------ projection maintenance
    def iter_case_ids(self) -> Iterator[str]:
        rows = (
            self._conn().execute("SELECT case_id FROM hitl_cases ORDER BY created_at_ms, case_id").fetchall()
        )
        return iter([row[0] for row in rows])

    def list_states(self) -> list[CaseState]:
        rows = (
            self._conn()
            .execute(
                f"SELECT {_STATE_COLUMNS} FROM hitl_cases c WHERE c.current_state IS NOT NULL ORDER BY c.case_id"  # noqa: S608 - fixed column/clause constants; values are bound parameters
            )
            .fetchall()
        )
        return [CaseState(*row) for row in rows]

    def replace_states(self, states: list[CaseState]) -> None:
        with self._write() as conn:
            conn.execute(f"UPDATE hitl_cases SET {', '.join(f'{name} = NULL' for name in _STATE_FIELDS[1:])}")  # noqa: S608 - fixed column/clause constants
            for state in states:
                if conn.execute(_UPDATE_STATE, _state_update(state)).rowcount != 1:
                    raise CaseNotFound(state.case_id)
