"""The SQLite store's adapter schema registry (`hitl_schema_registry`) and the active schema a command
decides on."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from caseplatform.errors import AdapterNotFound, SchemaVersionExists, SchemaVersionNotFound
from caseplatform.model import SchemaRecord
from caseplatform.stores.sqlite_connection import SqliteDatabase
from caseplatform.stores.sqlite_rows import ACTIVE_SCHEMA, schema_from_row


class SqliteSchemaRegistry(SqliteDatabase):
    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        # The active schema row last read per adapter, parsed (a row equal to it is not parsed again);
        # what `decision_schema` serves outside `append`.
        self._parsed: dict[str, tuple[tuple[Any, ...], SchemaRecord]] = {}

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

    def _schema(self, conn: sqlite3.Connection, adapter_id: str, version: int) -> SchemaRecord | None:
        row = conn.execute(
            "SELECT adapter_id, schema_version, schema_json, is_active, updated_at_ms FROM hitl_schema_registry"
            " WHERE adapter_id = ? AND schema_version = ?",
            (adapter_id, version),
        ).fetchone()
        return None if row is None else schema_from_row(row)

    def get_schema(self, adapter_id: str, schema_version: int) -> SchemaRecord | None:
        return self._schema(self._conn(), adapter_id, schema_version)

    def active_schema(self, adapter_id: str) -> SchemaRecord | None:
        row = self._conn().execute(ACTIVE_SCHEMA, (adapter_id,)).fetchone()
        self._active_from_row(adapter_id, row)  # what decision_schema serves from now on
        return None if row is None else schema_from_row(row)  # the caller's own copy

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
            adapter_id, self._conn().execute(ACTIVE_SCHEMA, (adapter_id,)).fetchone()
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
        record = schema_from_row(row)
        self._parsed[adapter_id] = (row, record)
        return record

    def list_schemas(self, adapter_id: str | None = None) -> list[SchemaRecord]:
        sql = "SELECT adapter_id, schema_version, schema_json, is_active, updated_at_ms FROM hitl_schema_registry"
        params: tuple[Any, ...] = ()
        if adapter_id is not None:
            sql += " WHERE adapter_id = ?"
            params = (adapter_id,)
        rows = self._conn().execute(sql + " ORDER BY adapter_id, schema_version", params).fetchall()
        return [schema_from_row(row) for row in rows]

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
