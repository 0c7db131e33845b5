"""The adapter schema registry on SQLite and DynamoDB (moto): versions register inactive, activate one
at a time, old cases read upcast to the active version and stay processable; refusals by code."""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform.errors import (
    AdapterNotFound,
    EnvelopeInvalid,
    PayloadInvalid,
    SchemaInvalid,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.service import CaseService
from tests.integration.caseplatform.steps import ask, decide, reply
from tests.unit.caseplatform.factories import lgv_payload, submit, submit_args


def _v2_schema(service: CaseService) -> dict[str, Any]:
    schema = dict(service.store.get_schema("lgv_troubleshooting", 1).schema)  # type: ignore[union-attr]
    properties = dict(schema["properties"])
    properties["vehicle_id"] = properties.pop("lgv_id")
    properties["shift"] = {"type": "string"}
    required = [("vehicle_id" if name == "lgv_id" else name) for name in schema["required"]]
    hitl = {
        **schema["x-hitl"],
        "upcast": {"rename": {"lgv_id": "vehicle_id"}, "defaults": {"shift": "unknown"}},
    }
    return {**schema, "properties": properties, "required": required, "x-hitl": hitl}


def test_schema_versions_upcast_old_cases_and_keep_them_processable(service: CaseService) -> None:
    old_case = submit(service)
    ask(service, old_case)
    record = service.register_adapter_schema("lgv_troubleshooting", 2, _v2_schema(service))
    assert record.is_active is False
    _, previous = service.activate_adapter_schema("lgv_troubleshooting", 2)
    assert previous == 1
    assert [(s.schema_version, s.is_active) for s in service.store.list_schemas("lgv_troubleshooting")] == [
        (1, False),
        (2, True),
    ]

    view = service.get_case(old_case)
    assert view.record.case.schema_version == 1
    assert view.read_as_schema_version == 2
    assert view.payload["vehicle_id"] == "LGV-07"
    assert view.payload["shift"] == "unknown"
    assert "lgv_id" not in view.payload
    assert view.record.case.payload["lgv_id"] == "LGV-07"  # stored as written

    # New submissions validate against v2; the in-flight v1 case is still processable.
    with pytest.raises(PayloadInvalid):
        service.submit_case(**submit_args())
    payload = lgv_payload()
    payload["vehicle_id"] = payload.pop("lgv_id")
    new_case = submit(service, payload=payload)
    assert service.get_case(new_case).record.case.schema_version == 2
    reply(service, old_case)
    assert decide(service, old_case).state_after == "approved"


def test_schema_registry_errors(service: CaseService) -> None:
    schema = {"type": "object"}
    service.register_adapter_schema("payments_risk", 1, schema)
    assert service.register_adapter_schema("payments_risk", 1, dict(schema)).schema_version == 1
    with pytest.raises(SchemaVersionExists):
        service.register_adapter_schema("payments_risk", 1, {"type": "object", "required": ["amount"]})
    with pytest.raises(AdapterNotFound):
        service.submit_case(**submit_args(adapter_id="payments_risk"))  # registered, not active
    with pytest.raises(SchemaVersionNotFound):
        service.activate_adapter_schema("payments_risk", 3)
    with pytest.raises(AdapterNotFound):
        service.activate_adapter_schema("it_ops", 1)
    with pytest.raises(SchemaInvalid):
        service.register_adapter_schema("it_ops", 1, {"type": "no-such-type"})
    with pytest.raises(SchemaInvalid):
        service.register_adapter_schema("it_ops", 1, '{"type": "object", "x-hitl": {"sla_clock": "lunar"}}')
    with pytest.raises(SchemaInvalid):
        service.register_adapter_schema("it_ops", 1, "not json")
    service.activate_adapter_schema("payments_risk", 1)
    assert submit(service, adapter_id="payments_risk", payload={"amount": 3}).startswith("HITL-")


@pytest.mark.parametrize(
    ("adapter_id", "version", "path"),
    [
        ("it_ops", 0, "$.schema_version"),
        ("it_ops", True, "$.schema_version"),
        ("it_ops", "2", "$.schema_version"),
        ("IT ops", 1, "$.adapter_id"),
    ],
)
def test_a_bad_adapter_id_or_schema_version_is_refused(
    service: CaseService, adapter_id: Any, version: Any, path: str
) -> None:
    with pytest.raises(EnvelopeInvalid) as refused:
        service.register_adapter_schema(adapter_id, version, {"type": "object"})
    assert [d["path"] for d in refused.value.details] == [path]
    assert service.store.list_schemas("it_ops") == []


def test_an_oversized_schema_text_is_refused(service: CaseService) -> None:
    text = '{"type": "object", "description": "' + "x" * (64 * 1024) + '"}'
    with pytest.raises(SchemaInvalid, match="SCHEMA_INVALID"):
        service.register_adapter_schema("it_ops", 1, text)


def test_default_adapters_are_installed_once(service: CaseService) -> None:
    assert service.registry.ensure_defaults() == []  # the fixture installed them
    versions = {(s.adapter_id, s.schema_version, s.is_active) for s in service.store.list_schemas()}
    assert {("lgv_troubleshooting", 1, True), ("memo_operation", 1, True)} <= versions
