"""The SQLite store's schema registry: a version is stored once, one version is active, and the
active schema a command decides on follows an activation by another store on the same file."""

from __future__ import annotations

from pathlib import Path

import pytest

from caseplatform.errors import AdapterNotFound, SchemaVersionExists, SchemaVersionNotFound
from caseplatform.model import SchemaRecord
from caseplatform.stores.sqlite import SqliteCaseStore

DOCUMENT = {"type": "object", "properties": {"site": {"type": "string"}}}


def test_a_version_is_stored_once_and_one_version_is_active(sqlite_store: SqliteCaseStore) -> None:
    assert sqlite_store.put_schema(SchemaRecord("a", 1, DOCUMENT, False, 1)).is_active is False
    assert sqlite_store.put_schema(SchemaRecord("a", 1, DOCUMENT, False, 2)).updated_at_ms == 1
    with pytest.raises(SchemaVersionExists):
        sqlite_store.put_schema(SchemaRecord("a", 1, {"type": "object"}, False, 3))
    with pytest.raises(AdapterNotFound):
        sqlite_store.activate_schema("b", 1, 10)
    with pytest.raises(SchemaVersionNotFound):
        sqlite_store.activate_schema("a", 2, 10)
    sqlite_store.put_schema(SchemaRecord("a", 2, DOCUMENT, False, 1))
    assert sqlite_store.activate_schema("a", 1, 10) is None
    assert sqlite_store.activate_schema("a", 2, 20) == 1
    assert [(r.schema_version, r.is_active) for r in sqlite_store.list_schemas("a")] == [
        (1, False),
        (2, True),
    ]


def test_the_decision_schema_follows_the_active_row_read(tmp_path: Path) -> None:
    this, other = SqliteCaseStore(tmp_path / "hitl.db"), SqliteCaseStore(tmp_path / "hitl.db")
    for version in (1, 2):
        this.put_schema(SchemaRecord("a", version, DOCUMENT, False, 1))
    this.activate_schema("a", 1, 10)
    first = this.decision_schema("a")
    assert first is not None and first.schema_version == 1
    other.activate_schema("a", 2, 20)
    assert this.decision_schema("a") is first  # remembered until the active row is read again
    active = this.active_schema("a")
    assert active is not None and active.schema_version == 2
    latest = this.decision_schema("a")
    assert latest is not None and latest.schema_version == 2
    this.close()
    other.close()
