"""The DynamoDB store's schema registry: a version is stored once, the active pointer moves in one
transaction, and the active schema a decision reads is served from the cache once read."""

from __future__ import annotations

import pytest

from caseplatform.errors import AdapterNotFound, SchemaVersionExists, SchemaVersionNotFound
from caseplatform.model import SchemaRecord
from caseplatform.stores.dynamodb import DynamoCaseStore

DOCUMENT = {"type": "object", "properties": {"site": {"type": "string"}}}


def test_a_version_is_stored_once_and_a_different_document_under_it_is_refused(
    dynamo_store: DynamoCaseStore,
) -> None:
    stored = dynamo_store.put_schema(SchemaRecord("a", 1, DOCUMENT, False, 1))
    assert (stored.schema, stored.is_active) == (DOCUMENT, False)
    assert dynamo_store.put_schema(SchemaRecord("a", 1, DOCUMENT, False, 2)).updated_at_ms == 1
    with pytest.raises(SchemaVersionExists):
        dynamo_store.put_schema(SchemaRecord("a", 1, {"type": "object"}, False, 3))


def test_activating_moves_the_pointer_and_answers_the_previous_version(dynamo_store: DynamoCaseStore) -> None:
    with pytest.raises(AdapterNotFound):
        dynamo_store.activate_schema("a", 1, 10)
    for version in (1, 2):
        dynamo_store.put_schema(SchemaRecord("a", version, DOCUMENT, False, 1))
    with pytest.raises(SchemaVersionNotFound):
        dynamo_store.activate_schema("a", 3, 10)
    assert dynamo_store.activate_schema("a", 1, 10) is None
    assert dynamo_store.activate_schema("a", 2, 20) == 1
    assert dynamo_store.activate_schema("a", 2, 30) == 2  # already active: nothing written
    active = dynamo_store.active_schema("a")
    assert active is not None
    assert (active.schema_version, active.updated_at_ms) == (2, 20)
    assert [(r.schema_version, r.is_active) for r in dynamo_store.list_schemas("a")] == [
        (1, False),
        (2, True),
    ]


def test_the_decision_schema_is_served_from_the_cache_once_read(dynamo_store: DynamoCaseStore) -> None:
    dynamo_store.put_schema(SchemaRecord("a", 1, DOCUMENT, False, 1))
    dynamo_store.activate_schema("a", 1, 10)
    first = dynamo_store.decision_schema("a")
    assert first is not None
    assert dynamo_store.decision_schema("a") is first  # no read
    assert dynamo_store.decision_schema("unknown") is None
