"""Escalation tiers for cases waiting for a decision: a pending case that has waited longer than a
tier's `after_minutes` since it was submitted is reassigned to that tier's target, with an
`escalated` event (actor: system; the projection's `escalation_target` names the tier) and a notice
to the target.

The policy is the adapter's, in its active schema's `x-hitl` (validated with the rest of it):

    "escalation_tiers": [{"after_minutes": 240, "target": "lgv-support-tier2"},
                         {"after_minutes": 1440, "target": "lgv-support-tier3"}],
    "team_escalation_tiers": {"lgv-ops": [{"after_minutes": 60, "target": "lgv-ops-lead"}]}

A case submitted by a member of a team named in `team_escalation_tiers` follows that team's tiers,
any other case the adapter's. Tiers are ordered by `after_minutes`; a case is reassigned to the
highest tier it has reached (one that waited past two tiers between runs goes straight to the
second), each tier once per case (the event's request id is `escalation-tier:<n>`), so concurrent
and repeated runs write and notify once, and a case never goes back to a lower tier. A case that is
not pending any more when the event would be written (asked a question, decided) is skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from caseplatform import decisions, statemachine
from caseplatform.errors import EscalationNotDue
from caseplatform.escalation import NO_LINK, EscalationNotice, Notifier
from caseplatform.ids import new_uuid4
from caseplatform.model import Case, CaseRecord, Event
from caseplatform.ports import CaseSnapshot, Transition
from caseplatform.queries import MAX_LIMIT
from caseplatform.service import CaseService

MINUTE_MS = 60 * 1000
log = logging.getLogger("caseplatform.governance.tiers")


@dataclass(frozen=True)
class Tier:
    level: int  # 1 for the first tier
    after_minutes: float
    target: str


def tiers_of(policy: dict[str, Any], team: str | None) -> tuple[Tier, ...]:
    """The tiers that apply to a case of a submitter's team, lowest first."""
    by_team = policy.get("team_escalation_tiers") or {}
    raw = by_team.get(team) if team is not None and team in by_team else policy.get("escalation_tiers")
    ordered = sorted(raw or [], key=lambda t: t["after_minutes"])
    return tuple(Tier(n, t["after_minutes"], t["target"]) for n, t in enumerate(ordered, start=1))


def reached(tiers: tuple[Tier, ...], waited_ms: int) -> Tier | None:
    """The highest tier a case that has waited `waited_ms` has reached."""
    found = [t for t in tiers if waited_ms >= round(t.after_minutes * MINUTE_MS)]
    return found[-1] if found else None


@dataclass(frozen=True)
class TierNotice(EscalationNotice):
    """The notice of a reassignment: the case waits for a decision, not for a clarification."""

    waited_minutes: int = 0

    @property
    def text(self) -> str:
        when = datetime.fromtimestamp(self.escalated_at_ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
        lines = [
            f"Case {self.case_id} ({self.adapter_id}, priority {self.priority}) has waited "
            f"{self.waited_minutes} minutes for a decision and is reassigned to {self.target} ({when}).",
            f"Title: {self.title}",
        ]
        if self.link:
            lines.append(f"Open it: {self.link}")
        return "\n".join(lines)


@dataclass(frozen=True)
class TierSweepResult:
    checked: int
    reassigned: list[Event] = field(default_factory=list)
    notified: list[TierNotice] = field(default_factory=list)
    failed_notifications: list[str] = field(default_factory=list)  # case ids


def sweep_tiers(
    service: CaseService,
    *,
    now_ms: int | None = None,
    max_cases: int = 1000,
    notifier: Notifier | None = None,
    link: Callable[[str], str | None] = NO_LINK,
) -> TierSweepResult:
    """Reassign the pending cases that reached a tier they are not at yet (at most `max_cases` per
    run; the next run goes on), and notify each tier's target. Every pending case is read, a page at
    a time; one already at the tier it reached costs no write."""
    now = service.clock() if now_ms is None else now_ms
    policies: dict[str, dict[str, Any]] = {}
    result = TierSweepResult(checked=0)
    checked = 0
    for record in _pending(service):
        if len(result.reassigned) >= max_cases:
            break
        checked += 1
        case, state = record.case, record.state
        if case.adapter_id not in policies:
            active = service.registry.active(case.adapter_id)
            policies[case.adapter_id] = {} if active is None else dict(active.schema.get("x-hitl") or {})
        tier = reached(tiers_of(policies[case.adapter_id], case.submitter.team), now - case.created_at_ms)
        if tier is None or (state.escalated_at_ms is not None and state.escalation_target == tier.target):
            continue
        event = reassign(service, case, tier, now)
        if event is not None:
            result.reassigned.append(event)
            base = EscalationNotice.of(case, event, link(case.case_id))
            waited = (now - case.created_at_ms) // MINUTE_MS
            _notify(result, notifier, TierNotice(**asdict(base), waited_minutes=waited))
    return replace(result, checked=checked)


def _pending(service: CaseService) -> Iterator[CaseRecord]:
    cursor: str | None = None
    while True:
        page = service.store.list_cases(state="pending", limit=MAX_LIMIT, cursor=cursor)
        yield from page.items
        if page.next_cursor is None:
            return
        cursor = page.next_cursor


def _notify(result: TierSweepResult, notifier: Notifier | None, notice: TierNotice) -> None:
    if notifier is None:
        return
    try:
        notifier.notify(notice)
    except Exception:  # one channel failure must not stop the run for the other cases
        log.exception("HITL_TIER_NOTIFY_FAILED", extra={"case_id": notice.case_id})
        result.failed_notifications.append(notice.case_id)
    else:
        result.notified.append(notice)


def reassign(service: CaseService, case: Case, tier: Tier, now_ms: int) -> Event | None:
    """Append the tier's `escalated` event to a case still pending; None when it is not pending any
    more or this tier was written before (by this run's predecessor or a racing one)."""
    request_id = f"escalation-tier:{tier.level}"
    request_hash = decisions.intent_hash(
        {"case_id": case.case_id, "tier": tier.level, "target": tier.target}, "escalate"
    )
    notes = f"pending past {tier.after_minutes:g} minutes; reassigned to tier {tier.level} ({tier.target})"

    def decide(snap: CaseSnapshot) -> Transition:
        live = snap.state
        if live.current_state != "pending":
            raise EscalationNotDue(live.case_id)
        event = Event(
            event_id=f"HEV-{new_uuid4()}",
            case_id=case.case_id,
            event_type="escalated",
            notes=notes,
            actor=decisions.SYSTEM_ACTOR,
            created_at_ms=max(now_ms, live.updated_at_ms),  # a case's events never go back in time
            state_after="pending",
            request_id=request_id,
            request_hash=request_hash,
            escalation_target=tier.target,
        )
        return Transition(event, statemachine.apply(live, event))

    try:
        recorded = service.store.append(case.case_id, request_id, decide)
    except EscalationNotDue:
        return None
    return None if recorded.replayed else recorded.event
