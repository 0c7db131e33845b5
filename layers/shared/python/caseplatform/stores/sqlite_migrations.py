"""The SQLite store's tables: the numbered SQL scripts of `caseplatform/migrations`, applied in order
and recorded in `hitl_schema_migrations`."""

from __future__ import annotations

import sqlite3
from importlib import resources

from caseplatform.stores.sqlite_connection import transaction


def split_statements(script: str) -> list[str]:
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
        with transaction(conn):
            done = conn.execute(
                "SELECT 1 FROM hitl_schema_migrations WHERE version = ?", (version,)
            ).fetchone()
            if done:
                continue
            for statement in split_statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO hitl_schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)",
                (version, name, now_ms),
            )
            applied.append(version)
    return applied
