"""The SQLite store's projection maintenance: the cases page by page oldest first, a case's projection
read with its events, and a repair that writes only a projection that is not the fold of the
events, decided under the write lock."""

from __future__ import annotations

import pytest

from caseplatform import statemachine
from caseplatform.errors import CaseNotFound, InvalidCursor
from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import AGENT, DAY_MS, FakeClock, submit


def _store(service: CaseService) -> SqliteCaseStore:
    assert isinstance(service.store, SqliteCaseStore)
    return service.store


def test_the_cases_page_oldest_first(service: CaseService, clock: FakeClock) -> None:
    ids = []
    for _ in range(3):
        ids.append(submit(service))
        clock.advance(DAY_MS)
    store = _store(service)
    first = store.case_ids(limit=2)
    assert first.items == ids[:2] and first.next_cursor is not None
    rest = store.case_ids(limit=2, cursor=first.next_cursor)
    assert (rest.items, rest.next_cursor) == (ids[2:], None)
    assert store.case_ids(limit=3).next_cursor is None  # exactly a page: nothing after it
    with pytest.raises(InvalidCursor):
        store.case_ids(limit=2, cursor="WzFd")  # [1]: not this query's cursor


def test_a_projection_is_read_with_its_events_and_repaired_only_when_it_differs(service: CaseService) -> None:
    store = _store(service)
    case_id = submit(service)
    service.request_clarification(
        case_id=case_id, question="Which map?", notes="", actor=AGENT, request_id="q"
    )
    read = store.read_projection(case_id)
    assert [e.event_type for e in read.events] == ["submitted", "needs_clarification"]
    assert read.live == statemachine.project(read.events) and read.consistent
    assert store.repair_projection(case_id, statemachine.project) == "clean"

    store._conn().execute(
        "UPDATE hitl_cases SET current_state = NULL, state_updated_at_ms = NULL WHERE case_id = ?", (case_id,)
    )
    assert store.read_projection(case_id).live is None
    assert store.repair_projection(case_id, statemachine.project) == "repaired"
    assert service.get_record(case_id).state == statemachine.project(read.events)


def test_a_case_that_does_not_exist_is_not_found(service: CaseService) -> None:
    store = _store(service)
    with pytest.raises(CaseNotFound):
        store.read_projection("HITL-missing")
    with pytest.raises(CaseNotFound):
        store.repair_projection("HITL-missing", statemachine.project)
