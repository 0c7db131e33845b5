"""The DynamoDB store's queries: the listings filter and page over their index, newest first."""

from __future__ import annotations

from caseplatform.model import Ref
from caseplatform.service import CaseService
from caseplatform.stores.dynamodb import DynamoCaseStore
from tests.unit.caseplatform.factories import OPERATOR, FakeClock, submit


def test_the_listings_filter_and_page_newest_first(
    dynamo_service: CaseService, dynamo_store: DynamoCaseStore, clock: FakeClock
) -> None:
    first = submit(dynamo_service)
    clock.advance(1000)
    second = submit(dynamo_service, priority="high")
    clock.advance(1000)
    third = submit(dynamo_service)
    dynamo_service.record_decision(
        case_id=third, decision="rejected", notes="no", actor=OPERATOR, request_id="r"
    )

    page = dynamo_store.list_cases(limit=2)
    assert [r.case.case_id for r in page.items] == [third, second]
    rest = dynamo_store.list_cases(limit=2, cursor=page.next_cursor)
    assert ([r.case.case_id for r in rest.items], rest.next_cursor) == ([first], None)
    assert [r.case.case_id for r in dynamo_store.list_cases(priority="high", limit=5).items] == [second]
    assert [r.case.case_id for r in dynamo_store.list_cases(state="rejected", limit=5).items] == [third]

    decided = dynamo_store.list_events_by_type("decision_recorded", from_ms=0, to_ms=clock() + 1, limit=5)
    assert [e.case_id for e in decided.items] == [third]
    assert dynamo_store.list_events_by_type("decision_recorded", from_ms=5, to_ms=5, limit=5).items == []
    by_ref = dynamo_store.cases_by_ref(Ref("neo4j_node", "lgv_id", "LGV-07"), limit=5)
    assert sorted(by_ref.items) == sorted([first, second, third])
    assert [e.event_type for e in dynamo_store.list_events(third)] == ["submitted", "decision_recorded"]
    assert sorted(dynamo_store.iter_case_ids()) == sorted([first, second, third])
