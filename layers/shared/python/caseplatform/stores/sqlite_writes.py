"""The SQLite store's writes: opening a case and appending to one, each read-check-write inside one
`BEGIN IMMEDIATE` transaction, so the transition is decided on state no other writer can change
before the commit (the partial unique index on decision_recorded and UNIQUE(case_id, request_id)
back that up in the tables)."""

from __future__ import annotations

import json
import sqlite3

from caseplatform.errors import ActiveSchemaChanged, CaseNotFound
from caseplatform.model import CaseRecord, Event, NewCase, Recorded, canonical_json
from caseplatform.ports import CaseSnapshot, Decide
from caseplatform.stores.sqlite_connection import rollback
from caseplatform.stores.sqlite_reads import SqliteCaseReads
from caseplatform.stores.sqlite_rows import (
    INSERT_CASE,
    INSERT_EVENT,
    REWRITE_PAYLOAD,
    SNAPSHOT,
    SUBMITTED_BY_REQUEST,
    UPDATE_STATE,
    case_values,
    event_values,
    record_from_row,
    state_update,
)
from caseplatform.stores.sqlite_schemas import SqliteSchemaRegistry


class SqliteCaseWrites(SqliteSchemaRegistry, SqliteCaseReads):
    def create_case(self, new: NewCase) -> Recorded:
        case, event = new.case, new.event
        # One transaction, written out (not `_write`) as this is the hot path: envelope with its
        # projection, event, refs; anything raised rolls all of it back.
        cur = self._cursor()
        conn = cur.connection
        cur.execute("BEGIN IMMEDIATE")
        try:
            if cur.execute(INSERT_CASE, case_values(case, new.state)).rowcount != 1:
                # Validated on a version no longer active: nothing is written.
                raise ActiveSchemaChanged(case.adapter_id)
            cur.execute(INSERT_EVENT, event_values(event))
            if new.refs:
                conn.executemany(
                    "INSERT INTO hitl_case_refs (case_id, ref_type, ref_key, ref_value) VALUES (?, ?, ?, ?)",
                    [(case.case_id, r.ref_type, r.ref_key, r.ref_value) for r in new.refs],
                )
            cur.execute("COMMIT")
        except BaseException as exc:
            rollback(conn)
            if not isinstance(exc, sqlite3.IntegrityError | ActiveSchemaChanged):
                raise
            # The unique index on submitted events' request_id: this request opened a case already.
            # (Checked after the fact, so a first submission costs no read.) A retry is answered with
            # that case even when another schema version became active since.
            row = conn.execute(SUBMITTED_BY_REQUEST, (event.request_id,)).fetchone()
            if row is None:
                if isinstance(exc, ActiveSchemaChanged):
                    self._parsed.pop(case.adapter_id, None)
                raise
            return Recorded(Event.from_json(row[0]), replayed=True, case=record_from_row(row[1:]).case)
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
            row = cur.execute(SNAPSHOT, (case_id, request_id)).fetchone()
            if row is None:
                raise CaseNotFound(case_id)
            earlier, question, votes_json, winner = row[26:30]
            record = record_from_row(row[:26])
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
            self._local.active = (record.case.adapter_id, row[30:] if row[30] is not None else None)
            try:
                transition = decide(snapshot)
            finally:
                self._local.active = None
            cur.execute(INSERT_EVENT, event_values(transition.event))
            cur.execute(UPDATE_STATE, state_update(transition.state))
            if transition.payload is not None:
                cur.execute(REWRITE_PAYLOAD, (canonical_json(transition.payload), case_id))
            cur.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise
        return Recorded(transition.event)
