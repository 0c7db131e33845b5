"""The SQLite store's database: one connection per thread (sqlite3 connections must not be shared
between threads), WAL with its durability settings, and `BEGIN IMMEDIATE` write transactions."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUSY_TIMEOUT_MS = 30_000
# Checkpoint the write-ahead log into the database file every 1,000 pages (about 4 MB, SQLite's
# default). With synchronous=NORMAL the log is synced only at a checkpoint: an application crash
# loses nothing committed; a power loss may lose the commits since the last sync the OS had not
# written out yet, up to this many pages of them (docs/case-platform.md). A longer interval is
# 10-15% faster on `make bench` and widens that window as much: decisions are worth more.
# The log file is cut back to JOURNAL_SIZE_LIMIT_BYTES after a checkpoint.
WAL_AUTOCHECKPOINT_PAGES = 1_000
JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if any (a failed COMMIT may have ended it already)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class SqliteDatabase:
    """The database file at `path` (its folder created), connected lazily per thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

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
        with transaction(self._conn()) as conn:
            yield conn
