"""The read side (`CaseQueries` through `CaseService`), the same on SQLite and DynamoDB (moto): listings
page through everything in their order, the review queue is most urgent then oldest first, and the
audit, principal, ref, payload-field and statistics queries find what they should."""

from __future__ import annotations

import pytest

from caseplatform import answers
from caseplatform.errors import InvalidCursor
from caseplatform.queries import MAX_LIMIT, Bucket, clamp_limit
from caseplatform.service import CaseService
from tests.integration.caseplatform.steps import ask, decide
from tests.unit.caseplatform.factories import DAY_MS, OTHER_OPERATOR, T0, FakeClock, lgv_payload, submit


def test_list_cases_pages_through_everything_newest_first(service: CaseService, clock: FakeClock) -> None:
    created = []
    for index in range(7):
        clock.advance(10)
        created.append(submit(service, priority="high" if index % 2 else "low"))
    seen: list[str] = []
    cursor = None
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


def test_page_sizes_are_clamped() -> None:
    assert [clamp_limit(n) for n in (None, 0, -5, 1, 73, MAX_LIMIT + 1)] == [50, 1, 1, 1, 73, MAX_LIMIT]


def test_a_bucket_without_decisions_has_no_approval_rate() -> None:
    assert Bucket(0, submitted=4, approved=0, rejected=0).approval_rate is None
    assert (Bucket(0, 0, approved=3, rejected=1).decided, Bucket(0, 0, 3, 1).approval_rate) == (4, 0.75)


def test_the_clarification_backlog_ages_from_the_first_question(
    service: CaseService, clock: FakeClock
) -> None:
    case_id = submit(service)
    ask(service, case_id, "Which map?")
    clock.advance(DAY_MS)
    ask(service, case_id, "Which map, and since when?")  # a revision keeps the age
    clock.advance(DAY_MS)
    assert [(r.case.case_id, age) for r, age in service.clarification_backlog().items] == [
        (case_id, 2 * DAY_MS)
    ]
