"""The events are the authority, the projection (`hitl_state`) a fold of them: recompute it, compare
it with the live one (drift), and rebuild it.
"""

from __future__ import annotations

from dataclasses import dataclass

from caseplatform import statemachine
from caseplatform.model import CaseState, canonical_json, sha256_hex
from caseplatform.ports import CaseStore


@dataclass(frozen=True)
class DriftReport:
    live_hash: str
    recomputed_hash: str
    drifted_case_ids: list[str]
    cases: int

    @property
    def drifted(self) -> bool:
        return self.live_hash != self.recomputed_hash


def projection_hash(states: list[CaseState]) -> str:
    rows = sorted((s.to_dict() for s in states), key=lambda row: str(row["case_id"]))
    return sha256_hex(canonical_json(rows))


def recompute(store: CaseStore) -> list[CaseState]:
    """Every case's projection folded from its ordered events."""
    states = []
    for case_id in store.iter_case_ids():
        state = statemachine.project(store.list_events(case_id))
        if state is not None:
            states.append(state)
    return states


def check_drift(store: CaseStore) -> DriftReport:
    live = store.list_states()
    recomputed = recompute(store)
    live_by_id = {s.case_id: s for s in live}
    recomputed_by_id = {s.case_id: s for s in recomputed}
    drifted = sorted(
        case_id
        for case_id in live_by_id.keys() | recomputed_by_id.keys()
        if live_by_id.get(case_id) != recomputed_by_id.get(case_id)
    )
    return DriftReport(projection_hash(live), projection_hash(recomputed), drifted, len(recomputed))


def rebuild(store: CaseStore) -> DriftReport:
    """Recompute hitl_state from the ordered events and replace it; returns the drift it repaired."""
    before = check_drift(store)
    store.replace_states(recompute(store))
    return before
