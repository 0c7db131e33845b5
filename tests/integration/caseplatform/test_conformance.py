"""The store conformance suite: the same behaviour on SQLite and on DynamoDB (moto)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from caseplatform import answers
from caseplatform.errors import (
    AdapterNotFound,
    AlreadyTerminal,
    AnswerRequired,
    CaseNotFound,
    CasePlatformError,
    EnvelopeInvalid,
    IdempotencyConflict,
    InvalidCursor,
    InvalidStateTransition,
    PayloadInvalid,
    QuestionRequired,
    SchemaInvalid,
    SchemaVersionExists,
    SchemaVersionNotFound,
)
from caseplatform.escalation import sweep
from caseplatform.ports import CaseStore
from caseplatform.service import CaseService
from tests.unit.caseplatform.factories import (
    AGENT,
    DAY_MS,
    OPERATOR,
    OTHER_OPERATOR,
    T0,
    FakeClock,
    lgv_payload,
    request_id,
    submit,
    submit_args,
)


def ask(
    service: CaseService, case_id: str, question: str = "Which reflector map version is loaded?", **kw: Any
):
    return service.request_clarification(
        case_id=case_id,
        question=question,
        notes="need the map version",
        actor=AGENT,
        request_id=kw.pop("rid", request_id()),
    )


def reply(service: CaseService, case_id: str, answer: str = "v12", **kw: Any):
    return service.provide_clarification(
        case_id=case_id, answer=answer, notes="", actor=OPERATOR, request_id=kw.pop("rid", request_id())
    )


def decide(service: CaseService, case_id: str, decision: str = "approved", **kw: Any):
    return service.record_decision(
        case_id=case_id,
        decision=decision,
        notes=kw.pop("notes", "looks right"),
        actor=kw.pop("actor", OPERATOR),
        request_id=kw.pop("rid", request_id()),
    )


def answer_of(call: Any) -> dict[str, Any]:
    try:
        result = call()
    except CasePlatformError as error:
        return answers.error_answer(error)
    return answers.transition_answer(result)


# ---------------------------------------------------------------------------- the seed's flow
def test_submit_clarify_answer_approve_flow(service: CaseService, clock: FakeClock) -> None:
    case_id = submit(service)
    clock.advance(1000)
    assert ask(service, case_id).state_after == "needs_clarification"
    clock.advance(1000)
    assert reply(service, case_id).state_after == "pending"
    clock.advance(1000)
    assert decide(service, case_id).state_after == "approved"

    history = service.get_case_history(case_id)
    assert [e.event_type for e in history] == [
        "submitted",
        "needs_clarification",
        "clarification_provided",
        "decision_recorded",
    ]
    assert [e.created_at_ms for e in history] == [T0, T0 + 1000, T0 + 2000, T0 + 3000]
    view = service.get_case(case_id)
    assert view.record.state.current_state == "approved"
    assert view.record.state.active_terminal_event_id == history[-1].event_id
    assert view.record.state.active_decision_outcome == "approved"
    assert view.record.state.needs_clarification_since_ms is None
    assert view.payload == lgv_payload()
    assert [r.ref_value for r in view.refs] == ["LGV-07"]
    assert history[-1].actor.id == "op:dana"


def test_reject_from_needs_clarification(service: CaseService) -> None:
    case_id = submit(service)
    ask(service, case_id)
    assert decide(service, case_id, "rejected").state_after == "rejected"
    assert service.get_case(case_id).record.state.current_state == "rejected"


# ---------------------------------------------------------------------------- error codes
def test_unknown_adapter_is_adapter_not_found(service: CaseService) -> None:
    with pytest.raises(AdapterNotFound) as caught:
        service.submit_case(**submit_args(adapter_id="payments_risk"))
    assert answers.error_answer(caught.value)["code"] == "ADAPTER_NOT_FOUND"


def test_payload_invalid_lists_every_problem(service: CaseService) -> None:
    payload = lgv_payload(evidence=[], unexpected="x")
    del payload["site"]
    with pytest.raises(PayloadInvalid) as caught:
        service.submit_case(**submit_args(payload=payload))
    answer = answers.error_answer(caught.value)
    assert answer["status"] == "error"
    assert answer["code"] == "PAYLOAD_INVALID"
    paths = [d["path"] for d in answer["details"]]
    assert "$.payload.evidence" in paths
    assert "$.payload" in paths  # the missing `site` and the unexpected property
    assert len(answer["details"]) == 3
    assert list(service.store.iter_case_ids()) == []


def test_oversized_payload_is_refused(service: CaseService) -> None:
    with pytest.raises(PayloadInvalid) as caught:
        service.submit_case(**submit_args(payload=lgv_payload(evidence=["x" * 2000] * 40)))
    assert any("limit" in d["message"] for d in caught.value.details)


def test_envelope_bounds_are_checked(service: CaseService) -> None:
    with pytest.raises(EnvelopeInvalid) as caught:
        service.submit_case(**submit_args(title="t" * 201, priority="urgent", submitter={"name": "x"}))
    paths = {d["path"] for d in caught.value.details}
    assert paths == {"$.title", "$.priority", "$.submitter"}


def test_unknown_case_is_not_found(service: CaseService) -> None:
    missing = "HITL-00000000-0000-4000-8000-000000000000"
    with pytest.raises(CaseNotFound) as caught:
        service.get_case(missing)
    assert answers.error_answer(caught.value) == {"status": "not_found", "case_id": missing}
    with pytest.raises(CaseNotFound):
        decide(service, missing)


def test_invalid_transition_reports_state_and_action_and_writes_nothing(service: CaseService) -> None:
    case_id = submit(service)
    before = service.get_case(case_id).record.state
    answer = answer_of(lambda: reply(service, case_id))
    assert answer == {
        "status": "error",
        "code": "INVALID_STATE_TRANSITION",
        "message": "provide_clarification is not allowed from pending",
        "from_state": "pending",
        "requested_action": "provide_clarification",
    }
    assert len(service.get_case_history(case_id)) == 1
    assert service.get_case(case_id).record.state == before


@pytest.mark.parametrize("decision", ["approved", "rejected"])
def test_terminal_cases_accept_no_other_transition(service: CaseService, decision: str) -> None:
    case_id = submit(service)
    decide(service, case_id, decision)
    for call, action in ((ask, "request_clarification"), (reply, "provide_clarification")):
        with pytest.raises(InvalidStateTransition) as caught:
            call(service, case_id)
        assert (caught.value.from_state, caught.value.requested_action) == (decision, action)
    assert len(service.get_case_history(case_id)) == 2


def test_first_terminal_decision_wins(service: CaseService) -> None:
    case_id = submit(service)
    first = decide(service, case_id, "approved")
    with pytest.raises(AlreadyTerminal) as caught:
        decide(service, case_id, "rejected", actor=OTHER_OPERATOR)
    answer = answers.error_answer(caught.value)
    assert answer["code"] == "ALREADY_TERMINAL"
    assert answer["existing_decision"]["event_id"] == first.event_id
    assert answer["existing_decision"]["decision"] == "approved"
    assert answer["existing_decision"]["actor"]["id"] == "op:dana"
    assert service.get_case(case_id).record.state.current_state == "approved"
    assert [e.event_type for e in service.get_case_history(case_id)].count("decision_recorded") == 1


def test_question_and_answer_are_required(service: CaseService) -> None:
    case_id = submit(service)
    for question in (None, "", "   "):
        with pytest.raises(QuestionRequired):
            service.request_clarification(
                case_id=case_id, question=question, notes="", actor=AGENT, request_id="q"
            )
    ask(service, case_id)
    for answer in (None, "", "\n"):
        with pytest.raises(AnswerRequired):
            service.provide_clarification(
                case_id=case_id, answer=answer, notes="", actor=OPERATOR, request_id="a"
            )
    assert [e.event_type for e in service.get_case_history(case_id)] == ["submitted", "needs_clarification"]


def test_same_open_question_again_is_a_no_op_and_refused(service: CaseService, clock: FakeClock) -> None:
    case_id = submit(service)
    ask(service, case_id, "Which map version?")
    since = service.get_case(case_id).record.state.needs_clarification_since_ms
    with pytest.raises(InvalidStateTransition) as caught:
        ask(service, case_id, "Which map version?")
    assert caught.value.from_state == "needs_clarification"
    clock.advance(5000)
    revision = ask(service, case_id, "Which map version, and when was it loaded?")
    assert revision.event_type == "needs_clarification"
    state = service.get_case(case_id).record.state
    assert state.needs_clarification_since_ms == since  # a revision keeps the SLA clock
    assert state.updated_at_ms == T0 + 5000


# ---------------------------------------------------------------------------- idempotency
def test_retry_returns_the_first_answer_even_after_the_case_moved_on(service: CaseService) -> None:
    case_id = submit(service)
    first = answer_of(lambda: ask(service, case_id, rid="ask-1"))
    reply(service, case_id)
    decide(service, case_id, rid="decide-1")
    assert answer_of(lambda: ask(service, case_id, rid="ask-1")) == first
    retried = answer_of(lambda: decide(service, case_id, rid="decide-1"))
    assert retried["status"] == "success"
    assert retried["decision"] == "approved"
    assert len(service.get_case_history(case_id)) == 4


def test_request_id_with_a_different_payload_is_a_conflict(service: CaseService) -> None:
    case_id = submit(service)
    decide(service, case_id, "approved", rid="d-1")
    answer = answer_of(lambda: decide(service, case_id, "rejected", rid="d-1"))
    assert answer["code"] == "IDEMPOTENCY_CONFLICT"
    assert answer["request_id"] == "d-1"
    with pytest.raises(IdempotencyConflict):
        decide(service, case_id, "approved", rid="d-1", notes="different notes")


def test_submit_is_idempotent_globally(service: CaseService) -> None:
    args = submit_args(request_id="submit-once")
    first_event, _ = service.submit_case(**args)
    again_event, again_case = service.submit_case(**args)
    assert again_event == first_event
    assert again_case.case_id == first_event.case_id
    assert list(service.store.iter_case_ids()) == [first_event.case_id]
    with pytest.raises(IdempotencyConflict):
        service.submit_case(**{**args, "title": "another title"})


def test_request_ids_are_scoped_per_case(service: CaseService) -> None:
    one, two = submit(service), submit(service)
    decide(service, one, rid="same-id")
    assert decide(service, two, "rejected", rid="same-id").state_after == "rejected"


# ---------------------------------------------------------------------------- schema registry
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


# ---------------------------------------------------------------------------- queries
def test_list_cases_pages_through_everything_newest_first(service: CaseService, clock: FakeClock) -> None:
    created = []
    for index in range(7):
        clock.advance(10)
        created.append(submit(service, priority="high" if index % 2 else "low"))
    seen, cursor = [], None
    while True:
        page = service.list_cases(limit=3, cursor=cursor)
        assert len(page.items) <= 3
        seen.extend(r.case.case_id for r in page.items)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert seen == list(reversed(created))
    high = service.list_cases(priority="high", limit=2)
    assert [r.case.case_id for r in high.items] == [created[5], created[3]]
    rest = service.list_cases(priority="high", limit=2, cursor=high.next_cursor)
    assert [r.case.case_id for r in rest.items] == [created[1]]
    assert rest.next_cursor is None
    decide(service, created[0])
    assert [r.case.case_id for r in service.list_cases(state="approved", limit=10).items] == [created[0]]
    assert service.list_cases(adapter_id="other_adapter", limit=10).items == []
    with pytest.raises(InvalidCursor):
        service.list_cases(limit=3, cursor="%%%")


def test_empty_queue(service: CaseService) -> None:
    answer = answers.items_answer(service.list_review_queue(), answers.case_summary)
    assert answer == {"status": "success", "count": 0, "items": [], "next_cursor": None}


def test_review_queue_is_most_urgent_then_oldest_first(service: CaseService, clock: FakeClock) -> None:
    low = submit(service, priority="low")
    clock.advance(1)
    critical = submit(service, priority="critical")
    clock.advance(1)
    normal_old = submit(service, priority="normal")
    clock.advance(1)
    normal_new = submit(service, priority="normal")
    ask(service, normal_new)
    done = submit(service, priority="critical")
    decide(service, done)
    queue = [r.case.case_id for r in service.list_review_queue()]
    assert queue == [critical, normal_old, normal_new, low]
    assert [r.case.case_id for r in service.list_review_queue(state="needs_clarification")] == [normal_new]
    assert [r.case.case_id for r in service.list_review_queue(priority="low")] == [low]
    assert len(service.list_review_queue(limit=2)) == 2


def test_reviewed_audit_principal_ref_payload_and_stats(service: CaseService, clock: FakeClock) -> None:
    a = submit(service, refs=[{"ref_type": "ticket", "ref_key": "jira", "ref_value": "OPS-1"}])
    b = submit(service, payload=lgv_payload(lgv_id="LGV-09"))
    c = submit(service)
    clock.advance(DAY_MS)
    decide(service, a, "approved")
    decide(service, b, "rejected", actor=OTHER_OPERATOR)
    clock.advance(DAY_MS)
    ask(service, c)

    approved = service.list_reviewed(decision="approved")
    assert [(e.case_id, r.case.title) for e, r in approved.items] == [
        (a, "LGV-07 navigation fault at dock 3")
    ]
    all_reviewed = service.list_reviewed(from_ms=T0, to_ms=T0 + 2 * DAY_MS)
    assert {e.case_id for e, _ in all_reviewed.items} == {a, b}
    assert service.list_reviewed(from_ms=T0, to_ms=T0 + DAY_MS).items == []

    audit = service.audit_decisions()
    assert {(e.case_id, e.actor.principal, e.decision_outcome) for e in audit.items} == {
        (a, "op:dana", "approved"),
        (b, "op:omer", "rejected"),
    }
    dana = service.list_by_principal("op:dana")
    assert [(e.case_id, e.event_type) for e in dana.items] == [(a, "decision_recorded")]
    agent_events = service.list_by_principal("agent:lgv", from_ms=T0 + DAY_MS)
    assert [(e.case_id, e.event_type) for e in agent_events.items] == [(c, "needs_clarification")]

    assert service.cases_by_ref("ticket", "jira", "OPS-1").items == [a]
    assert sorted(service.cases_by_ref("neo4j_node", "lgv_id", "LGV-07").items) == sorted([b, c])
    by_field = service.cases_by_payload_field("lgv_troubleshooting", "lgv_id", "LGV-09")
    assert [r.case.case_id for r in by_field.items] == [b] and by_field.next_cursor is None

    buckets = service.decision_stats(from_ms=T0, to_ms=T0 + 3 * DAY_MS)
    assert [(x.submitted, x.approved, x.rejected) for x in buckets] == [(3, 0, 0), (0, 1, 1), (0, 0, 0)]
    assert buckets[1].approval_rate == 0.5
    assert buckets[0].approval_rate is None


def test_principal_and_ref_queries_paginate(service: CaseService, clock: FakeClock) -> None:
    cases = []
    for _ in range(5):
        clock.advance(1)
        cases.append(submit(service))
    for case_id in cases:
        clock.advance(1)
        decide(service, case_id)
    first = service.list_by_principal("op:dana", limit=2)
    second = service.list_by_principal("op:dana", limit=2, cursor=first.next_cursor)
    third = service.list_by_principal("op:dana", limit=2, cursor=second.next_cursor)
    assert [e.case_id for e in first.items + second.items + third.items] == list(reversed(cases))
    assert third.next_cursor is None
    refs1 = service.cases_by_ref("neo4j_node", "lgv_id", "LGV-07", limit=3)
    refs2 = service.cases_by_ref("neo4j_node", "lgv_id", "LGV-07", limit=3, cursor=refs1.next_cursor)
    assert sorted(refs1.items + refs2.items) == sorted(cases)
    assert refs2.next_cursor is None


# ---------------------------------------------------------------------------- escalation
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


# ---------------------------------------------------------------------------- projection
def test_drift_detection_and_rebuild(service: CaseService, store: CaseStore) -> None:
    one, two = submit(service), submit(service)
    ask(service, one)
    decide(service, two)
    clean = service.check_drift()
    assert not clean.drifted
    assert clean.cases == 2
    live = {s.case_id: s for s in store.list_states()}
    store.replace_states([replace(live[one], current_state="approved"), live[two]])
    drift = service.check_drift()
    assert drift.drifted
    assert drift.drifted_case_ids == [one]
    assert drift.recomputed_hash == clean.live_hash
    repaired = service.rebuild_projection()
    assert repaired.drifted_case_ids == [one]
    after = service.check_drift()
    assert not after.drifted
    assert after.live_hash == clean.live_hash
    assert service.get_case(one).record.state.current_state == "needs_clarification"
    reply(service, one)  # the rebuilt projection is usable


def test_redaction_hook_applies_before_storage(store: CaseStore, clock: FakeClock) -> None:
    from caseplatform.redaction import mask_contacts

    service = CaseService(store, clock=clock, redactor=mask_contacts)
    service.ensure_default_adapters()
    case_id = submit(
        service, summary="call dana@example.com", payload=lgv_payload(evidence=["phone +972501234567"])
    )
    service.request_clarification(
        case_id=case_id,
        question="Reach 0501234567?",
        notes="from dana@example.com",
        actor=AGENT,
        request_id="r-1",
    )
    view = service.get_case(case_id)
    assert view.record.case.summary == "call [redacted-email]"
    assert view.payload["evidence"] == ["phone [redacted-phone]"]
    event = service.get_case_history(case_id)[-1]
    assert (event.question, event.notes) == ("Reach [redacted-phone]?", "from [redacted-email]")
    assert "dana@example.com" not in event.event_json
    # Deterministic redaction keeps retries idempotent.
    again = service.request_clarification(
        case_id=case_id,
        question="Reach 0501234567?",
        notes="from dana@example.com",
        actor=AGENT,
        request_id="r-1",
    )
    assert again == event


def test_cases_by_payload_field_pages_on_with_its_cursor(service: CaseService, clock: FakeClock) -> None:
    wanted = []
    for i in range(7):
        clock.advance(1)
        lgv = "LGV-09" if i % 2 == 0 else "LGV-10"
        case_id = submit(service, payload=lgv_payload(lgv_id=lgv))
        if lgv == "LGV-09":
            wanted.append(case_id)
    seen: list[str] = []
    cursor = None
    for _ in range(10):
        page = service.cases_by_payload_field(
            "lgv_troubleshooting", "lgv_id", "LGV-09", limit=1, cursor=cursor
        )
        seen += [r.case.case_id for r in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert sorted(seen) == sorted(wanted) and len(seen) == len(set(seen)) == 4

    two = service.cases_by_payload_field("lgv_troubleshooting", "lgv_id", "LGV-09", limit=2)
    rest = service.cases_by_payload_field("lgv_troubleshooting", "lgv_id", "LGV-09", cursor=two.next_cursor)
    assert [r.case.case_id for r in two.items + rest.items] == seen and rest.next_cursor is None


def test_cases_by_payload_field_refuses_a_cursor_it_never_issued(service: CaseService) -> None:
    with pytest.raises(InvalidCursor):
        service.cases_by_payload_field("lgv_troubleshooting", "lgv_id", "LGV-09", cursor="not-a-cursor!")
