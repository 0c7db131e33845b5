"""The callbacks agents registered for their cases, in the SQLite store's file (table
`hitl_callbacks`, migration 0007): the agent's server registers, the reviewer's server delivers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from caseplatform.notifications import Callback
from caseplatform.stores.sqlite_connection import SqliteDatabase, transaction


class SqliteCallbacks(SqliteDatabase):
    """A `CallbackRegistry` on a store's file, whose migrations the store applied when opened."""

    def __init__(self, path: str | Path, *, clock: Callable[[], int]) -> None:
        super().__init__(path)
        self._clock = clock

    def add(self, callback: Callback) -> None:
        conn = self._conn()
        with transaction(conn):
            conn.execute(
                "INSERT INTO hitl_callbacks (registration_id, case_id, url, secret, created_at_ms)"
                " VALUES (?, ?, ?, ?, ?)",
                (callback.registration_id, callback.case_id, callback.url, callback.secret, self._clock()),
            )

    def for_case(self, case_id: str) -> list[Callback]:
        rows = self._conn().execute(
            "SELECT registration_id, case_id, url, secret FROM hitl_callbacks WHERE case_id = ?"
            " ORDER BY created_at_ms, registration_id",
            (case_id,),
        )
        return [Callback(*row) for row in rows]
