"""Adapter schemas: the policy an adapter's `x-hitl` sets (with its defaults), SLA due times on the
calendar and business clocks, the decisions a case allows, schema documents checked before they are
registered, and payloads of older versions read as newer ones."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from caseplatform.errors import PayloadInvalid
from caseplatform.schemas import (
    DAY_MS,
    AdapterPolicy,
    check_schema_document,
    default_adapter_schemas,
    policy_of,
    upcast,
    validate_payload,
)


def _ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


def test_a_schema_without_x_hitl_has_the_default_policy() -> None:
    assert policy_of({"type": "object"}) == AdapterPolicy(
        clarification_sla_days=30,
        sla_clock="calendar",
        escalation_target="adapter-owners",
        reescalation_interval_days=None,
        required_approvers=1,
        allowed_decisions=("approve", "edit", "reject"),  # respond only where an adapter lists it
        always_require_feedback=False,
        enable_feedback_tool=False,
    )


def test_the_policy_is_read_from_x_hitl_in_the_canonical_decision_order() -> None:
    policy = policy_of(
        {
            "x-hitl": {
                "clarification_sla_days": 2,
                "sla_clock": "business",
                "escalation_target": "tier2",
                "reescalation_interval_days": 1,
                "required_approvers": 2,
                "allowed_decisions": ["reject", "approve"],
            }
        }
    )
    assert policy == AdapterPolicy(2, "business", "tier2", 1, 2, ("approve", "reject"))


@pytest.mark.parametrize(
    ("payload", "allowed"),
    [
        ({}, ("approve", "reject")),
        ({"allowed_decisions": ["respond", "reject"]}, ("reject",)),  # respond: not the adapter's
        ({"allowed_decisions": []}, ("approve", "reject")),
        ({"allowed_decisions": ["approve", "shrug"]}, ("approve", "reject")),  # an unknown one: ignored
        ({"allowed_decisions": "approve"}, ("approve", "reject")),
    ],
)
def test_a_payloads_own_allowed_decisions_win_when_valid(
    payload: dict[str, Any], allowed: tuple[str, ...]
) -> None:
    assert AdapterPolicy(allowed_decisions=("approve", "reject")).allowed_for(payload) == allowed


def test_calendar_due_times_and_reescalation() -> None:
    policy = AdapterPolicy(clarification_sla_days=1.5, reescalation_interval_days=7)
    assert policy.due_at(1_000) == 1_000 + 36 * 3600 * 1000
    assert policy.next_escalation_at(1_000) == 1_000 + 7 * DAY_MS
    assert AdapterPolicy().next_escalation_at(1_000) is None


@pytest.mark.parametrize(
    ("start", "days", "due"),
    [
        ("2023-11-17T00:00:00", 2, "2023-11-21T00:00:00"),  # Friday + 2 business days: Tuesday
        ("2023-11-13T09:30:00", 5, "2023-11-20T09:30:00"),  # Monday + 5: the next Monday, same time
        ("2023-11-18T15:00:00", 1, "2023-11-21T00:00:00"),  # Saturday: the clock starts Monday 00:00
        ("2023-11-16T12:00:00", 1.5, "2023-11-18T00:00:00"),  # a fraction is added at the end
    ],
)
def test_business_days_skip_weekends(start: str, days: float, due: str) -> None:
    policy = AdapterPolicy(sla_clock="business")
    assert policy.due_at(_ms(start), days) == _ms(due)


@given(
    start=st.integers(min_value=_ms("2020-01-01T00:00:00"), max_value=_ms("2030-01-01T00:00:00")),
    days=st.integers(min_value=0, max_value=60),
)
def test_whole_business_days_always_end_on_a_weekday_after_the_start(start: int, days: int) -> None:
    due = AdapterPolicy(sla_clock="business").due_at(start, days)
    moment = datetime.fromtimestamp(due / 1000, tz=UTC)
    assert moment.weekday() < 5
    assert due >= start
    assert due - start <= (days + days // 5 * 2 + 4) * DAY_MS


@pytest.mark.parametrize(
    ("schema", "path"),
    [
        ([], "$"),
        ({"type": "no-such-type"}, "$.type"),
        ({"x-hitl": {"sla_clock": "lunar"}}, "$.x-hitl.sla_clock"),
        ({"x-hitl": {"required_approvers": 6}}, "$.x-hitl.required_approvers"),
        ({"x-hitl": {"allowed_decisions": []}}, "$.x-hitl.allowed_decisions"),
        ({"x-hitl": {"colour": "red"}}, "$.x-hitl"),
        ({"x-hitl": {"upcast": {"rename": {"a": 1}}}}, "$.x-hitl.upcast.rename.a"),
    ],
)
def test_a_bad_schema_document_names_the_problem(schema: Any, path: str) -> None:
    assert [p["path"] for p in check_schema_document(schema)] == [path]


def test_the_packaged_adapters_are_valid_documents() -> None:
    adapters = default_adapter_schemas()
    assert {"lgv_troubleshooting", "memo_operation"} <= set(adapters)
    for schema in adapters.values():
        assert check_schema_document(schema) == []


def test_payload_problems_are_under_payload() -> None:
    schema = {"type": "object", "required": ["site"], "properties": {"count": {"type": "integer"}}}
    validate_payload(schema, {"site": "x"})
    with pytest.raises(PayloadInvalid) as refused:
        validate_payload(schema, {"count": "3"})
    assert refused.value.details == [
        {"path": "$.payload", "message": "'site' is a required property"},
        {"path": "$.payload.count", "message": "'3' is not of type 'integer'"},
    ]


def test_upcast_applies_each_version_step_in_turn() -> None:
    versions: dict[int, dict[str, Any]] = {
        2: {"x-hitl": {"upcast": {"rename": {"lgv_id": "vehicle_id"}, "defaults": {"shift": "unknown"}}}},
        3: {"x-hitl": {"upcast": {"drop": ["shift"], "rename": {"vehicle_id": "vehicle"}}}},
        4: {"type": "object"},  # no upcast: older payloads read unchanged
    }
    stored = {"lgv_id": "LGV-07", "site": "Haifa"}
    assert upcast(stored, 1, versions, 2) == {"vehicle_id": "LGV-07", "site": "Haifa", "shift": "unknown"}
    assert upcast(stored, 1, versions, 4) == {"vehicle": "LGV-07", "site": "Haifa"}
    assert upcast({"vehicle_id": "V", "shift": "night"}, 2, versions, 3) == {"vehicle": "V"}
    assert upcast(stored, 1, versions, 1) == stored
    assert stored == {"lgv_id": "LGV-07", "site": "Haifa"}  # the stored payload is not changed


def test_a_default_does_not_overwrite_a_value() -> None:
    versions = {2: {"x-hitl": {"upcast": {"defaults": {"shift": "unknown"}}}}}
    assert upcast({"shift": "night"}, 1, versions, 2) == {"shift": "night"}
