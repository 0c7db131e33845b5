"""How a case reads to an operator: the adapter's packaged view spec labels payload fields and says
when approving needs a confirmation; a client's provider adds to the view at read time."""

from __future__ import annotations

from typing import Any

import pytest

from caseplatform.model import Case, CaseRecord, CaseState, Principal
from caseplatform.views import build_view, view_spec


def _record(adapter_id: str, priority: str = "normal", title: str = "A case") -> CaseRecord:
    case = Case(
        case_id="HITL-1",
        schema_version=1,
        adapter_id=adapter_id,
        case_type="step",
        title=title,
        summary="s",
        payload={},
        payload_hash_sha256="0" * 64,
        submitter=Principal("memo", "agent"),
        priority=priority,  # type: ignore[arg-type]
        confidence=None,
        created_at_ms=1,
        updated_at_ms=1,
    )
    return CaseRecord(case, CaseState("HITL-1", "pending", 1))


LGV = {
    "symptom": "stops at dock 3",
    "site": "Plant Haifa",
    "lgv_id": "LGV-07",
    "services_checked": ["nav-service", {"name": "fleet"}],
    "proposed_next_action": "Reload the map",
    "count": 3,
}


def test_sections_follow_the_spec_and_skip_absent_fields() -> None:
    view = build_view(_record("lgv_troubleshooting"), LGV)
    assert view["sections"] == [
        {"label": "Symptom", "value": "stops at dock 3"},
        {"label": "Site", "value": "Plant Haifa"},
        {"label": "Vehicle", "value": "LGV-07"},
        {"label": "Services checked", "value": ["nav-service", '{"name": "fleet"}']},
        {"label": "Proposed next action", "value": "Reload the map"},
    ]
    assert (view["items"], view["context"], view["confirm"]) == ([], None, None)


@pytest.mark.parametrize(
    ("priority", "confirm"), [("normal", None), ("high", "Run on LGV-07 at Plant Haifa: Reload the map")]
)
def test_a_risky_priority_needs_a_confirmation_naming_what_runs(priority: str, confirm: str | None) -> None:
    assert build_view(_record("lgv_troubleshooting", priority), LGV)["confirm"] == confirm


@pytest.mark.parametrize(
    ("action", "confirm"),
    [("delete_reminders", "Delete 12 reminders"), ("clear_list", "Delete 12 reminders"), ("create", None)],
)
def test_a_risky_action_needs_a_confirmation(action: str, confirm: str | None) -> None:
    payload = {"action": action, "summary": "Delete 12 reminders", "rule": "deletes are reviewed"}
    view = build_view(_record("memo_operation"), payload)
    assert view["confirm"] == confirm
    assert view["sections"] == [
        {"label": "What Memo will do", "value": "Delete 12 reminders"},
        {"label": "Policy rule", "value": "deletes are reviewed"},
    ]


def test_a_confirmation_with_a_missing_field_shows_a_question_mark() -> None:
    view = build_view(_record("lgv_troubleshooting", "critical"), {"lgv_id": "LGV-07"})
    assert view["confirm"] == "Run on LGV-07 at ?: ?"


def test_an_adapter_without_a_spec_has_an_empty_view() -> None:
    assert view_spec("no_such_adapter") == {}
    assert build_view(_record("no_such_adapter", "critical"), LGV) == {
        "sections": [],
        "items": [],
        "context": None,
        "confirm": None,
    }


def test_a_provider_adds_to_the_view_of_its_adapter_only() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    def provider(record: CaseRecord, payload: dict[str, Any]) -> dict[str, Any]:
        seen.append((record.case.case_id, payload))
        return {
            "sections": [{"label": "Affected", "value": "12 reminders"}],
            "items": [{"id": "r1"}],
            "context": {"chat": "x"},
            "confirm": "Delete 12 reminders of +972…567",
        }

    providers = {"memo_operation": provider}
    payload = {"action": "create", "summary": "Add one"}
    view = build_view(_record("memo_operation"), payload, providers)
    assert seen == [("HITL-1", payload)]
    assert view["sections"][-1] == {"label": "Affected", "value": "12 reminders"}
    assert (view["items"], view["context"], view["confirm"]) == (
        [{"id": "r1"}],
        {"chat": "x"},
        "Delete 12 reminders of +972…567",
    )
    assert build_view(_record("lgv_troubleshooting"), LGV, providers)["items"] == []
    assert len(seen) == 1


def test_a_provider_with_nothing_to_add_keeps_the_spec_view() -> None:
    payload = {"action": "delete", "summary": "Delete 1 reminder"}
    plain = build_view(_record("memo_operation"), payload)
    assert build_view(_record("memo_operation"), payload, {"memo_operation": lambda r, p: None}) == plain
    assert (
        build_view(_record("memo_operation"), payload, {"memo_operation": lambda r, p: {"items": []}})[
            "confirm"
        ]
        == "Delete 1 reminder"
    )  # an addition without a confirmation keeps the spec's
