"""The escalation sweep on SQLite and DynamoDB (moto): cases past their adapter's clarification SLA
escalate once per due time (and again at the re-escalation interval), notified through a `Notifier`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from caseplatform.escalation import EscalationNotice, JsonLinesSink, case_link, past_sla, sweep
from caseplatform.service import CaseService
from tests.integration.caseplatform.steps import ask, reply
from tests.unit.caseplatform.factories import DAY_MS, T0, FakeClock, submit

REVIEW_URL = "https://api.example.com/review/"


class Recording:
    """A notifier that remembers what it was told (and refuses the cases in `down`)."""

    def __init__(self, down: frozenset[str] = frozenset()) -> None:
        self.down = down
        self.told: list[EscalationNotice] = []

    def notify(self, notice: EscalationNotice) -> None:
        if notice.case_id in self.down:
            raise ConnectionError("mail relay down")
        self.told.append(notice)


def _notice(**overrides: Any) -> EscalationNotice:
    fields: dict[str, Any] = {
        "event_id": "HEV-1",
        "case_id": "HITL-1",
        "adapter_id": "lgv_troubleshooting",
        "case_type": "incident",
        "title": "LGV-07 stops at dock 3",
        "priority": "normal",
        "target": "lgv-support-tier2",
        "escalated_at_ms": T0,
        "next_escalation_at_ms": None,
        "link": None,
    }
    return EscalationNotice(**{**fields, **overrides})


def test_backlog_and_escalation_sweep(service: CaseService, clock: FakeClock) -> None:
    case_id = submit(service)
    ask(service, case_id)
    state = service.get_case(case_id).record.state
    assert state.needs_clarification_since_ms == T0
    assert state.escalation_due_at_ms == T0 + 30 * DAY_MS  # lgv_troubleshooting: 30 calendar days

    clock.advance(10 * DAY_MS)
    backlog = service.clarification_backlog()
    assert [(r.case.case_id, age) for r, age in backlog.items] == [(case_id, 10 * DAY_MS)]
    assert service.escalations_due().items == []
    assert [s.case_id for s in service.escalations_due(within_ms=21 * DAY_MS).items] == [case_id]
    assert sweep(service).escalated == []

    clock.advance(20 * DAY_MS)
    assert [s.case_id for s in service.escalations_due().items] == [case_id]
    result = sweep(service)
    assert [e.case_id for e in result.escalated] == [case_id]
    assert sweep(service).escalated == []  # nothing due until the re-escalation interval passes
    state = service.get_case(case_id).record.state
    assert state.current_state == "needs_clarification"
    assert state.escalated_at_ms == T0 + 30 * DAY_MS
    assert state.escalation_target == "lgv-support-tier2"
    assert state.escalation_due_at_ms == T0 + 37 * DAY_MS
    escalation = service.get_case_history(case_id)[-1]
    assert (escalation.event_type, escalation.actor.kind) == ("escalated", "system")

    clock.advance(7 * DAY_MS)
    assert len(sweep(service).escalated) == 1  # re-escalation
    reply(service, case_id)
    state = service.get_case(case_id).record.state
    assert (state.current_state, state.escalation_due_at_ms, state.needs_clarification_since_ms) == (
        "pending",
        None,
        None,
    )
    clock.advance(100 * DAY_MS)
    assert sweep(service).escalated == []


def test_business_day_sla_from_adapter_policy(service: CaseService, clock: FakeClock) -> None:
    schema = {"type": "object", "x-hitl": {"clarification_sla_days": 2, "sla_clock": "business"}}
    service.register_adapter_schema("it_ops", 1, schema)
    service.activate_adapter_schema("it_ops", 1)
    clock.now = 1_700_179_200_000  # Friday 2023-11-17 00:00 UTC
    case_id = submit(service, adapter_id="it_ops", payload={})
    ask(service, case_id)
    # Friday + 2 business days = Tuesday 00:00
    assert service.get_case(case_id).record.state.escalation_due_at_ms == 1_700_179_200_000 + 4 * DAY_MS
    clock.advance(4 * DAY_MS)
    escalated = sweep(service).escalated
    assert [e.escalation_target for e in escalated] == ["adapter-owners"]
    assert escalated[0].escalation_due_at_ms is None  # no re-escalation interval configured
    assert service.escalations_due(within_ms=1000 * DAY_MS).items == []


def test_each_escalation_is_notified_once_with_its_link(service: CaseService, clock: FakeClock) -> None:
    waiting = submit(service, title="LGV-07 stops at dock 3", priority="high")
    ask(service, waiting)
    notifier = Recording()
    clock.advance(30 * DAY_MS)
    result = sweep(service, notifier=notifier, link=case_link(REVIEW_URL))
    assert [n.case_id for n in result.notified] == [waiting]
    notice = notifier.told[0]
    assert (notice.event_id, notice.target) == (result.escalated[0].event_id, "lgv-support-tier2")
    assert notice.link == f"{REVIEW_URL}#case={waiting}"
    assert notice.next_escalation_at_ms == T0 + 37 * DAY_MS
    assert notice.subject == "[HITL high] escalated: LGV-07 stops at dock 3"
    assert sweep(service, notifier=notifier).notified == []  # nothing new is due
    assert len(notifier.told) == 1


def test_a_failing_channel_is_reported_and_the_sweep_goes_on(service: CaseService, clock: FakeClock) -> None:
    waiting, answered = submit(service), submit(service)
    ask(service, waiting)
    ask(service, answered)
    notifier = Recording(down=frozenset({waiting}))
    clock.advance(30 * DAY_MS + 1)
    result = sweep(service, notifier=notifier)
    assert result.failed_notifications == [waiting]
    assert [n.case_id for n in notifier.told] == [answered]
    assert {e.case_id for e in result.escalated} == {waiting, answered}  # both events were written


def test_a_sweep_checks_at_most_max_cases(service: CaseService, clock: FakeClock) -> None:
    cases = [submit(service) for _ in range(3)]
    for case_id in cases:
        ask(service, case_id)
    clock.advance(30 * DAY_MS)
    first = sweep(service, max_cases=2)
    assert (first.checked, len(first.escalated)) == (2, 2)
    rest = sweep(service, max_cases=2)
    assert (rest.checked, len(rest.escalated)) == (1, 1)
    assert {e.case_id for e in first.escalated + rest.escalated} == set(cases)


def test_past_sla_counts_due_and_escalated_unresolved_cases(service: CaseService, clock: FakeClock) -> None:
    due, answered = submit(service), submit(service)
    ask(service, due)
    ask(service, answered)
    submit(service)  # pending: never counted
    assert past_sla(service) == 0
    clock.advance(30 * DAY_MS)
    assert past_sla(service) == 2  # due, not escalated yet
    sweep(service)
    assert past_sla(service) == 2  # escalated, still unresolved
    reply(service, answered)
    assert past_sla(service) == 1
    assert past_sla(service, now_ms=T0) == 1  # escalated counts whatever the time


def test_the_notice_text_stays_a_valid_sns_subject() -> None:
    notice = _notice(
        title="מחיקת 12 תזכורות\nand a very long title " + "x" * 200, priority="high", target=None
    )
    subject = notice.subject
    assert len(subject) <= 100 and subject.isascii() and "\n" not in subject
    assert "its adapter owners" in notice.text and "Open it" not in notice.text


def test_the_notice_text_names_the_link_and_the_next_escalation() -> None:
    notice = _notice(link=f"{REVIEW_URL}#case=HITL-1", next_escalation_at_ms=T0 + 7 * DAY_MS)
    assert notice.text.splitlines() == [
        "Case HITL-1 (lgv_troubleshooting, priority normal) has waited for a clarification past its SLA"
        " and is escalated to lgv-support-tier2 (2023-11-14 22:13 UTC).",
        "Title: LGV-07 stops at dock 3",
        f"Open it: {REVIEW_URL}#case=HITL-1",
        "It is escalated again on 2023-11-21 22:13 UTC if still unresolved.",
    ]
    assert notice.to_dict()["subject"] == notice.subject and notice.to_dict()["case_id"] == "HITL-1"


def test_the_json_lines_sink_writes_each_event_once(tmp_path: Path) -> None:
    sink = JsonLinesSink(tmp_path / "nested" / "escalations.jsonl")
    assert sink.read() == []  # no file yet
    sink.notify(_notice())
    sink.notify(_notice())  # the same escalation again
    sink.notify(_notice(event_id="HEV-2"))
    lines = (tmp_path / "nested" / "escalations.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["event_id"] for line in lines] == ["HEV-1", "HEV-2"]
    assert sink.read()[0] == _notice().to_dict()


def test_case_link_without_a_base_url_is_none() -> None:
    assert case_link(None)("HITL-1") is None
    assert case_link("")("HITL-1") is None
    assert case_link(REVIEW_URL)("HITL-1") == f"{REVIEW_URL}#case=HITL-1"
