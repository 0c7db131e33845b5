"""The adapter schema registry: register and activate schema versions, install the built-in
adapters, and answer which policy and which documents apply to an adapter's cases.

A version that breaks the version before it is refused (SCHEMA_BREAKING_CHANGE) unless its upcaster
covers the change or its declared migration accepts it (`caseplatform.evolution`). Schema documents
are kept per adapter and version for the life of the registry: a registered version never changes (the store refuses a different document under an existing version), while
which version is active can change from any process and is always read from the store.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from jsonschema import Draft202012Validator

from caseplatform import evolution, schemas
from caseplatform.errors import (
    EnvelopeInvalid,
    PayloadInvalid,
    SchemaBreakingChange,
    SchemaInvalid,
    SchemaVersionNotFound,
)
from caseplatform.model import SchemaRecord
from caseplatform.ports import CaseStore, Clock
from caseplatform.validation import MAX_SCHEMA_BYTES, SUBMIT_SCHEMA, error_details


class SchemaRegistry:
    def __init__(self, store: CaseStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        self._documents: dict[str, dict[int, dict[str, Any]]] = {}
        self._validators: dict[tuple[str, int], schemas.PayloadValidator] = {}
        # The policy of a schema version, by the document it was read from (a store serving its
        # cached record gives the same document object each time).
        self._policies: dict[tuple[str, int], tuple[dict[str, Any], schemas.AdapterPolicy]] = {}

    def register(self, adapter_id: str, schema_version: int, schema_json: Any) -> SchemaRecord:
        """Store a new, inactive version (a JSON text or an already parsed document)."""
        details = _check_adapter_id(adapter_id)
        if not isinstance(schema_version, int) or isinstance(schema_version, bool) or schema_version < 1:
            details.append({"path": "$.schema_version", "message": "schema_version must be an integer >= 1"})
        if details:
            raise EnvelopeInvalid(details)
        schema = schema_json
        if isinstance(schema_json, str):
            if len(schema_json.encode("utf-8")) > MAX_SCHEMA_BYTES:
                raise SchemaInvalid(
                    [{"path": "$", "message": f"schema is larger than {MAX_SCHEMA_BYTES} bytes"}]
                )
            schema = _parse_json(schema_json)
        problems = schemas.check_schema_document(schema)
        if problems:
            raise SchemaInvalid(problems)
        if self._store.get_schema(adapter_id, schema_version) is None:
            self._check_evolution(adapter_id, schema_version, schema)
        self._documents.pop(adapter_id, None)
        return self._store.put_schema(
            SchemaRecord(adapter_id, schema_version, schema, is_active=False, updated_at_ms=self._clock())
        )

    def _check_evolution(self, adapter_id: str, schema_version: int, schema: dict[str, Any]) -> None:
        """SCHEMA_BREAKING_CHANGE unless the new version keeps older payloads readable: it breaks
        neither the registered version just below it (by its own upcaster or migration) nor, when
        registered between two versions, is broken by the one just above it (by that one's)."""
        versions = {r.schema_version: r.schema for r in self._store.list_schemas(adapter_id)}
        below, above = evolution.registered_neighbours(versions, schema_version)
        pairs = []
        if below is not None:
            pairs.append((below, versions[below], schema_version, schema))
        if above is not None:
            pairs.append((schema_version, schema, above, versions[above]))
        for old_version, old, new_version, new in pairs:
            changes = evolution.unaccepted_changes(old, new)
            if changes:
                raise SchemaBreakingChange(
                    adapter_id, new_version, old_version, [change.to_dict() for change in changes]
                )

    def activate(self, adapter_id: str, schema_version: int) -> tuple[SchemaRecord, int | None]:
        """Make the version the active one; returns it and the previously active version."""
        previous = self._store.activate_schema(adapter_id, schema_version, self._clock())
        self._documents.pop(adapter_id, None)
        record = self._store.get_schema(adapter_id, schema_version)
        if record is None:  # activate_schema checked it; a concurrent writer cannot delete versions
            raise SchemaVersionNotFound(adapter_id, schema_version)
        return record, previous

    def ensure_defaults(self) -> list[str]:
        """Register and activate version 1 of each built-in adapter that has no active schema yet."""
        added = []
        for adapter_id, schema in sorted(schemas.default_adapter_schemas().items()):
            if self._store.active_schema(adapter_id) is None:
                if self._store.get_schema(adapter_id, 1) is None:
                    self.register(adapter_id, 1, schema)
                self._store.activate_schema(adapter_id, 1, self._clock())
                added.append(adapter_id)
        return added

    def active(self, adapter_id: str) -> SchemaRecord | None:
        return self._store.active_schema(adapter_id)

    def validator(self, record: SchemaRecord) -> schemas.PayloadValidator:
        """The payload validator of a schema version, compiled once per (adapter, version): a
        registered version never changes (the store refuses another document under it); the document
        is compared all the same, so a validator never serves another document."""
        key = (record.adapter_id, record.schema_version)
        found = self._validators.get(key)
        if found is None or (found.schema is not record.schema and found.schema != record.schema):
            found = schemas.PayloadValidator(record.schema)
            self._validators[key] = found
        return found

    def problems(
        self, adapter_id: str, schema_version: int, schema: dict[str, Any], payload: dict[str, Any]
    ) -> list[dict[str, str]]:
        """What the version's schema finds wrong with `payload` (`[{path, message}]`; empty: valid)."""
        record = SchemaRecord(adapter_id, schema_version, schema, is_active=False, updated_at_ms=0)
        try:
            self.validator(record).validate(payload)
        except PayloadInvalid as invalid:
            return invalid.details
        return []

    def policy(self, adapter_id: str, fallback_version: int) -> schemas.AdapterPolicy:
        """The policy of the adapter's active schema (read now), else of `fallback_version`."""
        return self.policy_of(self._store.active_schema(adapter_id), adapter_id, fallback_version)

    def policy_of(
        self, active: SchemaRecord | None, adapter_id: str, fallback_version: int
    ) -> schemas.AdapterPolicy:
        """The policy of the active schema (as read by the caller), else of the case's own version."""
        if active is not None:
            key = (active.adapter_id, active.schema_version)
            known = self._policies.get(key)
            if known is None or known[0] is not active.schema:
                known = (active.schema, schemas.policy_of(active.schema))
                self._policies[key] = known
            return known[1]
        return schemas.policy_of(self.documents(adapter_id, (fallback_version,)).get(fallback_version, {}))

    def documents(self, adapter_id: str, needed: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The adapter's schema documents by version, read from the store only when one of `needed`
        is not known yet (a version missing from the store is read again next time)."""
        known = self._documents.get(adapter_id)
        if known is None or any(version not in known for version in needed):
            known = {r.schema_version: r.schema for r in self._store.list_schemas(adapter_id)}
            self._documents[adapter_id] = known
        return known


_ADAPTER_ID_VALIDATOR = Draft202012Validator(SUBMIT_SCHEMA["properties"]["adapter_id"])


def _check_adapter_id(adapter_id: Any) -> list[dict[str, str]]:
    errors = error_details(list(_ADAPTER_ID_VALIDATOR.iter_errors(adapter_id)))
    return [{"path": "$.adapter_id", "message": d["message"]} for d in errors]


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaInvalid(
            [{"path": "$", "message": f"schema_json is not JSON: {exc.msg} at {exc.pos}"}]
        ) from exc
