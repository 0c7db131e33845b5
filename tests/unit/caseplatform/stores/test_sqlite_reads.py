"""The SQLite store's queries: a case without a projection is not read as a record."""

from __future__ import annotations

from caseplatform.service import CaseService
from caseplatform.stores.sqlite import SqliteCaseStore
from tests.unit.caseplatform.factories import submit


def test_a_case_without_a_projection_is_not_listed_and_rebuild_restores_it(service: CaseService) -> None:
    """current_state NULL is what a missing hitl_state row was: the case is not read as a record until
    the projection is rebuilt from its events."""
    store = service.store
    assert isinstance(store, SqliteCaseStore)
    kept, lost = submit(service), submit(service)
    store._conn().execute(
        "UPDATE hitl_cases SET current_state = NULL, state_updated_at_ms = NULL WHERE case_id = ?", (lost,)
    )
    assert [r.case.case_id for r in service.list_cases().items] == [kept]
    assert store.get_case(lost) is None
    assert [s.case_id for s in store.list_states()] == [kept]
    assert service.check_drift().drifted_case_ids == [lost]
    assert service.rebuild_projection().drifted_case_ids == [lost]
    assert service.check_drift().drifted is False
    assert service.get_record(lost).state.current_state == "pending"
