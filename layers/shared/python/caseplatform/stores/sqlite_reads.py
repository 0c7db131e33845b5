"""The SQLite store's queries: one case, its events and refs, and the lists (newest first, paged by
keyset cursors)."""

from __future__ import annotations

import sqlite3
from typing import Any

from caseplatform.model import CaseRecord, CaseState, Decision, Event, EventType, Page, Ref
from caseplatform.stores import cursor as cursors
from caseplatform.stores.sqlite_connection import SqliteDatabase
from caseplatform.stores.sqlite_rows import CASE_COLUMNS, STATE_COLUMNS, record_from_row


class SqliteCaseReads(SqliteDatabase):
    def _case_record(self, conn: sqlite3.Connection, case_id: str) -> CaseRecord | None:
        row = conn.execute(
            f"SELECT {CASE_COLUMNS}, {STATE_COLUMNS} FROM hitl_cases c"  # noqa: S608 - fixed column/clause constants; values are bound parameters
            " WHERE c.case_id = ? AND c.current_state IS NOT NULL",
            (case_id,),
        ).fetchone()
        return None if row is None else record_from_row(row)

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
                f"SELECT {CASE_COLUMNS}, {STATE_COLUMNS} FROM hitl_cases c"  # noqa: S608 - fixed column/clause constants; values are bound parameters
                f" WHERE {' AND '.join(where)} ORDER BY c.created_at_ms DESC, c.case_id DESC LIMIT ?",
                (*params, limit + 1),
            )
            .fetchall()
        )
        records = [record_from_row(row) for row in rows[:limit]]
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
                f"SELECT {STATE_COLUMNS} FROM hitl_cases c WHERE {where}"  # noqa: S608 - fixed column/clause constants; values are bound parameters
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
