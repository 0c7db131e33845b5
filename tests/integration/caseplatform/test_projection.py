"""The projection as a fold of the events, on SQLite and DynamoDB (moto): drift between the live
projection and the recomputed one is found case by case, and a rebuild repairs it."""

from __future__ import annotations

from dataclasses import replace

from caseplatform.ports import CaseStore
from caseplatform.service import CaseService
from tests.integration.caseplatform.steps import ask, decide, reply
from tests.unit.caseplatform.factories import submit


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
