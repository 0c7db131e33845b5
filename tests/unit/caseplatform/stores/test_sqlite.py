"""The SQLite store as a whole: opening a database applies the migrations it lacks, once."""

from __future__ import annotations

from pathlib import Path

from caseplatform.stores.sqlite import SqliteCaseStore
from caseplatform.stores.sqlite_migrations import migrations


def test_opening_a_new_database_applies_every_migration_and_reopening_none(tmp_path: Path) -> None:
    first = SqliteCaseStore(tmp_path / "nested" / "hitl.db", now_ms=5)
    assert first.applied_migrations == [version for version, _, _ in migrations()]
    applied_at = first._conn().execute("SELECT DISTINCT applied_at_ms FROM hitl_schema_migrations").fetchall()
    assert applied_at == [(5,)]
    first.close()
    again = SqliteCaseStore(tmp_path / "nested" / "hitl.db")
    assert again.applied_migrations == []
    again.close()
