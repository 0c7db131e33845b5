"""The adapter schema registry on SQLite and DynamoDB (moto): versions register inactive, activate one
at a time, old cases read upcast to the active version and stay processable; refusals by code. A
breaking version without an upcaster or a declared migration is refused, naming the change; with
one, cases submitted under the old version are read valid, clarified, decided and exported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from caseplatform import answers
from caseplatform.commands import Approval
from caseplatform.errors import (
    AdapterNotFound,
    EnvelopeInvalid,
    PayloadInvalid,
    SchemaBreakingChange,
    SchemaInvalid,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.export import export_cases
from caseplatform.service import CaseService
from tests.integration.caseplatform.steps import ask, decide, reply
from tests.unit.caseplatform.factories import OPERATOR, lgv_payload, request_id, submit, submit_args


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


# ------------------------------------------------------------------ breaking versions
def _lgv(service: CaseService) -> dict[str, Any]:
    return json.loads(json.dumps(service.store.get_schema("lgv_troubleshooting", 1).schema))  # type: ignore[union-attr]


def _required_shift(schema: dict[str, Any]) -> dict[str, Any]:
    schema["properties"]["shift"] = {"enum": ["day", "night", "unknown"]}
    schema["required"].append("shift")
    return schema


def _lgv_id_removed(schema: dict[str, Any]) -> dict[str, Any]:
    del schema["properties"]["lgv_id"]
    schema["required"].remove("lgv_id")
    return schema


def _evidence_a_string(schema: dict[str, Any]) -> dict[str, Any]:
    schema["properties"]["evidence"] = {"type": "string", "minLength": 1}
    return schema


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_required_shift, "required_added:shift"),
        (_lgv_id_removed, "field_removed:lgv_id"),
        (_evidence_a_string, "type_changed:evidence"),
    ],
)
def test_a_breaking_version_without_an_upcaster_is_refused_and_nothing_is_registered(
    service: CaseService, change: Any, expected: str
) -> None:
    before = service.store.list_schemas("lgv_troubleshooting")
    with pytest.raises(SchemaBreakingChange) as refused:
        service.register_adapter_schema("lgv_troubleshooting", 2, change(_lgv(service)))
    answer = answers.error_answer(refused.value)
    assert (answer["code"], answer["schema_version"], answer["previous_version"]) == (
        "SCHEMA_BREAKING_CHANGE",
        2,
        1,
    )
    assert [c["change"] for c in answer["changes"]] == [expected]
    assert expected.split(":")[1] in answer["message"]
    assert service.store.list_schemas("lgv_troubleshooting") == before
    with pytest.raises(SchemaVersionNotFound):
        service.activate_adapter_schema("lgv_troubleshooting", 2)


def test_a_version_registered_between_two_is_checked_against_the_one_above(service: CaseService) -> None:
    v3 = _lgv(service)
    v3["x-hitl"]["upcast"] = {"drop": ["missing_data"]}
    del v3["properties"]["missing_data"]
    service.register_adapter_schema("lgv_troubleshooting", 3, v3)
    v2 = _required_shift(_lgv(service))
    v2["x-hitl"]["upcast"] = {"defaults": {"shift": "unknown"}}
    with pytest.raises(SchemaBreakingChange) as refused:  # v3 does not know `shift`: it would be dropped
        service.register_adapter_schema("lgv_troubleshooting", 2, v2)
    assert (refused.value.schema_version, refused.value.previous_version) == (3, 2)
    assert [c["change"] for c in refused.value.changes] == ["field_removed:shift"]


def _v2_with_upcaster(service: CaseService) -> dict[str, Any]:
    """Every kind of breaking change, each covered by a rule: `shift` required (a default), `lgv_id`
    renamed `vehicle_id`, `missing_data` removed (dropped), `site` a list of sites (converted)."""
    schema = _required_shift(_lgv(service))
    schema["properties"]["vehicle_id"] = schema["properties"].pop("lgv_id")
    schema["required"] = [("vehicle_id" if name == "lgv_id" else name) for name in schema["required"]]
    del schema["properties"]["missing_data"]
    schema["properties"]["site"] = {"type": "array", "minItems": 1, "items": {"type": "string"}}
    schema["x-hitl"]["upcast"] = {
        "rename": {"lgv_id": "vehicle_id"},
        "drop": ["missing_data"],
        "convert": {"site": "array"},
        "defaults": {"shift": "unknown"},
    }
    return schema


def test_with_an_upcaster_in_flight_cases_are_read_valid_clarified_decided_and_exported(
    service: CaseService, tmp_path: Path
) -> None:
    waiting, pending, edited = submit(service), submit(service), submit(service)
    ask(service, waiting)
    service.register_adapter_schema("lgv_troubleshooting", 2, _v2_with_upcaster(service))
    service.activate_adapter_schema("lgv_troubleshooting", 2)

    view = service.get_case(waiting)
    assert (view.record.case.schema_version, view.read_as_schema_version, view.payload_problems) == (1, 2, ())
    assert view.payload["vehicle_id"] == "LGV-07" and view.payload["shift"] == "unknown"
    assert view.payload["site"] == ["Plant Haifa"]
    assert "missing_data" not in view.payload and "lgv_id" not in view.payload
    assert "payload_problems" not in answers.case_answer(view)["case"]
    assert service.get_record(waiting).case.payload["lgv_id"] == "LGV-07"  # stored as submitted

    reply(service, waiting)
    assert decide(service, waiting).state_after == "approved"
    assert decide(service, pending, "rejected").state_after == "rejected"
    change = {**view.payload, "proposed_next_action": "Swap the nav board"}
    done = service.decide(
        case_id=edited, decision="edit", payload=change, actor=OPERATOR, request_id=request_id("e")
    )
    assert isinstance(done, Approval) and done.event.approved_payload == change

    manifest = export_cases(service, tmp_path, fmt="json")
    documents = {d["case_id"]: d for d in json.loads((tmp_path / "cases.json").read_text())}
    assert manifest["cases"] == 3
    exported = documents[waiting]
    assert (exported["schema_version"], exported["read_as_schema_version"]) == (1, 2)
    assert exported["payload"]["lgv_id"] == "LGV-07" and exported["payload_as_read"]["vehicle_id"] == "LGV-07"


def test_an_old_payload_the_new_version_refuses_is_reported_and_cannot_be_approved_as_it_is(
    service: CaseService,
) -> None:
    case_id = submit(service)
    tighter = _lgv(service)
    tighter["properties"]["site"]["maxLength"] = 5  # a bound: compatible by the rules, yet "Plant Haifa"
    service.register_adapter_schema("lgv_troubleshooting", 2, tighter)
    service.activate_adapter_schema("lgv_troubleshooting", 2)

    view = service.get_case(case_id)
    assert [p["path"] for p in view.payload_problems] == ["$.payload.site"]
    assert answers.case_answer(view)["case"]["payload_problems"] == list(view.payload_problems)
    with pytest.raises(PayloadInvalid) as refused:
        decide(service, case_id)
    assert [d["path"] for d in refused.value.details] == ["$.payload.site"]
    assert service.get_record(case_id).state.current_state == "pending"  # nothing written
    fixed = {**view.payload, "site": "Haifa"}
    done = service.decide(case_id=case_id, decision="edit", payload=fixed, actor=OPERATOR, request_id="fix")
    assert isinstance(done, Approval) and done.event.decision_outcome == "approved"


def test_with_a_declared_migration_older_cases_read_as_their_own_version(service: CaseService) -> None:
    old_case = submit(service)
    v2 = _required_shift(_lgv(service))
    v2["properties"]["site"] = {"enum": ["Haifa", "Ashdod"]}
    v2["x-hitl"]["migration"] = {
        "plan": "cases opened before shifts are decided as they are",
        "accepts": ["required_added:shift", "values_narrowed:site"],
    }
    service.register_adapter_schema("lgv_troubleshooting", 2, v2)
    service.activate_adapter_schema("lgv_troubleshooting", 2)
    view = service.get_case(old_case)
    assert (view.read_as_schema_version, view.payload_problems) == (1, ())
    assert view.payload == service.get_record(old_case).case.payload
    assert decide(service, old_case).state_after == "approved"
    new_case = submit(service, payload=lgv_payload(site="Haifa", shift="day"))
    assert service.get_case(new_case).read_as_schema_version == 2
