"""Escalation tiers on both stores (moto for DynamoDB): pending cases reassigned to the tier they
reached, by the adapter's or the submitter team's policy, once per tier, never back down, never a
case that is no longer pending; the events keep the projection the fold of the events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from caseplatform.errors import SchemaInvalid
from caseplatform.escalation import JsonLinesSink, case_link
from caseplatform.governance.tiers import sweep_tiers
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from memo.aws.clients import reset_clients
from memo.wiring import reset_runtime
from memo.wiring.escalation import EscalationRuntime
from tests.integration.caseplatform.conftest import create_cases_table
from tests.integration.caseplatform.test_escalation_handler import _Context, _load_handler
from tests.unit.caseplatform.factories import AGENT, OPERATOR, T0, FakeClock, submit

MINUTE_MS = 60 * 1000
POLICY: dict[str, Any] = {
    "escalation_tiers": [
        {"after_minutes": 240, "target": "ops-tier3"},  # listed out of order: sorted by time
        {"after_minutes": 60, "target": "ops-tier2"},
    ],
    "team_escalation_tiers": {"night-shift": [{"after_minutes": 15, "target": "night-lead"}]},
}


def _it_ops(service: CaseService, policy: dict[str, Any] = POLICY) -> None:
    service.register_adapter_schema("it_ops", 1, {"type": "object", "x-hitl": policy})
    service.activate_adapter_schema("it_ops", 1)


def _submit(service: CaseService, team: str | None = None) -> str:
    return submit(service, adapter_id="it_ops", payload={"host": "db1"}, submitter={**AGENT, "team": team})


def _targets(service: CaseService, case_id: str) -> list[str | None]:
    return [e.escalation_target for e in service.get_case_history(case_id) if e.event_type == "escalated"]


def test_cases_climb_their_tiers_once_each(service: CaseService, clock: FakeClock, tmp_path: Path) -> None:
    _it_ops(service)
    plain, night = _submit(service), _submit(service, team="night-shift")
    sink = JsonLinesSink(tmp_path / "notices.jsonl")

    def run(minutes: int) -> list[str]:
        clock.now = T0 + minutes * MINUTE_MS
        result = sweep_tiers(service, notifier=sink, link=case_link("http://x/review/"))
        return [e.case_id for e in result.reassigned]

    assert run(14) == []
    assert run(15) == [night]  # the team's own tier
    assert run(59) == []
    assert run(60) == [plain]
    assert run(61) == []  # each tier once
    assert run(240) == [plain]
    assert run(10_000) == []  # the last tier is the last
    assert _targets(service, plain) == ["ops-tier2", "ops-tier3"]
    assert _targets(service, night) == ["night-lead"]
    assert service.get_record(plain).state.escalation_target == "ops-tier3"
    notices = sink.read()
    assert [(n["case_id"], n["target"]) for n in notices] == [
        (night, "night-lead"),
        (plain, "ops-tier2"),
        (plain, "ops-tier3"),
    ]
    assert "waited 60 minutes for a decision" in notices[1]["text"]
    assert notices[1]["link"] == f"http://x/review/#case={plain}"
    assert service.check_drift().drifted is False


def test_a_case_past_two_tiers_goes_straight_to_the_second_and_stays(
    service: CaseService, clock: FakeClock
) -> None:
    _it_ops(service)
    case_id = _submit(service)
    clock.now = T0 + 300 * MINUTE_MS
    sweep_tiers(service)
    sweep_tiers(service)
    assert _targets(service, case_id) == ["ops-tier3"]


def test_only_pending_cases_are_reassigned(service: CaseService, clock: FakeClock) -> None:
    _it_ops(service)
    asked, decided, other_adapter = _submit(service), _submit(service), submit(service)
    service.request_clarification(
        case_id=asked, question="Which host?", notes="", actor=OPERATOR, request_id="q"
    )
    service.record_decision(case_id=decided, decision="rejected", notes="", actor=OPERATOR, request_id="d")
    clock.now = T0 + 1000 * MINUTE_MS
    result = sweep_tiers(service)
    assert (result.checked, result.reassigned) == (1, [])  # lgv_troubleshooting has no tiers
    assert _targets(service, other_adapter) == []


def test_max_cases_bounds_the_reassignments_of_a_run_and_the_next_goes_on(
    service: CaseService, clock: FakeClock
) -> None:
    _it_ops(service)
    ids = [_submit(service) for _ in range(3)]
    clock.now = T0 + 60 * MINUTE_MS
    first = sweep_tiers(service, max_cases=2)
    assert len(first.reassigned) == 2  # at the limit
    second = sweep_tiers(service, max_cases=2)
    assert (second.checked, len(second.reassigned)) == (3, 1)  # the two done cost no write
    assert sorted(e.case_id for e in [*first.reassigned, *second.reassigned]) == sorted(ids)
    assert sweep_tiers(service, max_cases=2).reassigned == []


@pytest.mark.parametrize(
    "policy",
    [
        {"escalation_tiers": [{"after_minutes": 0, "target": "t"}]},
        {"escalation_tiers": [{"after_minutes": 5}]},
        {"escalation_tiers": [{"after_minutes": 5, "target": ""}]},
        {"team_escalation_tiers": {"a": [{"after_minutes": 5, "target": "t", "extra": 1}]}},
    ],
)
def test_a_tier_policy_it_cannot_follow_is_refused(service: CaseService, policy: dict[str, Any]) -> None:
    with pytest.raises(SchemaInvalid):
        _it_ops(service, policy)


def test_the_escalation_lambda_reassigns_on_its_hourly_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Through the handler on moto, as the schedule invokes it: the tiers run with the sweep, each
    reassignment is in the answer and in the notices sink, once."""
    monkeypatch.setenv("CASES_TABLE_NAME", "hitl-cases-tiers")
    monkeypatch.setenv("HITL_ESCALATION_SINK", str(tmp_path / "notices.jsonl"))
    with mock_aws():
        module = _load_handler()
        reset_clients()
        reset_runtime(EscalationRuntime)
        try:
            client = boto3.client("dynamodb", region_name="us-east-1")
            create_cases_table(client, "hitl-cases-tiers")
            seeding = CaseService(DynamoCaseStore("hitl-cases-tiers", client), clock=FakeClock())
            seeding.ensure_default_adapters()
            _it_ops(seeding)
            waiting = _submit(seeding)  # submitted at T0: long past both tiers by the process clock

            first: dict[str, Any] = module.handler({"source": "aws.events"}, _Context())
            second: dict[str, Any] = module.handler({"source": "aws.events"}, _Context())
        finally:
            reset_runtime(EscalationRuntime)
            reset_clients()
    assert (first["reassigned"], first["notified"], first["escalated"]) == ([waiting], [waiting], [])
    assert (second["reassigned"], second["notified"]) == ([], [])
    assert [n["target"] for n in JsonLinesSink(tmp_path / "notices.jsonl").read()] == ["ops-tier3"]
