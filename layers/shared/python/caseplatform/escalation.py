"""The escalation sweep: needs_clarification cases past their adapter's SLA get an `escalated`
event (actor: system) and their escalation fields set, in the same transaction.

Safe to run concurrently and repeatedly: each escalation is keyed by (case, due time), so two sweeps
append one event, and a case resolved meanwhile is skipped. The scheduled Lambda
(`functions/escalation/handler.py`) runs it on DynamoDB; `hitl escalate` runs it on SQLite.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from caseplatform.model import Event
from caseplatform.queries import MAX_LIMIT
from caseplatform.service import CaseService


@dataclass(frozen=True)
class SweepResult:
    checked: int
    escalated: list[Event] = field(default_factory=list)


def sweep(service: CaseService, *, now_ms: int | None = None, max_cases: int = 1000) -> SweepResult:
    """Escalate every case whose escalation_due_at_ms <= now (at most `max_cases` per run)."""
    now = service.clock() if now_ms is None else now_ms
    escalated: list[Event] = []
    checked = 0
    cursor: str | None = None
    while checked < max_cases:
        page = service.store.escalation_due(now, limit=min(MAX_LIMIT, max_cases - checked), cursor=cursor)
        for state in page.items:
            checked += 1
            event = service.escalate(state, now)
            if event is not None:
                escalated.append(event)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    return SweepResult(checked=checked, escalated=escalated)
