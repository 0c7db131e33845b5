"""Review metrics computed from the events (the authority), the same on every store.

Two durations, grouped by adapter and by period (of the time the measured event was written):
    review latency             a `decision_recorded` event's time minus its case's submission time
    clarification turnaround   a `clarification_provided` event's time minus the time the round's
                               first question was asked (a revised question keeps the round's start)
Each group reports the count, the median (the middle value; the mean of the two middle ones for an
even count, rounded down to the millisecond) and the 90th percentile by nearest rank (the smallest
duration at or above 90% of them). Only events with from_ms <= created_at_ms < to_ms are measured.

The events are read a page at a time through the store's event-type listing; each measured case is
read once (its envelope; and its events for a clarification). That suits an operator's report, not a
request path: a window's cost grows with the events in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from caseplatform.errors import EnvelopeInvalid
from caseplatform.model import Case, Event, EventType
from caseplatform.ports import CaseStore
from caseplatform.queries import MAX_LIMIT

# Periods a report may split its window into (as the decision statistics' buckets).
MAX_PERIODS = 1000


@dataclass(frozen=True)
class Distribution:
    count: int
    median_ms: int | None
    p90_ms: int | None

    @classmethod
    def of(cls, durations: list[int]) -> Distribution:
        if not durations:
            return cls(0, None, None)
        ordered = sorted(durations)
        n = len(ordered)
        middle = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) // 2
        rank = -(-9 * n // 10)  # ceil(0.9 n), at least 1
        return cls(n, middle, ordered[rank - 1])

    def to_dict(self) -> dict[str, int | None]:
        return {"count": self.count, "median_ms": self.median_ms, "p90_ms": self.p90_ms}


@dataclass(frozen=True)
class MetricsRow:
    adapter_id: str
    period_start_ms: int
    review_latency: Distribution
    clarification_turnaround: Distribution

    def to_dict(self) -> dict[str, object]:
        return {
            "adapter_id": self.adapter_id,
            "period_start_ms": self.period_start_ms,
            "review_latency": self.review_latency.to_dict(),
            "clarification_turnaround": self.clarification_turnaround.to_dict(),
        }


@dataclass(frozen=True)
class Window:
    """The measured window, split into periods of `period_ms` (the whole window when None)."""

    from_ms: int
    to_ms: int
    period_ms: int | None = None

    def __post_init__(self) -> None:
        if self.to_ms <= self.from_ms:
            raise EnvelopeInvalid([{"path": "$.to_ms", "message": "need from_ms < to_ms"}])
        if self.period_ms is not None and (
            self.period_ms <= 0 or -(-(self.to_ms - self.from_ms) // self.period_ms) > MAX_PERIODS
        ):
            message = f"period_ms must be positive and split the window into at most {MAX_PERIODS} periods"
            raise EnvelopeInvalid([{"path": "$.period_ms", "message": message}])

    def period_of(self, at_ms: int) -> int:
        if self.period_ms is None:
            return self.from_ms
        return self.from_ms + (at_ms - self.from_ms) // self.period_ms * self.period_ms


def review_metrics(store: CaseStore, window: Window, *, adapter_id: str | None = None) -> list[MetricsRow]:
    """One row per (adapter, period) with anything measured, by adapter then period."""
    cases: dict[str, Case | None] = {}
    latency: dict[tuple[str, int], list[int]] = {}
    turnaround: dict[tuple[str, int], list[int]] = {}
    for event in _events(store, "decision_recorded", window):
        case = _case(store, cases, event.case_id)
        if case is not None and adapter_id in (None, case.adapter_id):
            key = (case.adapter_id, window.period_of(event.created_at_ms))
            latency.setdefault(key, []).append(event.created_at_ms - case.created_at_ms)
    answered: dict[str, list[Event]] = {}
    for event in _events(store, "clarification_provided", window):
        answered.setdefault(event.case_id, []).append(event)
    for case_id, events in answered.items():
        case = _case(store, cases, case_id)
        if case is None or adapter_id not in (None, case.adapter_id):
            continue
        wanted = {e.event_id for e in events}
        for answered_at, asked_at in _rounds(store.list_events(case_id)):
            if answered_at.event_id in wanted:
                key = (case.adapter_id, window.period_of(answered_at.created_at_ms))
                turnaround.setdefault(key, []).append(answered_at.created_at_ms - asked_at)
    return [
        MetricsRow(
            key[0], key[1], Distribution.of(latency.get(key, [])), Distribution.of(turnaround.get(key, []))
        )
        for key in sorted(latency.keys() | turnaround.keys())
    ]


def _events(store: CaseStore, event_type: EventType, window: Window) -> Iterator[Event]:
    cursor: str | None = None
    while True:
        page = store.list_events_by_type(
            event_type, from_ms=window.from_ms, to_ms=window.to_ms, limit=MAX_LIMIT, cursor=cursor
        )
        yield from page.items
        if page.next_cursor is None:
            return
        cursor = page.next_cursor


def _case(store: CaseStore, cases: dict[str, Case | None], case_id: str) -> Case | None:
    if case_id not in cases:
        record = store.get_case(case_id)
        cases[case_id] = None if record is None else record.case
    return cases[case_id]


def _rounds(events: list[Event]) -> Iterator[tuple[Event, int]]:
    """Each answer of a case with the time its round's first question was asked."""
    asked_at: int | None = None
    for event in events:
        if event.event_type == "needs_clarification" and asked_at is None:
            asked_at = event.created_at_ms
        elif event.event_type == "clarification_provided" and asked_at is not None:
            yield event, asked_at
            asked_at = None
        elif event.event_type == "decision_recorded":
            asked_at = None
