"""The escalation sweep: needs_clarification cases past their adapter's SLA get an `escalated`
event (actor: system) and their escalation fields set, in the same transaction; then the adapter's
escalation target is notified, once per escalation, with a link to the case.

Safe to run concurrently and repeatedly: each escalation is keyed by (case, due time), so two sweeps
append one event and only the sweep that wrote it notifies; a case resolved meanwhile is skipped.
While a case stays unresolved it is escalated (and notified) again every `reescalation_interval_days`
when the adapter sets one. The scheduled Lambda (`functions/escalation/handler.py`) runs it on
DynamoDB and notifies an SNS topic; `hitl escalate [--notify-file F]` runs it on SQLite and writes
the notices to a readable JSON-lines sink.

A notification that fails after its event was written is not retried by the next sweep (the event
is there, so the case is no longer due until its re-escalation): the sweep reports it as
`failed_notifications` and the Lambda logs and counts it, so an alarm can fire on it.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from caseplatform.model import Case, Event
from caseplatform.queries import MAX_LIMIT
from caseplatform.service import CaseService

log = logging.getLogger("caseplatform.escalation")


@dataclass(frozen=True)
class EscalationNotice:
    """What the escalation target is told: which case, why, and where to open it."""

    event_id: str
    case_id: str
    adapter_id: str
    case_type: str
    title: str
    priority: str
    target: str | None
    escalated_at_ms: int
    next_escalation_at_ms: int | None
    link: str | None

    @classmethod
    def of(cls, case: Case, event: Event, link: str | None) -> EscalationNotice:
        return cls(
            event_id=event.event_id,
            case_id=case.case_id,
            adapter_id=case.adapter_id,
            case_type=case.case_type,
            title=case.title,
            priority=case.priority,
            target=event.escalation_target,
            escalated_at_ms=event.created_at_ms,
            next_escalation_at_ms=event.escalation_due_at_ms,
            link=link,
        )

    @property
    def subject(self) -> str:
        # SNS subjects: at most 100 ASCII characters, no line breaks.
        text = f"[HITL {self.priority}] escalated: {self.title}"
        return "".join(c if 32 <= ord(c) < 127 else "?" for c in text)[:100]

    @property
    def text(self) -> str:
        when = datetime.fromtimestamp(self.escalated_at_ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
        lines = [
            f"Case {self.case_id} ({self.adapter_id}, priority {self.priority}) has waited for a "
            f"clarification past its SLA and is escalated to {self.target or 'its adapter owners'} ({when}).",
            f"Title: {self.title}",
        ]
        if self.link:
            lines.append(f"Open it: {self.link}")
        if self.next_escalation_at_ms is not None:
            again = datetime.fromtimestamp(self.next_escalation_at_ms / 1000, tz=UTC)
            lines.append(f"It is escalated again on {again:%Y-%m-%d %H:%M} UTC if still unresolved.")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "subject": self.subject, "text": self.text}


class Notifier(Protocol):
    """Delivers one escalation notice (SNS deployed, a file locally). Raises when it could not."""

    def notify(self, notice: EscalationNotice) -> None: ...


class JsonLinesSink:
    """The local notification channel: one JSON object per notice, appended to `path`, readable by a
    person (`tail -f`) and by tests (`read()`). A notice whose event id is already in the file is not
    written twice."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def notify(self, notice: EscalationNotice) -> None:
        with self._lock:
            if any(n["event_id"] == notice.event_id for n in self.read()):
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as sink:
                sink.write(json.dumps(notice.to_dict(), ensure_ascii=False) + "\n")
                sink.flush()
                os.fsync(sink.fileno())

    def read(self) -> list[dict[str, Any]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def case_link(base_url: str | None) -> Callable[[str], str | None]:
    """The reviewer page's link to a case: `<base>#case=<case_id>` (the page opens that case)."""

    def link(case_id: str) -> str | None:
        return None if not base_url else f"{base_url}#case={case_id}"

    return link


NO_LINK = case_link(None)


@dataclass(frozen=True)
class SweepResult:
    checked: int
    escalated: list[Event] = field(default_factory=list)
    notified: list[EscalationNotice] = field(default_factory=list)
    failed_notifications: list[str] = field(default_factory=list)  # case ids


def sweep(
    service: CaseService,
    *,
    now_ms: int | None = None,
    max_cases: int = 1000,
    notifier: Notifier | None = None,
    link: Callable[[str], str | None] = NO_LINK,
) -> SweepResult:
    """Escalate every case whose escalation_due_at_ms <= now (at most `max_cases` per run) and notify
    `notifier` of each escalation this sweep wrote."""
    now = service.clock() if now_ms is None else now_ms
    escalated: list[Event] = []
    notified: list[EscalationNotice] = []
    failed: list[str] = []
    checked = 0
    cursor: str | None = None
    while checked < max_cases:
        page = service.store.escalation_due(now, limit=min(MAX_LIMIT, max_cases - checked), cursor=cursor)
        for state in page.items:
            checked += 1
            event = service.escalate(state, now)
            if event is None:
                continue
            escalated.append(event)
            if notifier is None:
                continue
            notice = EscalationNotice.of(service.get_record(event.case_id).case, event, link(event.case_id))
            try:
                notifier.notify(notice)
            except Exception:  # one channel failure must not stop the sweep of the other cases
                log.exception("HITL_ESCALATION_NOTIFY_FAILED", extra={"case_id": event.case_id})
                failed.append(event.case_id)
            else:
                notified.append(notice)
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    return SweepResult(checked=checked, escalated=escalated, notified=notified, failed_notifications=failed)


def past_sla(service: CaseService, *, now_ms: int | None = None) -> int:
    """How many needs_clarification cases are past their clarification SLA now: escalated and still
    unresolved, or due and not escalated yet (the metric the past-SLA alarm watches)."""
    now = service.clock() if now_ms is None else now_ms
    count = 0
    cursor: str | None = None
    while True:
        page = service.store.list_cases(limit=MAX_LIMIT, cursor=cursor, state="needs_clarification")
        for record in page.items:
            due = record.state.escalation_due_at_ms
            if record.state.escalated_at_ms is not None or (due is not None and due <= now):
                count += 1
        if page.next_cursor is None:
            return count
        cursor = page.next_cursor
