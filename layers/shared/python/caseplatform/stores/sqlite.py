"""SQLite store (the embedded default): WAL, `BEGIN IMMEDIATE` write transactions, the tables of
`caseplatform/migrations`.

The store is put together from its parts, each in its own module:
    connections, pragmas, transactions                  caseplatform.stores.sqlite_connection
    the tables (numbered migrations)                    caseplatform.stores.sqlite_migrations
    the statements and rows <-> records                 caseplatform.stores.sqlite_rows
    the adapter schema registry                         caseplatform.stores.sqlite_schemas
    the queries                                         caseplatform.stores.sqlite_reads
    the writes (read-check-write in one transaction)    caseplatform.stores.sqlite_writes
    projection maintenance (drift, repair)              caseplatform.stores.sqlite_projection
"""

from __future__ import annotations

from pathlib import Path

from caseplatform.stores.sqlite_migrations import migrate
from caseplatform.stores.sqlite_projection import SqliteProjection


class SqliteCaseStore(SqliteProjection):
    """The `CaseStore` on one SQLite file; opening it applies the pending migrations (`now_ms` is
    recorded as their time)."""

    def __init__(self, path: str | Path, *, now_ms: int = 0) -> None:
        super().__init__(path)
        self.applied_migrations = migrate(self._conn(), now_ms)
