"""The events are the authority, the projection a fold of them: recompute it, compare it with the live
one (drift), and repair it.

Two ways over the cases: the whole store at once (`check_drift`, `rebuild`: `hitl drift` and `hitl
rebuild`, with the hashes of both projections), and a bounded run that resumes (`scan`: the
escalation Lambda's drift and rebuild jobs, which must end within the Lambda's time limit). A case
has drifted when its stored projection is not the fold of its events, or when what the store
derives from the projection (DynamoDB: the case item's index keys, the TERMINAL guard) disagrees
with it. A repair is decided and written atomically per case, so one running next to live commands
never writes a stale fold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from caseplatform import statemachine
from caseplatform.model import CaseState, canonical_json, sha256_hex
from caseplatform.ports import CaseStore, ProjectionRead

# Cases read from the store per page of a bounded run.
PAGE_SIZE = 100


@dataclass(frozen=True)
class DriftReport:
    live_hash: str
    recomputed_hash: str
    drifted_case_ids: list[str]
    cases: int

    @property
    def drifted(self) -> bool:
        return bool(self.drifted_case_ids) or self.live_hash != self.recomputed_hash


@dataclass(frozen=True)
class ScanReport:
    """A bounded run over the cases: how many it checked, what it found and repaired, and where to
    resume (`next_cursor`, None once the last case was checked). `stopped_by`: why it ended before
    the last case (`max_cases` checked, or `time` running out), None when it reached the end."""

    checked: int
    drifted_case_ids: list[str] = field(default_factory=list)
    repaired_case_ids: list[str] = field(default_factory=list)
    unrepairable_case_ids: list[str] = field(default_factory=list)
    next_cursor: str | None = None
    stopped_by: Literal["max_cases", "time"] | None = None

    @property
    def complete(self) -> bool:
        return self.next_cursor is None


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


def _drifted(read: ProjectionRead) -> bool:
    return not read.consistent or read.live != statemachine.project(read.events)


def check_drift(store: CaseStore) -> DriftReport:
    """The whole store: each case's projection read with its events and compared with their fold."""
    live: list[CaseState] = []
    recomputed: list[CaseState] = []
    drifted = []
    for case_id in store.iter_case_ids():
        read = store.read_projection(case_id)
        state = statemachine.project(read.events)
        live.extend([read.live] if read.live is not None else [])
        recomputed.extend([state] if state is not None else [])
        if _drifted(read):
            drifted.append(case_id)
    return DriftReport(projection_hash(live), projection_hash(recomputed), sorted(drifted), len(recomputed))


def rebuild(store: CaseStore) -> DriftReport:
    """Repair every drifted case from its events; returns the drift found before the repair (a case
    the store cannot repair is still drifted in a check made after it)."""
    before = check_drift(store)
    for case_id in before.drifted_case_ids:
        store.repair_projection(case_id, statemachine.project)
    return before


def scan(
    store: CaseStore,
    *,
    repair: bool,
    max_cases: int,
    cursor: str | None = None,
    time_left: Callable[[], bool] = lambda: True,
) -> ScanReport:
    """Check (and with `repair`, repair) the cases page by page from `cursor`: at most `max_cases`,
    and no page after the first once `time_left()` is False. Resume with the report's `next_cursor`."""
    checked = 0
    found: dict[str, list[str]] = {"drifted": [], "repaired": [], "unrepairable": []}
    stopped_by: Literal["max_cases", "time"] | None = None
    while True:
        if checked >= max_cases:
            stopped_by = "max_cases"
            break
        if checked and not time_left():  # the first page always runs: every run makes progress
            stopped_by = "time"
            break
        page = store.case_ids(limit=min(PAGE_SIZE, max_cases - checked), cursor=cursor)
        for case_id in page.items:
            outcome = _repair(store, case_id) if repair else _check(store, case_id)
            for name in outcome:
                found[name].append(case_id)
        checked += len(page.items)
        cursor = page.next_cursor
        if cursor is None:
            break
    return ScanReport(checked, found["drifted"], found["repaired"], found["unrepairable"], cursor, stopped_by)


def _check(store: CaseStore, case_id: str) -> tuple[str, ...]:
    """Drifted, read twice: a case written between the two reads of a store that cannot read them
    together (DynamoDB's Query may see part of a transaction) is not reported."""
    if _drifted(store.read_projection(case_id)) and _drifted(store.read_projection(case_id)):
        return ("drifted",)
    return ()


def _repair(store: CaseStore, case_id: str) -> tuple[str, ...]:
    outcome = store.repair_projection(case_id, statemachine.project)
    return () if outcome == "clean" else ("drifted", outcome)
