"""The SQLite store's projection maintenance: the cases page by page, a case's projection read with
its events, and its repair. The projection is the state columns of the case row; a row whose
`current_state` is NULL has none."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from caseplatform.errors import CaseNotFound
from caseplatform.model import CaseState, Event, Page
from caseplatform.ports import Fold, ProjectionRead, Repair
from caseplatform.stores import cursor as cursors
from caseplatform.stores.sqlite_rows import STATE_COLUMNS, STATE_FIELDS, UPDATE_STATE, state_update
from caseplatform.stores.sqlite_writes import SqliteCaseWrites

_STATE_OF = f"SELECT {STATE_COLUMNS} FROM hitl_cases c WHERE c.case_id = ?"  # noqa: S608 - fixed column constants
_EVENTS_OF = "SELECT event_json FROM hitl_events WHERE case_id = ? ORDER BY created_at_ms, rowid"
_CLEAR_STATE = (
    f"UPDATE hitl_cases SET {', '.join(f'{name} = NULL' for name in STATE_FIELDS[1:])} WHERE case_id = ?"  # noqa: S608 - fixed column constants
)


class SqliteProjection(SqliteCaseWrites):
    def iter_case_ids(self) -> Iterator[str]:
        rows = (
            self._conn().execute("SELECT case_id FROM hitl_cases ORDER BY created_at_ms, case_id").fetchall()
        )
        return iter([row[0] for row in rows])

    def case_ids(self, *, limit: int, cursor: str | None = None) -> Page[str]:
        """Every case row (written with its submitted event), oldest first; the cursor is the
        (created_at_ms, case_id) of the last one."""
        after = cursors.decode_list(cursor, 2)
        where, params = "", []
        if after is not None:
            where, params = " WHERE (created_at_ms, case_id) > (?, ?)", list(after)
        rows = (
            self._conn()
            .execute(
                f"SELECT created_at_ms, case_id FROM hitl_cases{where}"  # noqa: S608 - fixed clause; values are bound parameters
                " ORDER BY created_at_ms, case_id LIMIT ?",
                (*params, limit + 1),
            )
            .fetchall()
        )
        page = rows[:limit]
        next_cursor = cursors.encode(list(page[-1])) if len(rows) > limit else None
        return Page([row[1] for row in page], next_cursor)

    def list_states(self) -> list[CaseState]:
        rows = (
            self._conn()
            .execute(
                f"SELECT {STATE_COLUMNS} FROM hitl_cases c WHERE c.current_state IS NOT NULL ORDER BY c.case_id"  # noqa: S608 - fixed column/clause constants; values are bound parameters
            )
            .fetchall()
        )
        return [CaseState(*row) for row in rows]

    def read_projection(self, case_id: str) -> ProjectionRead:
        """Read in one transaction (a snapshot: no command commits between the two statements)."""
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            read = _read(conn, case_id)
        finally:
            conn.execute("COMMIT")
        return read

    def repair_projection(self, case_id: str, fold: Fold) -> Repair:
        """Inside `BEGIN IMMEDIATE`: no command writes between the read and the repair. A case whose
        events are gone loses its projection (no query returns it)."""
        with self._write() as conn:
            read = _read(conn, case_id)
            state = fold(read.events)
            if state == read.live:
                return "clean"
            if state is None:
                conn.execute(_CLEAR_STATE, (case_id,))
            else:
                conn.execute(UPDATE_STATE, state_update(state))
        return "repaired"

    def replace_states(self, states: list[CaseState]) -> None:
        with self._write() as conn:
            conn.execute(f"UPDATE hitl_cases SET {', '.join(f'{name} = NULL' for name in STATE_FIELDS[1:])}")  # noqa: S608 - fixed column/clause constants
            for state in states:
                if conn.execute(UPDATE_STATE, state_update(state)).rowcount != 1:
                    raise CaseNotFound(state.case_id)


def _read(conn: sqlite3.Connection, case_id: str) -> ProjectionRead:
    row = conn.execute(_STATE_OF, (case_id,)).fetchone()
    if row is None:
        raise CaseNotFound(case_id)
    live = CaseState(*row) if row[1] is not None else None
    events = [Event.from_json(r[0]) for r in conn.execute(_EVENTS_OF, (case_id,))]
    return ProjectionRead(live, events)
